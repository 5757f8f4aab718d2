/**
 * FAIR Signposting (https://signposting.org/FAIR/): the typed links of an article's page (its
 * landing page) to its persistent identifier, authors, licence, metadata documents and content,
 * and the links of those resources back to the page. Level 1: the build writes them as the
 * page's `<link>` elements and as the `Link` header the service and the proxy send, so that the
 * two never differ. Level 2: every article also has a linkset document (RFC 9264,
 * model/linkset.ts) holding them all, which the page links to; a set too long for a header
 * (LINK_HEADER_MAX) is sent as that link alone.
 */
import { ARTICLE_FILE_TYPES, articleUrl, type ArticleForm } from './article-address.ts'
import { articleFile } from './article-bucket.ts'
import { doiUrl, isCrossrefDoi } from './doi.ts'
import { licenseUrl, orcidUrl } from './research.ts'
import { ORIGIN_MAX_LENGTH } from './site-config.ts'
import { SLUG_MAX_LENGTH } from './slug.ts'

/** A typed link (RFC 8288 §2): its target, relation type and the target's media type. */
export interface TypedLink {
  href: string
  rel: string
  type?: string
  /** The profile the target conforms to (RFC 6906), where its media type alone is too broad. */
  profile?: string
}

/** What an article's links are made of. */
export interface SignpostSource {
  slug: string
  doi?: string
  authors: ReadonlyArray<{ orcid?: string | null }>
  license?: string
}

/** The metadata documents beside a page, which `describedby` points to. */
export const DESCRIBED_BY = [
  'bib',
  'csl.json',
  'ris',
  'jats.xml',
  'crossref.xml',
] as const satisfies ReadonlyArray<ArticleForm>
export type DescribedBy = (typeof DESCRIBED_BY)[number]

/** The metadata documents of an article: a Crossref deposit registers a DOI, so only an article with one has it. */
export const describedBy = (a: { doi?: string }): DescribedBy[] =>
  DESCRIBED_BY.filter((form) => form !== 'crossref.xml' || isCrossrefDoi(a.doi))

/**
 * The tag set a JATS document follows, as its profile: application/xml alone does not say it is
 * JATS (FAIR Signposting gives a `describedby` link a profile for a generic type).
 */
export const JATS_PROFILE = 'https://jats.nlm.nih.gov/archiving/1.4/'
const PROFILES: Partial<Record<DescribedBy, string>> = { 'jats.xml': JATS_PROFILE }
/** The linkset documents, JSON first (the one FAIR Signposting's examples use). */
const LINKSETS = ['linkset.json', 'linkset'] as const satisfies ReadonlyArray<ArticleForm>
const mediaType = (form: Exclude<ArticleForm, 'page'>) => ARTICLE_FILE_TYPES[form].split(';')[0]!

/** The landing page's links: the level 1 set. */
export function articleSignposts(a: SignpostSource, baseUrl: string): TypedLink[] {
  const page = articleUrl(baseUrl, a.slug)
  return [
    // The persistent identifier: the DOI's resolver URL, else the page itself.
    { href: a.doi ? doiUrl(a.doi) : page, rel: 'cite-as' },
    ...a.authors.flatMap((p) => (p.orcid ? [{ href: orcidUrl(p.orcid), rel: 'author' }] : [])),
    ...(a.license ? [{ href: licenseUrl(a.license), rel: 'license' }] : []),
    ...describedBy(a).map((form) => ({
      href: articleUrl(baseUrl, a.slug, form),
      rel: 'describedby',
      type: mediaType(form),
      ...(PROFILES[form] ? { profile: PROFILES[form] } : {}),
    })),
    { href: articleUrl(baseUrl, a.slug, 'md'), rel: 'item', type: mediaType('md') },
    // The landing page's own type and its object's (the profile's "type" links).
    { href: 'https://schema.org/AboutPage', rel: 'type' },
    { href: 'https://schema.org/ScholarlyArticle', rel: 'type' },
  ]
}

/** The page's links to its linkset documents (RFC 9264 §6: rel="linkset"). */
export const linksetLinks = (baseUrl: string, slug: string): TypedLink[] =>
  LINKSETS.map((form) => ({ href: articleUrl(baseUrl, slug, form), rel: 'linkset', type: mediaType(form) }))

/** Every link of the page, as its `<link>` elements give them: the level 1 set and its linksets. */
export const pageSignposts = (a: SignpostSource, baseUrl: string): TypedLink[] => [
  ...articleSignposts(a, baseUrl),
  ...linksetLinks(baseUrl, a.slug),
]

/** The link of a metadata document back to the page it describes. */
export const describesLink = (baseUrl: string, slug: string): TypedLink => ({
  href: articleUrl(baseUrl, slug),
  rel: 'describes',
  type: 'text/html',
})

/** The link of the content (the markdown twin, the page's `item`) back to its landing page. */
export const collectionLink = (baseUrl: string, slug: string): TypedLink => ({
  href: articleUrl(baseUrl, slug),
  rel: 'collection',
  type: 'text/html',
})

/** A quoted-string of RFC 9110 §5.6.4: the values here hold no quote or backslash, but escape them anyway. */
export const quoted = (s: string) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`

/**
 * The `Link` header field's value (RFC 8288 §3): URI references in angle brackets (the targets
 * here are URLs already percent-encoded, with no `>` or space), parameters quoted.
 */
export function linkHeader(links: readonly TypedLink[]): string {
  return links.map((l) => `<${l.href}>; rel=${quoted(l.rel)}${targetAttributes(l)}`).join(', ')
}

/** A link's `type` and `profile` target attributes (RFC 8288 §3.4.1; profile: RFC 6906 §3.1), as parameters. */
export const targetAttributes = (l: TypedLink) =>
  `${l.type ? `; type=${quoted(l.type)}` : ''}${l.profile ? `; profile=${quoted(l.profile)}` : ''}`

/**
 * The longest Link header a page sends inline, in bytes. Fifty authors with ORCID iDs and a
 * long DOI make a set of several KB, and nginx reads a replica's headers into one buffer
 * (4 KB by default): past this, the page's header is only its links to the linkset, which holds
 * every link (FAIR Signposting level 2). The set of a typical article (a DOI, a few authors)
 * is well under it.
 */
export const LINK_HEADER_MAX = 2048

const byteLength = (s: string) => new TextEncoder().encode(s).length

/** The Link header of an article's page: every link when they fit in LINK_HEADER_MAX, else its linksets. */
export function pageLinkHeader(a: SignpostSource, baseUrl: string): string {
  const inline = linkHeader(pageSignposts(a, baseUrl))
  return byteLength(inline) <= LINK_HEADER_MAX ? inline : linkHeader(linksetLinks(baseUrl, a.slug))
}

/**
 * The longest Link header any page can send, from the model's limits: the inline limit, or the
 * links to the linksets of the longest slug under the longest origin, whichever is longer.
 */
export const LINK_HEADER_BOUND = Math.max(
  LINK_HEADER_MAX,
  byteLength(linkHeader(linksetLinks(`https://${'a'.repeat(ORIGIN_MAX_LENGTH - 8)}`, 'a'.repeat(SLUG_MAX_LENGTH)))),
)

/** Where a build keeps each page's Link header value: beside the page, in its bucket (model/article-bucket.ts). */
export const signpostsFile = (buildDir: string, slug: string) => articleFile(buildDir, slug, 'link')
