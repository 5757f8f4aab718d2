import { getCollection, type CollectionEntry } from 'astro:content'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CONTENT_DIR } from './content-dir'

export type Article = CollectionEntry<'articles'>

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const WORDS_PER_MINUTE = 230

/** Published articles, newest first (then by slug, so the order is stable). */
export async function getArticles(): Promise<Article[]> {
  const all = await getCollection('articles', (a) => !a.data.draft)
  for (const a of all) {
    if (!SLUG.test(a.id))
      throw new Error(
        `${a.filePath ?? a.id}: the file name is the slug and must be lowercase words joined by hyphens, like "my-article.md"`,
      )
  }
  return all.sort((a, b) => b.data.date.getTime() - a.data.date.getTime() || a.id.localeCompare(b.id))
}

const FRONTMATTER = /^---\r?\n[\s\S]*?\r?\n---(?:\r?\n|$)/
const minutes = new Map<string, number>()

/**
 * The article's markdown after its frontmatter, read from its file: the content store does not
 * keep bodies (see content.config.ts), and holding them all would cost the corpus in memory.
 */
export function articleBody(a: Article): string {
  // The slug is the file name. (Not entry.filePath: Astro's cache keeps the path an unchanged
  // file had in an earlier build, which may be another CONTENT_DIR.)
  return readFileSync(join(CONTENT_DIR, `${a.id}.md`), 'utf8').replace(FRONTMATTER, '').replace(/^\s*\n/, '')
}

/** Reading time, computed once per article: every list page shows it. */
export function articleMinutes(a: Article): number {
  let m = minutes.get(a.id)
  if (m === undefined) {
    m = readingMinutes(articleBody(a))
    minutes.set(a.id, m)
  }
  return m
}

export function wordCount(markdown: string): number {
  return markdown.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length
}

export function readingMinutes(markdown: string): number {
  return Math.max(1, Math.round(wordCount(markdown) / WORDS_PER_MINUTE))
}

/** `YYYY-MM-DD`, the wire form of `date`. */
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10)
}

/** Full UTC date-time, the wire form of `lastModified`; falls back to the publication date. */
export function lastModified(a: Article): string {
  return (a.data.lastModified ?? a.data.date).toISOString()
}

export function displayDate(d: Date): string {
  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
}

export const articlePath = (slug: string) => `/posts/${slug}`
export const markdownPath = (slug: string) => `/posts/${slug}.md`
export const tagPath = (tag: string) => `/tags/${tag}`
export const DEFAULT_IMAGE = '/images/default-cover.svg'

/** All tags with their article counts, most used first. */
export function tagCounts(articles: Article[]): Array<{ tag: string; count: number }> {
  const counts = new Map<string, number>()
  for (const a of articles) for (const t of a.data.tags) counts.set(t, (counts.get(t) ?? 0) + 1)
  return [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag))
}
