/**
 * An article's addresses: its page and the files beside it. The one place they are spelled; the
 * build writes the files under these names, the service and the proxy serve them (the proxy's
 * article locations are generated from here by scripts/deploy/nginx-articles.ts), and the API,
 * feeds and MCP link to them.
 */
import { SLUG_PATTERN } from './slug.ts'

/** The folder of the article pages, from the site's root. */
export const POSTS_PATH = '/posts'

/**
 * The forms an article is served in: its page, its markdown twin, its citation files, its JATS
 * XML and Crossref deposit (scripts/builder/jats/, scripts/builder/crossref/), and its FAIR
 * Signposting linkset in RFC 9264's two formats (JSON and text).
 */
export type ArticleForm =
  | 'page'
  | 'md'
  | 'bib'
  | 'csl.json'
  | 'ris'
  | 'jats.xml'
  | 'crossref.xml'
  | 'linkset.json'
  | 'linkset'

/** The media types of the files beside a page, which their extensions alone do not tell. */
export const ARTICLE_FILE_TYPES = {
  md: 'text/markdown; charset=utf-8',
  bib: 'application/x-bibtex; charset=utf-8',
  'csl.json': 'application/vnd.citationstyles.csl+json; charset=utf-8',
  // RIS has no registered media type: this is the one in common use.
  ris: 'application/x-research-info-systems; charset=utf-8',
  // JATS registers no media type of its own: XML (RFC 7303 §3.2), the tag set named by the
  // describedby link's profile (model/signposting.ts).
  'jats.xml': 'application/xml; charset=utf-8',
  // Crossref's vendor type for a metadata deposit (the IANA media types registry).
  'crossref.xml': 'application/vnd.crossref.deposit+xml; charset=utf-8',
  // RFC 9264 §7: the two types register no charset parameter (only an optional profile).
  'linkset.json': 'application/linkset+json',
  linkset: 'application/linkset',
} as const satisfies Record<Exclude<ArticleForm, 'page'>, string>

/** An article page's path, the slug captured: the slug pattern under POSTS_PATH. */
export const ARTICLE_PAGE_PATTERN = `^${POSTS_PATH}/(${SLUG_PATTERN.slice(1, -1)})$`

/** The path of an article, or of one of its files, from the site's root. */
export function articlePath(slug: string, form: ArticleForm = 'page'): string {
  return form === 'page' ? `${POSTS_PATH}/${slug}` : `${POSTS_PATH}/${slug}.${form}`
}

/** The absolute URL of an article, or of one of its files; `baseUrl` is a bare origin. */
export function articleUrl(baseUrl: string, slug: string, form: ArticleForm = 'page'): string {
  return `${baseUrl}${articlePath(slug, form)}`
}
