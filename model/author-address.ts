/**
 * An author's page address, `/authors/<slug>`: the one place it is spelled. The site builds the
 * pages under it, the article pages and the API link to it, the API's `author=` filter takes it.
 *
 * One person is one page. An author with an ORCID iD is known by it: two people of one name
 * have two iDs and two pages, and one person is one page whichever way their name is written.
 * An author without an iD is known by their name, written the same way (case, accents and
 * punctuation aside: "Mateo García" and "mateo garcia" are one page). An author given an iD in
 * one article and none in another has two pages until the second article names the iD too.
 * The slug depends on the author alone, never on other articles, so a page's links stay put
 * when articles are added.
 */
import anyAscii from 'any-ascii'
import { createHash } from 'node:crypto'

/** The folder of the author pages, from the site's root. */
export const AUTHORS_PATH = '/authors'

/** The part of an author that names them: the index's and the front matter's forms both fit. */
export interface AuthorIdentity {
  name: string
  orcid?: string | null
}

const ORCID_SLUG = /^\d{4}-\d{4}-\d{4}-\d{3}[\dx]$/

/**
 * The author's slug: their ORCID iD (its check character lowercased, as slugs are), else their
 * name in lowercase ASCII words joined by hyphens. A name no letter or digit survives in gets
 * `author-` and a digest of the name; a name that reads as an iD gets `author-` before it.
 */
export function authorSlug(a: AuthorIdentity): string {
  if (a.orcid) return a.orcid.toLowerCase()
  const name = a.name.normalize('NFC').trim()
  const words = anyAscii(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 96)
    .replace(/-+$/, '')
  if (!words) return `author-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`
  return ORCID_SLUG.test(words) ? `author-${words}` : words
}

/** The path of the page of the author with this slug. */
export const authorSlugPath = (slug: string) => `${AUTHORS_PATH}/${slug}`

/** The path of an author's page. */
export const authorPath = (a: AuthorIdentity) => authorSlugPath(authorSlug(a))

/** The absolute URL of an author's page; `baseUrl` is a bare origin. */
export function authorUrl(baseUrl: string, a: AuthorIdentity): string {
  return `${baseUrl}${authorPath(a)}`
}
