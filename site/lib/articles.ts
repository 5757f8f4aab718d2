import { readFileSync } from 'node:fs'
import { ArticleRecord, DEFAULT_IMAGE_PATH, type ArticleData, type ManifestRecord } from '../../model/article.ts'
import { articlePath } from '../../model/article-address.ts'

export { coverAlt } from '../../model/article.ts'

/**
 * An article as the list pages see it. The build (scripts/build.ts) validates and renders the
 * articles itself and hands the site a manifest of their metadata, no bodies: Astro builds the
 * list pages and one article template, never ten thousand article pages. `data` holds the
 * fields of model/article-fields.ts, read back with their schemas (dates as dates).
 */
export interface Article {
  id: string
  /** `image` is set only when the writer named a cover: the lists show no default cover. */
  data: ArticleData
  readingMinutes: number
}

let articles: Article[] | undefined

/** Published articles, newest first (then by slug), as listed in ARTICLES_MANIFEST. */
export async function getArticles(): Promise<Article[]> {
  return (articles ??= loadManifest())
}

function loadManifest(): Article[] {
  const file = process.env.ARTICLES_MANIFEST
  if (!file) throw new Error('ARTICLES_MANIFEST is not set: build the site with "npm run build".')
  const records = JSON.parse(readFileSync(file, 'utf8')) as ManifestRecord[]
  return records.map((r) => {
    const { draft: _draft, ...data } = ArticleRecord.parse(r)
    return { id: r.slug, data, readingMinutes: r.readingMinutes }
  })
}

export function articleMinutes(a: Article): number {
  return a.readingMinutes
}

/** The reading time as shown: "< 1 min read" under a minute (readingMinutes gives 0), else "3 min read". */
export function readingTimeText(minutes: number): string {
  return minutes < 1 ? '< 1 min read' : `${minutes} min read`
}

/** `YYYY-MM-DD`, the wire form of `date`. */
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10)
}

/**
 * One formatter for every date: `toLocaleDateString` builds an ICU formatter per call (ECMA-402,
 * Date.prototype.toLocaleDateString), 0.1–0.19 ms each here, and a build formats a date for
 * every article card of the list pages (53,000 at 10,000 articles) and every article page.
 */
const DISPLAY_DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
})

export function displayDate(d: Date): string {
  return DISPLAY_DATE.format(d)
}

export { articlePath } from '../../model/article-address.ts'
export const markdownPath = (slug: string) => articlePath(slug, 'md')
export const tagPath = (tag: string) => `/tags/${tag}`
export const DEFAULT_IMAGE = DEFAULT_IMAGE_PATH
/**
 * The box a cover is drawn in (16:9), given as the image's width and height so that the page
 * does not move when it loads; the image is cropped to fill it.
 */
export const COVER = { width: 640, height: 360 } as const

/** All tags with their article counts, most used first. */
export function tagCounts(articles: Article[]): Array<{ tag: string; count: number }> {
  const counts = new Map<string, number>()
  for (const a of articles) for (const t of a.data.tags) counts.set(t, (counts.get(t) ?? 0) + 1)
  return [...counts]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag))
}
