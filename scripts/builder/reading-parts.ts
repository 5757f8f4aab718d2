/**
 * The reading aids of an article page, as HTML for the template's markers (see
 * site/components/ReadingPart.astro): the cover, the table of contents, and the links to the
 * previous and next articles and to related ones.
 */
import { coverAlt } from '../../model/article.ts'
import { COVER, articlePath } from '../../site/lib/articles.ts'
import type { CacheEntry } from './cache.ts'
import type { ArticleMeta } from './content.ts'
import { escapeHtml } from './html.ts'

/** An article with fewer headings (of levels 2 and 3) than this is short: no table of contents. */
export const TOC_MIN_HEADINGS = 3

/** The cover above the article, only when the writer named one. */
export function coverHtml(a: Pick<ArticleMeta, 'title' | 'image' | 'imageAlt'>): string {
  if (a.image === undefined) return ''
  return (
    `<figure class="article-cover"><img src="${escapeHtml(a.image)}" width="${COVER.width}" height="${COVER.height}" ` +
    `decoding="async" alt="${escapeHtml(coverAlt(a))}"></figure>`
  )
}

/** Contents of a long article: its level-2 headings, each with its level-3 ones nested. */
export function tocHtml(headings: CacheEntry['headings']): string {
  const shown = headings.filter((h) => h.depth === 2 || h.depth === 3)
  if (shown.length < TOC_MIN_HEADINGS) return ''
  // Numbered sections (a `{#sec-…}` label numbers them all) carry their own numbers: the list's
  // would repeat them ("1. 1 The question").
  const tops = shown.filter((h) => h.depth === 2).map((h) => h.text)
  const numbered = /^1 /.test(tops[0] ?? '') && (tops.length < 2 || /^2 /.test(tops[1]!))
  let html =
    `<nav class="article-toc${numbered ? ' numbered' : ''}" aria-labelledby="article-toc-heading" data-pagefind-ignore>` +
    '<h2 id="article-toc-heading">Contents</h2><ol>'
  let open = false
  shown.forEach((h, i) => {
    const link = `<a href="#${escapeHtml(h.slug)}">${escapeHtml(h.text)}</a>`
    if (h.depth === 3 && i > 0) {
      html += open ? `<li>${link}</li>` : `<ol><li>${link}</li>`
      open = true
      return
    }
    if (open) html += '</ol>'
    open = false
    html += i > 0 ? `</li><li>${link}` : `<li>${link}`
  })
  return `${html + (open ? '</ol>' : '')}</li></ol></nav>`
}

type Linked = Pick<ArticleMeta, 'slug' | 'title'>

/** Previous (older) and next (newer) articles in publication order, and related ones by tags. */
export function navHtml(
  older: Linked | undefined,
  newer: Linked | undefined,
  related: Linked[],
  citedBy: Linked[] = [],
): string {
  const step = (a: Linked | undefined, cls: string, rel: string, label: string) =>
    a
      ? `<li class="${cls}"><a href="${articlePath(a.slug)}" rel="${rel}">` +
        `<span class="hint">${label}</span> ${escapeHtml(a.title)}</a></li>`
      : ''
  const steps = step(older, 'prev', 'prev', 'Previous article') + step(newer, 'next', 'next', 'Next article')
  let html = '<nav class="article-nav" aria-label="More articles" data-pagefind-ignore>'
  if (steps) html += `<ul class="prev-next">${steps}</ul>`
  html += articleList('related', 'Related articles', related) + articleList('cited-by', 'Cited by', citedBy)
  return `${html}</nav>`
}

/** A headed list of links to articles, or nothing when there are none. */
function articleList(name: string, heading: string, articles: Linked[]): string {
  if (!articles.length) return ''
  return (
    `<section class="${name}" aria-labelledby="article-${name}-heading">` +
    `<h2 id="article-${name}-heading">${heading}</h2><ul>` +
    articles.map((a) => `<li><a href="${articlePath(a.slug)}">${escapeHtml(a.title)}</a></li>`).join('') +
    '</ul></section>'
  )
}
