/** What the build hands on about each article: the post index's entries and the manifest Astro reads. */
import { indexFields, type IndexEntry } from '../../model/article.ts'
import { CITED_BY_MAX, type CitingEntry, REFERENCES_MAX, toCslReference } from '../../model/references.ts'
import type { KeptEntry, KeptLine } from '../../post-index/index-file-writer.ts'
import { compareEntries } from '../../post-index/post-index.ts'
import type { ArticleMeta } from './content.ts'
import type { EntrySource } from './entries.ts'
import { mapAhead } from './limited.ts'
import { READ_AHEAD } from './article-files.ts'

/**
 * The post index's entries, in its order, each read as it is written; an article whose line
 * `kept` gives (an unchanged article's, from the live build's index) is kept unread, unless the
 * articles citing it changed (`citedBy`): then its line is written anew.
 */
export function indexEntries(
  published: readonly ArticleMeta[],
  entries: EntrySource,
  kept: (m: ArticleMeta) => KeptLine | undefined = () => undefined,
  citedBy: (m: ArticleMeta) => CitingEntry[] = () => [],
): AsyncIterable<IndexEntry | KeptEntry> {
  // The index's order (compareEntries) compares days, where `published` compares moments: each
  // key made once (at 50,000 articles, making them in each comparison cost 0.2 s).
  const keys = published.map((m) => ({ slug: m.slug, date: m.date.slice(0, 10), m }))
  keys.sort(compareEntries)
  return mapAhead(keys, READ_AHEAD, async ({ m, slug, date }) => {
    const citing = citedBy(m)
    const line = kept(m)
    if (line && keptCitedBy(line, citing)) return { kept: line, slug, date }
    return indexEntry(m, await entries.readerParts(m), citing)
  })
}

/**
 * Whether a kept line lists these citing articles: the writer puts `citedBy` last before the
 * bodies' places (model/article.ts, IndexEntry), so the line's fields end with it.
 */
function keptCitedBy(line: KeptLine, citing: readonly CitingEntry[]): boolean {
  const tail = citing.length === 0 ? NO_CITING : Buffer.from(`"citedBy":${JSON.stringify(citing)},`)
  return line.head >= tail.length && tail.equals(line.bytes.subarray(line.head - tail.length, line.head))
}
const NO_CITING = Buffer.from('"citedBy":[],')

/** `parts`: the markdown readers get and the works it cites (EntrySource.readerParts). */
export function indexEntry(
  m: ArticleMeta,
  parts: { body: string; references: readonly Record<string, unknown>[] },
  citedBy: CitingEntry[] = [],
): IndexEntry {
  return {
    ...indexFields(m),
    // The API's bounds (model/references.ts): far past any article's list.
    ...(parts.references.length ? { references: parts.references.slice(0, REFERENCES_MAX).map(toCslReference) } : {}),
    citedBy,
    markdown: `${parts.body.trim()}\n`,
  }
}

/** The articles that cite each article, newest first, as the index keeps them (article-links.ts). */
export function citingEntries(published: readonly ArticleMeta[], citedBy: readonly number[][]) {
  const at = new Map(published.map((m, i) => [m.slug, i]))
  return (m: ArticleMeta): CitingEntry[] =>
    (citedBy[at.get(m.slug)!] ?? [])
      .slice(0, CITED_BY_MAX)
      .map((j) => ({ slug: published[j]!.slug, title: published[j]!.title }))
}

/** What the list pages show of an article: the manifest Astro reads (site/lib/articles.ts). */
export function manifestRecord(m: ArticleMeta) {
  const { hash: _hash, draft: _draft, scheduled: _scheduled, inputs: _inputs, cites: _cites, ...record } = m
  return record
}

export const newestFirst = (a: ArticleMeta, b: ArticleMeta) =>
  a.date < b.date ? 1 : a.date > b.date ? -1 : a.slug < b.slug ? -1 : 1
