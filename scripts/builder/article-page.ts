/**
 * Article pages and markdown twins, assembled with string work: the template page Astro built
 * (site/pages/article-template.astro) with each `@@name@@` marker replaced by the article's
 * escaped metadata or its cached HTML.
 */
import { coverAlt, DEFAULT_IMAGE_PATH } from '../../model/article.ts'
import { displayDate, isoDate, readingTimeText, tagPath } from '../../site/lib/articles.ts'
import { articleCitation } from './citation/index.ts'
import type { ArticleMeta } from './content.ts'
import { escapeHtml } from './html.ts'
import { scheduledBanner } from './schedule.ts'
import { keepTogether } from '../../site/lib/typography.ts'
import { jsonLdScript } from './json-ld.ts'
import { pageSignposts } from '../../model/signposting.ts'
import { bylineHtml, changesHtml, correctedHtml, licenseHtml, moreByHtml, signpostElements } from './research-parts.ts'
import { shareMetaTags } from './share-meta.ts'
import { citationReferenceTags } from './citation/references.ts'
import type { CslItem } from './references/bibliography.ts'

/** The template cut at its markers: even items are literal HTML, odd items marker names. */
export type ArticleTemplate = string[]

const MARKERS = [
  'slug',
  'title',
  'description',
  'imageUrl',
  'imageAlt',
  'shareMeta',
  'byline',
  'license',
  'changes',
  'isoDate',
  'displayDate',
  'updated',
  'minutes',
  'tags',
  'readerLinks',
  'content',
  // site/components/CiteBox.astro and CitationMeta.astro
  'citationMeta',
  'jsonLd',
  'signposts',
  'citeDoi',
  'citeText',
  'citeBibtex',
  // site/components/ReadingPart.astro
  'cover',
  'toc',
  'nav',
]

/** The reading aids' HTML (scripts/builder/reading-parts.ts), made by the caller. */
export interface ReadingParts {
  cover: string
  toc: string
  nav: string
}

export function parseTemplate(html: string): ArticleTemplate {
  const parts = html.split(/@@(\w+)@@/)
  const found = new Set(parts.filter((_, i) => i % 2 === 1))
  const missing = MARKERS.filter((m) => !found.has(m))
  if (missing.length) throw new Error(`the article template lacks the markers ${missing.join(', ')}`)
  return parts
}

export { escapeHtml }

const updatedHtml = (updated: Date | undefined) =>
  updated ? `<li>updated <time datetime="${updated.toISOString()}">${displayDate(updated)}</time></li>` : ''

export function articlePage(
  template: ArticleTemplate,
  a: ArticleMeta,
  html: string,
  baseUrl: string,
  parts: ReadingParts,
  citation = articleCitation(a, baseUrl),
  /** The works the article cites (its References list), as CSL-JSON. */
  cites: readonly CslItem[] = [],
): string {
  const date = new Date(a.date)
  const updated =
    a.lastModified && isoDate(new Date(a.lastModified)) !== isoDate(date) ? new Date(a.lastModified) : undefined
  const values: Record<string, string> = {
    slug: a.slug,
    title: escapeHtml(keepTogether(a.title)),
    description: escapeHtml(keepTogether(a.description)),
    imageUrl: escapeHtml(new URL(a.image ?? DEFAULT_IMAGE_PATH, baseUrl).href),
    imageAlt: escapeHtml(coverAlt(a)),
    shareMeta: shareMetaTags(a),
    byline: bylineHtml(a),
    license: licenseHtml(a),
    changes: changesHtml(a),
    isoDate: isoDate(date),
    displayDate: displayDate(date),
    updated: correctedHtml(a) ?? updatedHtml(updated),
    minutes: escapeHtml(readingTimeText(a.readingMinutes)),
    tags: a.tags.length
      ? '<ul class="tags" aria-label="Tags">' +
        a.tags.map((t) => `<li><a class="tag" href="${tagPath(t)}">${t}</a></li>`).join('') +
        '</ul>'
      : '',
    readerLinks: moreByHtml(a),
    content: scheduledBanner(a, displayDate) + html,
    citationMeta: citation.metaTags + citationReferenceTags(cites),
    jsonLd: jsonLdScript(a, baseUrl, cites),
    signposts: signpostElements(pageSignposts(a, baseUrl)),
    citeDoi: citation.doiLine,
    citeText: citation.textHtml,
    citeBibtex: citation.bibtexHtml,
    ...parts,
  }
  let out = ''
  for (let i = 0; i < template.length; i++) out += i % 2 === 0 ? template[i] : values[template[i]!]
  return out
}
