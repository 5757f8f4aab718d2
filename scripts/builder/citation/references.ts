/**
 * The works an article cites, for machines that read its page: one Highwire `citation_reference`
 * meta tag per work (the form Google Scholar reads, its fields joined by "; ":
 * https://scholar.google.com/intl/en/scholar/inclusion.html#indexing), and schema.org's
 * `citation` (https://schema.org/citation), one CreativeWork per work, its DOI's URL as `@id`.
 */
import { doiUrl } from '../../../model/article.ts'
import type { CslItem } from '../references/bibliography.ts'
import { escapeHtml } from '../html.ts'

interface CslName {
  family?: string
  given?: string
  literal?: string
}
const names = (item: CslItem) =>
  ((item.author as CslName[] | undefined) ?? []).map((n) => n.literal ?? [n.family, n.given].filter(Boolean).join(', '))
const year = (item: CslItem) => (item.issued as { 'date-parts'?: number[][] } | undefined)?.['date-parts']?.[0]?.[0]
const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)
/** A field's value inside the tag: its separator would end it. */
const field = (v: string) => v.replace(/;/g, ',').replace(/\s+/g, ' ').trim()

export function citationReferenceTags(items: readonly CslItem[]): string {
  return items
    .map((item) => {
      const container = text(item['container-title'])
      const journal = item.type === 'article-journal' || item.type === 'article'
      const fields: Array<[string, string | undefined]> = [
        ['citation_title', text(item.title)],
        ...names(item).map((n): [string, string] => ['citation_author', n]),
        ['citation_publication_date', text(year(item))],
        [journal ? 'citation_journal_title' : 'citation_conference_title', container],
        ['citation_volume', text(item.volume)],
        ['citation_issue', text(item.issue)],
        ['citation_firstpage', text(item.page)?.split(/[-–]/)[0]],
        ['citation_doi', item.DOI],
        ['citation_url', item.DOI ? undefined : item.URL],
      ]
      const content = fields
        .filter((f): f is [string, string] => f[1] !== undefined && f[1] !== '')
        .map(([k, v]) => `${k}=${field(v)}`)
        .join('; ')
      return `<meta name="citation_reference" content="${escapeHtml(content)}">`
    })
    .join('')
}

const SCHEMA_TYPES: Record<string, string> = {
  'article-journal': 'ScholarlyArticle',
  'paper-conference': 'ScholarlyArticle',
  article: 'ScholarlyArticle',
  book: 'Book',
  chapter: 'Chapter',
  thesis: 'Thesis',
  report: 'Report',
  webpage: 'WebPage',
  dataset: 'Dataset',
  software: 'SoftwareSourceCode',
}

export function citedWorks(items: readonly CslItem[]): Array<Record<string, unknown>> {
  return items.map((item) => {
    const id = item.DOI ? doiUrl(item.DOI) : item.URL
    const published = year(item)
    const container = text(item['container-title'])
    return {
      '@type': SCHEMA_TYPES[String(item.type)] ?? 'CreativeWork',
      ...(id ? { '@id': id, sameAs: id } : {}),
      ...(item.title ? { name: item.title } : {}),
      author: names(item).map((name) => ({ '@type': 'Person', name })),
      ...(published ? { datePublished: String(published) } : {}),
      ...(container ? { isPartOf: { '@type': 'CreativeWork', name: container } } : {}),
      ...(item.DOI ? { identifier: { '@type': 'PropertyValue', propertyID: 'DOI', value: item.DOI } } : {}),
    }
  })
}
