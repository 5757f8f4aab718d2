/**
 * Citations and the reference list by a real CSL processor, citeproc-js through citation-js's
 * CSL plugin, which keeps one engine per style (by its text) for the thread's life. citeproc
 * runs once per article: every cluster in one `rebuildProcessorState` call, so that the
 * processor sees them in order (disambiguation, "ibid." in note styles). Rendering each cluster
 * against the registry alone (`makeCitationCluster`) was 14% faster but ordered the items of a
 * cluster differently from APA's rule (one author's work before theirs with others) in 2 of 434
 * bench articles. The reference entries are kept across articles (entries.ts), and so are the
 * items' sort keys (citeproc-patches.ts) and whole renders, by (style, clusters, cited items).
 * A cold build still runs citeproc once for each citing article, 50 to 60 ms each
 * (docs/benchmark.md): the registry's disambiguation and each cluster's render are the article's
 * own, and are most of it.
 * A narrative citation is the author alone and the year alone (CSL's `author-only` and
 * `suppress-author` flags, https://citeproc-js.readthedocs.io/en/latest/running.html#special-citation-forms),
 * read as "Knuth (1984)".
 */
import { plugins } from '@citation-js/core'
import '@citation-js/plugin-csl'
import './citeproc-patches.ts'
import { digest, type CslItem, type FileProblem, type SourceText } from './bibliography.ts'
import { nearest, type Cluster, type LineProblem } from './syntax.ts'
import { cslNodes } from './csl-html.ts'
import { bibliographyEntries, type BibliographyEngine } from './entries.ts'
import { BoundedCache } from '../bounded-cache.ts'

export { DEFAULT_STYLE } from './default-style.ts'
const LOCALE = 'en-US'
const CSL_NS = 'http://purl.org/net/xbiblio/csl'

interface Engine extends BibliographyEngine {
  rebuildProcessorState(citations: unknown[], format: string, uncited: unknown[]): Array<[string, number, string]>
  updateItems(ids: string[]): void
  opt: { development_extensions: { wrap_url_and_doi: boolean } }
}
interface CslConfig {
  engine(data: CslItem[], style: string, locale: string, format: string): Engine
  styles: { has(name: string): boolean; add(name: string, xml: string): void }
}
const csl = plugins.config.get('@csl') as CslConfig

export interface Rendered {
  /** Each cluster's HTML, by its index in the scan (cross-references are left out). */
  clusters: Map<number, string>
  /** The cited items in the style's order, each with its reference as HTML. */
  entries: Array<{ item: CslItem; html: string }>
  /** citeproc's HTML as sanitised nodes (csl-html.ts), the item's DOI or URL a link. */
  nodes: typeof cslNodes
}

/** The style's name in citation-js's register (added on first use); a file that is no CSL style is a problem. */
function styleName(style: SourceText): string | FileProblem {
  const name = `lattice-${digest(style.text).slice(0, 16)}`
  if (csl.styles.has(name)) return name
  if (!style.text.includes(CSL_NS) || !/<citation[\s>]/.test(style.text))
    return {
      file: style.file,
      message: 'this is not a CSL style (no <style> in the CSL namespace with a <citation>)',
      fix:
        'use a .csl file from https://github.com/citation-style-language/styles, ' +
        'or remove csl: for the site default',
    }
  csl.styles.add(name, style.text)
  return name
}

