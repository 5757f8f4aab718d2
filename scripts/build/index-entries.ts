/** What the build hands on about each article: the post index's entries and the manifest Astro reads. */
import { indexFields, type IndexEntry } from '../../model/article.ts'
import type { KeptEntry, KeptLine } from '../../post-index/index-file-writer.ts'
import { compareEntries } from '../../post-index/post-index.ts'
import type { ArticleMeta } from './content.ts'
import type { EntrySource } from './entries.ts'
import { mapAhead } from './limited.ts'
import { READ_AHEAD } from './article-files.ts'

/**
 * The post index's entries, in its order, each read as it is written; an article whose line
 * `kept` gives (an unchanged article's, from the live build's index) is kept unread.
 */
export function indexEntries(
  published: readonly ArticleMeta[],
  entries: EntrySource,
  kept: (m: ArticleMeta) => KeptLine | undefined = () => undefined,
): AsyncIterable<IndexEntry | KeptEntry> {
  // The index's order (compareEntries) compares days, where `published` compares moments: each
  // key made once (at 50,000 articles, making them in each comparison cost 0.2 s).
  const keys = published.map((m) => ({ slug: m.slug, date: m.date.slice(0, 10), m }))
  keys.sort(compareEntries)
  return mapAhead(keys, READ_AHEAD, async ({ m, slug, date }) => {
    const line = kept(m)
    return line ? { kept: line, slug, date } : indexEntry(m, await entries.body(m))
  })
}

/** `body`: the markdown readers get (EntrySource.body). */
export function indexEntry(m: ArticleMeta, body: string): IndexEntry {
  return { ...indexFields(m), markdown: `${body.trim()}\n` }
}

/** What the list pages show of an article: the manifest Astro reads (site/lib/articles.ts). */
export function manifestRecord(m: ArticleMeta) {
  const { hash: _hash, draft: _draft, scheduled: _scheduled, inputs: _inputs, cites: _cites, ...record } = m
  return record
}

export const newestFirst = (a: ArticleMeta, b: ArticleMeta) =>
  a.date < b.date ? 1 : a.date > b.date ? -1 : a.slug < b.slug ? -1 : 1
