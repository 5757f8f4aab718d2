/**
 * The research parts of an article page: the byline (every author, their ORCID iD and
 * affiliation), the licence, and the corrections and updates. Each is HTML for a marker of the
 * article template (site/pages/article-template.astro), styled by site/styles/research.css.
 */
import { displayDate } from '../../site/lib/articles.ts'
import { licenseUrl, orcidUrl } from '../../model/article.ts'
import { joinNames } from '../../model/research.ts'
import type { TypedLink } from '../../model/signposting.ts'
import { authorPath } from '../../model/author-address.ts'
import type { ArticleMeta } from './content.ts'
import { escapeHtml } from './html.ts'

/** The ORCID iD icon (green disc, white "iD"), decorative: the link's label names the iD. */
const ORCID_ICON =
  '<svg class="orcid-icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">' +
  '<circle cx="12" cy="12" r="12" fill="#A6CE39"/>' +
  '<path fill="#fff" d="M7.2 6.6h1.6v10.8H7.2zM8 4.2a1 1 0 1 1 0 2 1 1 0 0 1 0-2zm2.6 2.4h3.3c3.3 0 5 2.3 5 ' +
  '5.4s-1.8 5.4-5 5.4h-3.3zm1.6 1.4v8h1.6c2.3 0 3.4-1.6 3.4-4s-1.1-4-3.4-4z"/></svg>'

/**
 * The byline as one item of the meta list: each author's name linking to their page (and a search
 * filter value), the ORCID icon linking to their iD's page as ORCID's display guidelines ask, and
 * their affiliation. The element whose class names an author holds the name alone: metadata
 * readers (metascraper, link previews) take the first such element's text as the author, and the
 * person's other parts sit beside it in a wrapper whose class does not say "author".
 */
export function bylineHtml(a: Pick<ArticleMeta, 'authors'>): string {
  const people = a.authors.map((p) => {
    const name =
      `<a class="author-name" href="${authorPath(p)}" data-pagefind-filter="author">` + `${escapeHtml(p.name)}</a>`
    const orcid = p.orcid
      ? ` <a class="orcid" href="${orcidUrl(p.orcid)}" aria-label="ORCID iD of ${escapeHtml(p.name)}: ${p.orcid}">` +
        `${ORCID_ICON}</a>`
      : ''
    const affiliation = p.affiliation ? ` <span class="affiliation">(${escapeHtml(p.affiliation)})</span>` : ''
    return `<span class="person">${name}${orcid}${affiliation}</span>`
  })
  return `<li class="byline">${people.join(', ')}</li>`
}

/** At the article's end, the way to each author's other articles: "More by A and B". */
export function moreByHtml(a: Pick<ArticleMeta, 'authors'>): string {
  const links = a.authors.map((p) => `<a href="${authorPath(p)}">${escapeHtml(p.name)}</a>`)
  return `<li>More by ${joinNames(links)}</li>`
}

/** The licence line, linked with rel="license" (HTML Standard §4.6.7.9), or nothing without a licence. */
export function licenseHtml(a: Pick<ArticleMeta, 'license'>): string {
  if (!a.license) return ''
  const link = `<a rel="license" href="${escapeHtml(licenseUrl(a.license))}">${escapeHtml(a.license)}</a>`
  return `<p class="license">Licence: ${link}</p>`
}

/**
 * Near the top of a corrected article, the date of its last correction, linking to the
 * corrections section below; undefined for an article never corrected.
 */
export function correctedHtml(a: Pick<ArticleMeta, 'changes'>): string | undefined {
  const last = a.changes.at(-1)
  if (!last) return undefined
  const day = last.date.slice(0, 10)
  return (
    `<li class="corrected"><a href="#article-changes-title">Corrected on ` +
    `<time datetime="${day}">${displayDate(new Date(last.date))}</time></a></li>`
  )
}

/** The "Corrections and updates" section, oldest first, or nothing when there are none. */
export function changesHtml(a: Pick<ArticleMeta, 'changes'>): string {
  if (!a.changes.length) return ''
  const items = a.changes.map((c) => {
    const day = c.date.slice(0, 10)
    return `<li><time datetime="${day}">${displayDate(new Date(c.date))}</time>: ${escapeHtml(c.note)}</li>`
  })
  return (
    '<section class="article-changes" aria-labelledby="article-changes-title" data-pagefind-ignore>' +
    `<h2 id="article-changes-title">Corrections and updates</h2><ol>${items.join('')}</ol></section>`
  )
}

/**
 * The page's Signposting links as `<link>` elements of its head: the links of its Link header,
 * all of them even when the header holds only the links to the linkset (model/signposting.ts).
 */
export function signpostElements(links: readonly TypedLink[]): string {
  return links
    .map((l) => `<link rel="${l.rel}" href="${escapeHtml(l.href)}"${l.type ? ` type="${escapeHtml(l.type)}"` : ''}>`)
    .join('')
}
