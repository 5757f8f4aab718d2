/**
 * An article's addresses: its page and the files beside it. The one place they are spelled; the
 * build writes the files under these names, the service and the proxy serve them, and the API,
 * feeds and MCP link to them.
 */

/** The folder of the article pages, from the site's root. */
export const POSTS_PATH = '/posts'

/** The forms an article is served in: its page, its markdown twin, and its citation files. */
export type ArticleForm = 'page' | 'md' | 'bib' | 'csl.json'

/** The path of an article, or of one of its files, from the site's root. */
export function articlePath(slug: string, form: ArticleForm = 'page'): string {
  return form === 'page' ? `${POSTS_PATH}/${slug}` : `${POSTS_PATH}/${slug}.${form}`
}

/** The absolute URL of an article, or of one of its files; `baseUrl` is a bare origin. */
export function articleUrl(baseUrl: string, slug: string, form: ArticleForm = 'page'): string {
  return `${baseUrl}${articlePath(slug, form)}`
}
