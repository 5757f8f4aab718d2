/**
 * FAIR Signposting, level 1 (https://signposting.org/FAIR/): the typed links of an article's
 * page (its landing page) to its persistent identifier, authors, licence, metadata documents
 * and content, and the links of those documents back to the page. The build writes them as the
 * page's `<link>` elements and as the `Link` header the service and the proxy send, so that the
 * two never differ.
 */
import { ARTICLE_FILE_TYPES, articleUrl, type ArticleForm } from './article-address.ts'
import { articleFile } from './article-bucket.ts'
import { doiUrl } from './doi.ts'
import { licenseUrl, orcidUrl } from './research.ts'

/** A typed link (RFC 8288 §2): its target, relation type and the target's media type. */
export interface TypedLink {
  href: string
  rel: string
  type?: string
}

/** What an article's links are made of. */
export interface SignpostSource {
  slug: string
  doi?: string
  authors: ReadonlyArray<{ orcid?: string | null }>
  license?: string
}

/** The metadata documents beside a page, which `describedby` points to. */
const DESCRIBED_BY: ReadonlyArray<Exclude<ArticleForm, 'page' | 'md'>> = ['bib', 'csl.json', 'ris']
const mediaType = (form: Exclude<ArticleForm, 'page'>) => ARTICLE_FILE_TYPES[form].split(';')[0]!

export function articleSignposts(a: SignpostSource, baseUrl: string): TypedLink[] {
  const page = articleUrl(baseUrl, a.slug)
  return [
    // The persistent identifier: the DOI's resolver URL, else the page itself.
    { href: a.doi ? doiUrl(a.doi) : page, rel: 'cite-as' },
    ...a.authors.flatMap((p) => (p.orcid ? [{ href: orcidUrl(p.orcid), rel: 'author' }] : [])),
    ...(a.license ? [{ href: licenseUrl(a.license), rel: 'license' }] : []),
    ...DESCRIBED_BY.map((form) => ({
      href: articleUrl(baseUrl, a.slug, form),
      rel: 'describedby',
      type: mediaType(form),
    })),
    { href: articleUrl(baseUrl, a.slug, 'md'), rel: 'item', type: mediaType('md') },
    // The landing page's own type and its object's (the profile's "type" links).
    { href: 'https://schema.org/AboutPage', rel: 'type' },
    { href: 'https://schema.org/ScholarlyArticle', rel: 'type' },
  ]
}

/** The link of a metadata document back to the page it describes. */
export const describesLink = (baseUrl: string, slug: string): TypedLink => ({
  href: articleUrl(baseUrl, slug),
  rel: 'describes',
  type: 'text/html',
})

/** A quoted-string of RFC 9110 §5.6.4: the values here hold no quote or backslash, but escape them anyway. */
const quoted = (s: string) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`

/**
 * The `Link` header field's value (RFC 8288 §3): URI references in angle brackets (the targets
 * here are URLs already percent-encoded, with no `>` or space), parameters quoted.
 */
export function linkHeader(links: readonly TypedLink[]): string {
  return links.map((l) => `<${l.href}>; rel=${quoted(l.rel)}${l.type ? `; type=${quoted(l.type)}` : ''}`).join(', ')
}

/** Where a build keeps each page's Link header value: beside the page, in its bucket (model/article-bucket.ts). */
export const signpostsFile = (buildDir: string, slug: string) => articleFile(buildDir, slug, 'link')
