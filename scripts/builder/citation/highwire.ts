/**
 * Highwire Press `citation_*` meta tags, what Google Scholar (and Zotero's page translator)
 * read from an article page: https://scholar.google.com/intl/en/scholar/inclusion.html#indexing
 */
import { orcidUrl } from '../../../model/article.ts'
import { escapeHtml } from '../html.ts'
import type { CitedWork } from './work.ts'

export function highwireTags(w: CitedWork): string {
  const { year, month, day } = w.issued
  const date = `${year}/${pad(month)}/${pad(day)}`
  const tags: Array<[string, string]> = [
    ['citation_title', w.title],
    // Each author in byline order, their institution and ORCID right after them (Scholar's guidelines).
    ...w.authors.flatMap(
      (a): Array<[string, string]> => [
        ['citation_author', a.given ? `${a.family}, ${a.given}` : a.family],
        ...(a.affiliation ? ([['citation_author_institution', a.affiliation]] as Array<[string, string]>) : []),
        ...(a.orcid ? ([['citation_author_orcid', orcidUrl(a.orcid)]] as Array<[string, string]>) : []),
      ],
    ),
    ['citation_publication_date', date],
    ['citation_online_date', date],
    ['citation_journal_title', w.journal],
    ['citation_abstract', w.abstract],
    ['citation_abstract_html_url', w.url],
    ['citation_fulltext_html_url', w.url],
    ...(w.doi ? ([['citation_doi', w.doi]] as Array<[string, string]>) : []),
    ...(w.keywords.length ? ([['citation_keywords', w.keywords.join('; ')]] as Array<[string, string]>) : []),
    ['citation_language', 'en'],
  ]
  return tags.map(([name, content]) => `<meta name="${name}" content="${escapeHtml(content)}">`).join('')
}

const pad = (n: number) => String(n).padStart(2, '0')
