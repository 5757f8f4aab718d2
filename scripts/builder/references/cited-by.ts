/**
 * Cited by, inside the publication: article B cites article A when B's bibliography holds A's
 * DOI or A's address. Each article records the identifiers of the works it cites when it is
 * rendered; the build then lists, on A's page, the published articles that cite it.
 */
import { articleUrl } from '../../../model/article-address.ts'
import type { CslItem } from './bibliography.ts'

const doiId = (doi: string) => `doi:${doi.toLowerCase()}`
const urlId = (url: string) => `url:${url.replace(/\/+$/, '')}`

/** What identifies each cited work: its DOI (case does not matter in a DOI), else its URL. */
export function citedIdentifiers(items: readonly CslItem[]): string[] {
  const out = new Set<string>()
  for (const item of items) {
    if (item.DOI) out.add(doiId(item.DOI))
    if (item.URL) out.add(urlId(item.URL))
  }
  return [...out].sort()
}

/** Per article of `published`, the indexes of the others that cite it, in the list's order. */
export function citingArticles(
  published: ReadonlyArray<{ slug: string; doi?: string; cites?: string[] }>,
  baseUrl: string | undefined,
): number[][] {
  const citing = new Map<string, number[]>()
  published.forEach((m, i) => {
    for (const id of m.cites ?? []) {
      const list = citing.get(id)
      if (list) list.push(i)
      else citing.set(id, [i])
    }
  })
  if (citing.size === 0) return published.map(() => [])
  return published.map((m, i) => {
    const ids = [...(baseUrl ? [urlId(articleUrl(baseUrl, m.slug))] : []), ...(m.doi ? [doiId(m.doi)] : [])]
    const found = new Set(ids.flatMap((id) => citing.get(id) ?? []))
    found.delete(i)
    return [...found].sort((a, b) => a - b)
  })
}
