/**
 * The reference list of an article, each entry kept by (style, the item's content, what
 * disambiguation added to it): articles sharing a bibliography cite many of the same works, and
 * an entry of one reads the same in another unless disambiguation differs ("2020a" in one, an
 * added initial in another), which is part of the key. Only the entries not kept yet are
 * rendered, in one `makeBibliography` call restricted to them (citeproc-js's bibsection
 * `include`, https://citeproc-js.readthedocs.io/en/latest/running.html#selective-output-with-makebibliography).
 * Styles where an entry depends on its neighbours or its rank (a citation number, a repeated
 * author replaced by a dash) render the whole list each time.
 */
import { digest, type CslItem } from './bibliography.ts'
import { BoundedCache } from '../bounded-cache.ts'

export interface BibliographyEngine {
  makeBibliography(bibsection?: unknown): [{ entry_ids: string[][] }, string[]] | false
  registry: { getSortedIds(): string[]; registry: Record<string, { disambig: unknown }> }
  bibliography: { opt: { exclude_types?: unknown; exclude_with_fields?: unknown } }
}

/** About 15 MB a render thread at most: an entry's HTML is half a kilobyte, its key a hash. */
const kept = new BoundedCache<string>(20_000)
const contentKeys = new WeakMap<CslItem, string>()
const contentKey = (item: CslItem) => {
  let key = contentKeys.get(item)
  if (key === undefined) contentKeys.set(item, (key = digest(JSON.stringify(item))))
  return key
}

/** An entry here depends only on its item: no citation number, no author dash, no default exclusions. */
export const entriesStandAlone = (styleText: string, engine: BibliographyEngine) =>
  !styleText.includes('citation-number') &&
  !styleText.includes('subsequent-author-substitute') &&
  !engine.bibliography.opt.exclude_types &&
  !engine.bibliography.opt.exclude_with_fields

/** The cited items in the style's order, each with its entry as HTML. */
export function bibliographyEntries(
  engine: BibliographyEngine,
  style: { name: string; text: string },
  cited: ReadonlyMap<string, CslItem>,
): Array<{ item: CslItem; html: string }> {
  if (!entriesStandAlone(style.text, engine)) return rendered(engine, cited)
  const registry = engine.registry.registry
  const ids = engine.registry
    .getSortedIds()
    .map(String)
    .filter((id) => cited.has(id))
  const keyOf = (id: string) =>
    `${style.name}\0${JSON.stringify(registry[id]?.disambig)}\0${contentKey(cited.get(id)!)}`
  const out = new Map<string, string>()
  for (const id of ids) {
    const html = kept.get(keyOf(id))
    if (html !== undefined) out.set(id, html)
  }
  const missing = ids.filter((id) => !out.has(id))
  if (missing.length)
    for (const { item, html } of rendered(engine, cited, {
      include: missing.map((id) => ({ field: 'id', value: id })),
    })) {
      out.set(item.id, html)
      kept.set(keyOf(item.id), html)
    }
  // An entry the restricted call did not give: the whole list, as citeproc makes it.
  if (ids.some((id) => !out.has(id))) return rendered(engine, cited)
  return ids.map((id) => ({ item: cited.get(id)!, html: out.get(id)! }))
}

function rendered(
  engine: BibliographyEngine,
  cited: ReadonlyMap<string, CslItem>,
  bibsection?: unknown,
): Array<{ item: CslItem; html: string }> {
  const bibliography = engine.makeBibliography(bibsection)
  if (!bibliography) return []
  const [meta, entries] = bibliography
  return entries.flatMap((entry, i) => {
    const item = cited.get(String(meta.entry_ids[i]![0]))
    return item ? [{ item, html: entry.trim() }] : []
  })
}
