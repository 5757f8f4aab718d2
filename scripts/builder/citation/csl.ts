/**
 * The CSL-JSON twin, `/posts/<slug>.csl.json`: the article as one CSL item (in an array, as
 * reference managers exchange them), the input of every CSL citation style.
 */
import { licenseUrl } from '../../../model/article.ts'
import type { CitedWork } from './work.ts'

export function cslItem(w: CitedWork): Record<string, unknown> {
  const { year, month, day } = w.issued
  return {
    id: w.key,
    'citation-key': w.key,
    type: 'article-journal',
    title: w.title,
    'container-title': w.journal,
    author: w.authors.map((a) => (a.given ? { family: a.family, given: a.given } : { family: a.family })),
    issued: { 'date-parts': [[year, month, day]] },
    URL: w.url,
    ...(w.doi ? { DOI: w.doi } : {}),
    // CSL 1.0.2 Appendix IV, standard variable `license`
    // (https://docs.citationstyles.org/en/stable/specification.html).
    ...(w.license ? { license: licenseUrl(w.license) } : {}),
    abstract: w.abstract,
    ...(w.keywords.length ? { keyword: w.keywords.join(', ') } : {}),
  }
}

/** The file's text: JSON escapes everything a title or a name can hold. */
export const cslJson = (w: CitedWork) => `${JSON.stringify([cslItem(w)], null, 2)}\n`
