/**
 * CSL styles for the citation tests. POSITION_STYLE is a minimal note-like style: the first
 * citation of a work in full, "ibid." right after it, the family name alone later (CSL 1.0.2,
 * the position condition, https://docs.citationstyles.org/en/stable/specification.html#position).
 */
export const POSITION_STYLE = `<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><title>Position test</title><id>position-test</id><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout delimiter="; ">
    <choose>
      <if position="ibid"><text value="ibid."/></if>
      <else-if position="subsequent"><names variable="author"><name form="short"/></names></else-if>
      <else><names variable="author"><name/></names><text variable="title" prefix=", "/></else>
    </choose>
  </layout></citation>
  <bibliography><layout><names variable="author"><name/></names><text variable="title" prefix=". "/></layout></bibliography>
</style>`
