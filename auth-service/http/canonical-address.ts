import type { RequestHandler } from 'express'

/**
 * The site's sections, whose addresses people paste in other forms: Hugo and Ghost end theirs in
 * a slash (`/posts/<slug>/`, `/tags/`), and a list's first page has the list's own address, not
 * `/page/1`. The API's namespaces are not among them: their routes are strict (route-table.ts).
 */
const SECTION = /^\/(?:posts|tags|page|authors|search|developers)(?:\/[^/]+)*\/+$/
/** Page 1 of a list: `/page/1` is the home page, `/tags/x/page/1` the tag's page. */
const FIRST_PAGE = /^((?:\/(?:tags|authors)\/[^/]+)?)\/page\/1\/*$/

/** The canonical form of a site address given in another form, or undefined when it is canonical. */
export function canonicalPath(path: string): string | undefined {
  const first = FIRST_PAGE.exec(path)
  if (first) return first[1] || '/'
  if (SECTION.test(path)) return path.replace(/\/+$/, '')
  return undefined
}

/**
 * Redirects such an address to its canonical one with 308 (RFC 9110 §15.4.9: permanent, and the
 * method is kept), its query string kept. deploy/nginx/default.conf.template has the same rules.
 */
export const canonicalRedirect: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next()
  const canonical = canonicalPath(req.path)
  if (canonical === undefined) return next()
  res.setHeader('Cache-Control', 'public, max-age=3600')
  res.redirect(308, `${canonical}${req.url.slice(req.path.length)}`)
}
