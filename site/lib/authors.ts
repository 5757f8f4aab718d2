/**
 * The site's authors, gathered from the articles' bylines: one per slug of
 * model/author-address.ts (by ORCID iD, else by name), with the articles they wrote, newest first.
 */
import { orcidUrl } from '../../model/article.ts'
import { AUTHORS_PATH, authorPath, authorSlug, authorSlugPath } from '../../model/author-address.ts'
import type { Article } from './articles'

export { AUTHORS_PATH, authorPath, authorSlug, authorSlugPath }

export interface SiteAuthor {
  slug: string
  /** The name as most of their articles write it (on a tie, as the newest of those does). */
  name: string
  orcid?: string
  /** The affiliation their newest article gives, if any does. */
  affiliation?: string
  /** Newest first. */
  articles: Article[]
}

const gathered = new WeakMap<readonly Article[], SiteAuthor[]>()

/** Every author of `articles` (newest first), in the order of their names; once per list of articles. */
export function siteAuthors(articles: readonly Article[]): SiteAuthor[] {
  let authors = gathered.get(articles)
  if (!authors) gathered.set(articles, (authors = gatherAuthors(articles)))
  return authors
}

function gatherAuthors(articles: readonly Article[]): SiteAuthor[] {
  const bySlug = new Map<string, SiteAuthor & { spellings: Map<string, number> }>()
  for (const article of articles) {
    for (const p of article.data.authors) {
      const slug = authorSlug(p)
      let author = bySlug.get(slug)
      if (!author)
        bySlug.set(slug, (author = { slug, name: p.name, orcid: p.orcid, articles: [], spellings: new Map() }))
      author.affiliation ??= p.affiliation
      author.spellings.set(p.name, (author.spellings.get(p.name) ?? 0) + 1)
      // One person named twice in one byline is still one article of theirs.
      if (author.articles.at(-1) !== article) author.articles.push(article)
    }
  }
  return [...bySlug.values()]
    .map(({ spellings, ...author }) => {
      // Map keeps the newest spelling first, so the first of the most used wins a tie.
      let best = author.name
      for (const [name, n] of spellings) if (n > spellings.get(best)!) best = name
      return { ...author, name: best }
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.slug.localeCompare(b.slug))
}

/** The address of an author's Atom feed. */
export const authorFeedPath = (slug: string) => `${authorSlugPath(slug)}/atom.xml`

/**
 * The author as schema.org's Person (https://schema.org/Person), for the page's JSON-LD: their
 * ORCID iD's page as `sameAs` and `@id`, as ORCID asks of linked data.
 */
export function personJsonLd(author: SiteAuthor, pageUrl: string): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Person',
    ...(author.orcid ? { '@id': orcidUrl(author.orcid), sameAs: orcidUrl(author.orcid) } : {}),
    name: author.name,
    url: pageUrl,
    mainEntityOfPage: pageUrl,
    ...(author.affiliation ? { affiliation: { '@type': 'Organization', name: author.affiliation } } : {}),
  }
}
