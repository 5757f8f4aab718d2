/**
 * What each article page links to besides itself: its neighbours in the list, its related
 * articles (related.ts) and the articles that cite it (references/cited-by.ts), and per page a key of what those links show (the next build rewrites a
 * page whose key changed). Both follow from the list's order, titles and tags alone: when those
 * are the live build's, as after an edit of an article's text, both are the live build's and
 * are taken from its state (at 50,000 articles, computing them takes half a second).
 */
import { createHash, hash } from 'node:crypto'
import type { ArticleMeta } from './content.ts'
import { relatedArticles } from './related.ts'
import { citingArticles } from './references/cited-by.ts'

export interface ArticleLinks {
  /** SHA-256 of the list's slugs, titles and tags, in order. */
  linksKey: string
  /** Each article's related articles, as indexes into the list. */
  related: number[][]
  /** Each article's citing articles (references/cited-by.ts), as indexes into the list. */
  citedBy: number[][]
  /** Per page, a hash of the links it shows. */
  navKeys: Record<string, string>
}

/** The links of every page of `published` (newest first), reusing the live build's when they are the same. */
export function articleLinks(
  published: readonly ArticleMeta[],
  live?: Partial<ArticleLinks>,
  /** The site's address, to know an article's URL in another's bibliography; without it, DOIs only. */
  baseUrl = '',
): ArticleLinks {
  const h = createHash('sha256').update(`${baseUrl}\0`)
  for (const a of published)
    h.update(`${a.slug}\0${a.title}\0${a.tags.join('\u0001')}\0${a.doi ?? ''}\0${a.cites?.join('\u0001') ?? ''}\0`)
  const linksKey = h.digest('hex')
  if (live?.linksKey === linksKey && live.related && live.citedBy && live.navKeys)
    return { linksKey, related: live.related, citedBy: live.citedBy, navKeys: live.navKeys }
  const related = relatedArticles(published)
  const citedBy = citingArticles(published, baseUrl)
  const navKeys: Record<string, string> = {}
  published.forEach((m, i) => {
    const linked = [...related[i]!, -1, ...citedBy[i]!].map((j) => (j < 0 ? undefined : published[j]!))
    const shown = [published[i + 1], published[i - 1], ...linked]
      .map((a) => (a ? `${a.slug}\0${a.title}` : ''))
      .join('\0')
    // What the links show, hashed in one call (cheap enough for every article of every build).
    navKeys[m.slug] = hash('sha256', shown).slice(0, 16)
  })
  return { linksKey, related, citedBy, navKeys }
}
