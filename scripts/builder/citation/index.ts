/**
 * Everything a reader or an indexer needs to cite an article, from its metadata alone: the
 * page's Highwire tags and Cite box, and the BibTeX, CSL-JSON and RIS twins beside the page.
 */
import { escapeHtml } from '../html.ts'
import type { ArticleMeta } from '../content.ts'
import { apaCitation } from './apa.ts'
import { bibtexEntry } from './bibtex.ts'
import { cslJson } from './csl.ts'
import { highwireTags } from './highwire.ts'
import { risRecord } from './ris.ts'
import { doiUrl } from '../../../model/article.ts'
import { citedWork } from './work.ts'

export { bibtexEntry, cslJson, risRecord }
export { citedWork } from './work.ts'

export interface ArticleCitation {
  /** `<meta name="citation_…">` tags for the page's head. */
  metaTags: string
  /** The Cite box's DOI line (HTML), empty without a DOI. */
  doiLine: string
  /** The APA-style citation as HTML. */
  textHtml: string
  /** The BibTeX entry, escaped for a `<pre>`. */
  bibtexHtml: string
  /** The twins' contents. */
  bibtex: string
  csl: string
  ris: string
}

export function articleCitation(a: ArticleMeta, baseUrl: string): ArticleCitation {
  const work = citedWork(a, baseUrl)
  const bibtex = bibtexEntry(work)
  const link = work.doi ? escapeHtml(doiUrl(work.doi)) : ''
  return {
    metaTags: highwireTags(work),
    doiLine: work.doi ? `<p class="cite-doi">DOI: <a href="${link}">${escapeHtml(work.doi)}</a></p>` : '',
    textHtml: apaCitation(work).html,
    bibtexHtml: escapeHtml(bibtex),
    bibtex,
    csl: cslJson(work),
    ris: risRecord(work),
  }
}
