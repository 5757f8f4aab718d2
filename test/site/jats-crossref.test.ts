/**
 * The JATS and Crossref files of a real build of the shipped content: every one valid against
 * its official schema (xmllint), and holding what publishers and Crossref read from it.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { articleFile } from '../../model/article-bucket.ts'
import { isCrossrefDoi } from '../../model/doi.ts'
import { distOf, readIndexedPosts } from '../support/index.ts'
import { validateCrossref, validateJats } from '../support/xml-schemas.ts'

const current = join(distOf('shipped'), 'current')
const posts = readIndexedPosts(distOf('shipped'))
const file = (slug: string, form: 'jats.xml' | 'crossref.xml') => articleFile(current, slug, form)
const read = (slug: string, form: 'jats.xml' | 'crossref.xml') => readFileSync(file(slug, form), 'utf8')
/** The text of every element `name` in `xml`, in order. */
const all = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}(?: [^>]*)?>([^<]*)</${name}>`, 'g'))].map((m) => m[1]!)

/** The cited sample: a DOI, authors with an ORCID iD and affiliations, a licence, a change, a bibliography. */
const SAMPLE = 'second-chance-eviction-under-skew'
/** The sample that cites it, with figures, a table and an equation. */
const CITING = 'cache-eviction-under-skewed-workloads'

describe('JATS and Crossref files of the shipped build', () => {
  it('writes a JATS file for every published article, each valid against the JATS 1.4 schema', async () => {
    expect(posts.length).toBeGreaterThan(2)
    await validateJats(posts.map((p) => read(p.slug, 'jats.xml')))
  }, 60_000)

  it('writes a Crossref deposit exactly for the articles with a DOI, each valid against schema 5.3.1', async () => {
    const withDoi = posts.filter((p) => isCrossrefDoi(p.doi ?? undefined))
    expect(withDoi.map((p) => p.slug)).toContain(SAMPLE)
    for (const p of posts) expect(existsSync(file(p.slug, 'crossref.xml')), p.slug).toBe(withDoi.includes(p))
    await validateCrossref(withDoi.map((p) => read(p.slug, 'crossref.xml')))
  }, 60_000)

  it('gives the article metadata: contributors with ORCID iDs and affiliations, licence, history', () => {
    const xml = read(SAMPLE, 'jats.xml')
    expect(xml).toContain('<article-id pub-id-type="doi">10.5555/lattice.2025.eviction</article-id>')
    expect(all(xml, 'surname')).toEqual(expect.arrayContaining(['Raman', 'Carberry', 'García']))
    expect(xml).toContain('<contrib-id contrib-id-type="orcid">https://orcid.org/0000-0002-1825-0097</contrib-id>')
    expect(all(xml, 'institution')).toEqual(['Lattice Research', 'Brown University'])
    expect(xml).toMatch(/<contrib-id[^>]*>[^<]*<\/contrib-id><name><surname>Carberry<\/surname>.*?rid="aff2"/)
    expect(xml).toContain('<ali:license_ref>https://creativecommons.org/licenses/by/4.0/</ali:license_ref>')
    expect(xml).toMatch(/<pub-history><event event-type="updated"><event-desc>Corrected the cache size/)
    expect(xml).toContain('<pub-date publication-format="electronic" date-type="pub" iso-8601-date="2025-06-12">')
  })

  it('carries the body: numbered sections, figure, table and equation, and cross-references to them', () => {
    const xml = read(CITING, 'jats.xml')
    expect(xml).toContain('<sec id="sec-question"><label>1</label><title>The question</title>')
    expect(xml).toMatch(/<fig id="fig-curves"><label>Figure 1<\/label><caption><p>Hit ratio/)
    expect(xml).toMatch(/<graphic xlink:href="http:\/\/localhost:\d+\/images\/covers\/cache-eviction.svg"/)
    expect(xml).toMatch(/<table-wrap id="tbl-hit-ratio"><label>Table 1<\/label>.*<table><thead><tr><th/)
    expect(xml).toMatch(/<disp-formula id="eq-zipf"><label>\(1\)<\/label><tex-math>p\(i\) = \\frac/)
    expect(xml).not.toContain('\\tag')
    expect(xml).toContain('<xref ref-type="table" rid="tbl-hit-ratio">Table 1</xref>')
    expect(xml).toContain('<xref ref-type="fig" rid="fig-curves">Figure 1</xref>')
    // No References section in the body: the back's ref-list holds it.
    expect(xml.split('<back>')[0]).not.toContain('csl-entry')
  })

  it('lists one ref per reference, each cited in the text, with its DOI as a pub-id', () => {
    const xml = read(CITING, 'jats.xml')
    const ids = [...xml.matchAll(/<ref id="([^"]+)">/g)].map((m) => m[1]!)
    expect(ids).toEqual(['ref-breslau1999', 'ref-einziger2017', 'ref-johnson1994', 'ref-megiddo2004', 'ref-raman2025'])
    const cited = new Set([...xml.matchAll(/<xref ref-type="bibr" rid="([^"]+)"/g)].flatMap((m) => m[1]!.split(' ')))
    expect([...cited].sort()).toEqual([...ids].sort())
    expect(xml).toContain('<pub-id pub-id-type="doi">10.1145/3149371</pub-id>')
    expect(xml).toMatch(/<element-citation publication-type="confproc">.*?<source>Proceedings of IEEE INFOCOM/)
    // A reference without a DOI keeps its URL.
    expect(xml).toContain('<ext-link ext-link-type="uri" xlink:href="https://www.vldb.org/conf/1994/P439.PDF">')
    expect(all(xml, 'mixed-citation')[0]).toMatch(/^Breslau, L\., Cao, P\./)
  })

  it('deposits titles, contributors, dates, licence, DOI and page, and each reference by DOI or text', () => {
    const xml = read(SAMPLE, 'crossref.xml')
    expect(xml).toContain('<doi_batch xmlns="http://www.crossref.org/schema/5.3.1"')
    expect(all(xml, 'title')).toEqual(['Second-Chance Eviction Under Skewed Workloads: A Replication'])
    expect(xml).toContain('<person_name sequence="first" contributor_role="author"><given_name>Priya</given_name>')
    expect(xml).toContain('<ORCID>https://orcid.org/0000-0002-1825-0097</ORCID>')
    expect(xml).toContain('<posted_date media_type="online"><month>06</month><day>12</day><year>2025</year>')
    expect(xml).toMatch(/<ai:license_ref applies_to="vor" start_date="2025-06-12">https:\/\/creativecommons/)
    expect(xml).toMatch(
      /<doi_data><doi>10.5555\/lattice.2025.eviction<\/doi><resource>http:\/\/localhost:\d+\/posts\/second-chance/,
    )
    const citations = [...xml.matchAll(/<citation key="(ref\d+)">(<doi>|<unstructured_citation>)/g)]
    expect(citations.length).toBeGreaterThan(2)
    expect(citations.map((c) => c[1])).toEqual(citations.map((_, i) => `ref${i + 1}`))
    expect(citations.some((c) => c[2] === '<doi>')).toBe(true)
    // The batch is named from the article, and timed by its last change (2025-07-03).
    expect(all(xml, 'timestamp')).toEqual(['20250703000000'])
    expect(all(xml, 'doi_batch_id')[0]).toMatch(/^second-chance-eviction-under-skew-[0-9a-f]{32}$/)
    expect(all(xml, 'depositor_name')).toEqual(['Lattice Research'])
  })
})