export function renderCitations(
  clusters: readonly Cluster[],
  items: ReadonlyMap<string, CslItem>,
  style: SourceText,
): { rendered?: Rendered; problems: LineProblem[]; fileProblems: FileProblem[] } {
  const problems: LineProblem[] = []
  const keys = [...items.keys()]
  const cited = new Map<string, CslItem>()
  for (const c of clusters) {
    if (c.kind !== 'cite') continue
    for (const { key } of c.items) {
      const item = items.get(key)
      if (item) cited.set(key, item)
      else problems.push(unknownKey(key, c.line, keys))
    }
  }
  const name = styleName(style)
  if (typeof name !== 'string') return { problems, fileProblems: [name] }
  if (problems.length || cited.size === 0) return { problems, fileProblems: [] }
  const key = renderKey(name, clusters, cited)
  const kept = renders.get(key)
  if (kept)
    return {
      rendered: { ...kept, entries: kept.entries.map((e) => ({ item: cited.get(e.item.id)!, html: e.html })) },
      problems,
      fileProblems: [],
    }
  let engine: Engine
  try {
    engine = csl.engine([...cited.values()], name, LOCALE, 'html')
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e)
    return { problems, fileProblems: [{ file: style.file, message: `the CSL style does not load: ${reason}` }] }
  }
  engine.opt.development_extensions.wrap_url_and_doi = true
  const citations: Citation[] = []
  const ids: Array<{ cluster: number; part: 'whole' | 'author' | 'year' }> = []
  clusters.forEach((c, index) => {
    if (c.kind !== 'cite') return
    const items = c.items.map((i) => ({
      id: i.key,
      ...(i.prefix ? { prefix: i.prefix } : {}),
      ...(i.suffix ? { suffix: i.suffix } : {}),
      ...(i.locator ? { locator: i.locator, label: i.label } : {}),
      ...(i.suppressAuthor ? { 'suppress-author': true } : {}),
    }))
    const add = (part: (typeof ids)[number]['part'], citationItems: unknown[]) => {
      citations.push({ citationID: `c${ids.length}`, citationItems, properties: { noteIndex: 0 } })
      ids.push({ cluster: index, part })
    }
    if (c.narrative) {
      add('author', [{ id: items[0]!.id, 'author-only': true }])
      add('year', [{ ...items[0], 'suppress-author': true }])
    } else add('whole', items)
  })
  const html = inOrder(engine, citations)
  const rendered: Rendered = { clusters: new Map(), entries: [], nodes: cslNodes }
  ids.forEach(({ cluster, part }, i) => {
    let text = html[i] ?? ''
    // A numeric style prints no author in the text: the names, as Pandoc writes them ("Doe [1]").
    if (part === 'author' && (!text.trim() || text.includes('NO_PRINTED_FORM')))
      text = escapeHtml(authorNames(cited.get(clusters[cluster]!.items[0]!.key)!))
    if (part === 'year') rendered.clusters.set(cluster, `${rendered.clusters.get(cluster) ?? ''} ${text}`)
    else rendered.clusters.set(cluster, text)
  })
  rendered.entries = bibliographyEntries(engine, { name, text: style.text }, cited)
  renders.set(key, rendered)
  return { rendered, problems, fileProblems: [] }
}

/**
 * Whole renders by (style, the clusters as citeproc reads them, the cited items' content): an
 * article rendered again (a rebuild, an edit elsewhere in it) runs no citeproc. A small number:
 * a render is a few kilobytes, and a cold build renders each article once.
 */
const renders = new BoundedCache<Rendered>(512)
function renderKey(style: string, clusters: readonly Cluster[], cited: ReadonlyMap<string, CslItem>): string {
  // By index: the rendered clusters are (cross-references take indices too).
  const cites = clusters.flatMap((c, i) => (c.kind === 'cite' ? [[i, c.narrative, c.items]] : []))
  return digest(JSON.stringify([style, cites, [...cited.values()]]))
}

interface Citation {
  citationID: string
  citationItems: unknown[]
  properties: { noteIndex: number }
}

/** Each citation's HTML, the clusters processed in document order so that positions are known. */
function inOrder(engine: Engine, citations: Citation[]): string[] {
  // It leaves the registry as the bibliography needs it: every cited item, nothing else.
  const out = new Map(engine.rebuildProcessorState(citations, 'html', []).map(([id, , text]) => [id, text]))
  return citations.map((c) => out.get(c.citationID) ?? '')
}

/** "Doe", "Doe and Roe" or "Doe et al.", from the item's authors (else its editors, else its title). */
function authorNames(item: CslItem): string {
  const people = ((item.author ?? item.editor) as Array<{ family?: string; literal?: string }> | undefined) ?? []
  const name = (n: { family?: string; literal?: string }) => n.family ?? n.literal ?? ''
  if (people.length === 0) return String(item.title ?? item.id)
  if (people.length === 1) return name(people[0]!)
  if (people.length === 2) return `${name(people[0]!)} and ${name(people[1]!)}`
  return `${name(people[0]!)} et al.`
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function unknownKey(key: string, line: number, keys: readonly string[]): LineProblem {
  const near = nearest(key, keys)
  return {
    line,
    message: `the citation key @${key} is in no bibliography of the article`,
    fix: near
      ? `did you mean @${near}?`
      : keys.length
        ? 'add its entry to the bibliography, or correct the key'
        : 'name a bibliography file in the front matter (bibliography: references.bib), or write \\@ for a literal @',
  }
}
