/**
 * The head tags that link previews and metadata readers take an article's authorship, dates and
 * topics from, beside the Open Graph basics every page has (site/layouts/Base.astro) and the
 * Highwire citation tags (citation/highwire.ts), which Google Scholar and Zotero read.
 */
import type { ArticleMeta } from './content.ts'
import { escapeHtml } from './html.ts'

const meta = (attr: 'name' | 'property', key: string, value: string) =>
  `<meta ${attr}="${key}" content="${escapeHtml(value)}">`

export function shareMetaTags(a: Pick<ArticleMeta, 'authors' | 'date' | 'lastModified' | 'tags'>): string {
  return [
    // One per author: the HTML Standard's `author` names "one of the page's authors" (§4.2.5.1).
    ...a.authors.map((p) => meta('name', 'author', p.name)),
    // Open Graph's article type (https://ogp.me/#type_article): ISO 8601 times, writers, tags.
    meta('property', 'article:published_time', a.date),
    meta('property', 'article:modified_time', a.lastModified ?? a.date),
    ...a.authors.map((p) => meta('property', 'article:author', p.name)),
    ...a.tags.map((t) => meta('property', 'article:tag', t)),
  ].join('')
}
