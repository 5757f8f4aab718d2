import type { RequestHandler } from 'express'

/**
 * Open CORS for the API: any origin may read, never with cookies (the service sets none; bearer
 * credentials travel in Authorization, which a preflight must allow). deploy/nginx/cors-headers.conf
 * sends the same with the answers nginx makes itself (the proxy test compares them).
 */
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'ETag, Last-Modified, Link, WWW-Authenticate, Retry-After, RateLimit, RateLimit-Policy, Location, X-Request-Id',
} as const

/**
 * Files of the static site meant for programs (markdown and citation twins, auth.md, llms.txt,
 * llms-full.txt, feeds, sitemaps): any origin's scripts may read them too, as they read the API
 * that links to them.
 */
export const OPEN_FILES = /\.(md|bib|txt|xml|json)$/

export function openCors(methods: string): RequestHandler {
  return function cors(req, res, next) {
    for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value)
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.setHeader('Access-Control-Allow-Methods', methods)
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, If-None-Match, If-Modified-Since')
      res.setHeader('Access-Control-Max-Age', '86400')
      res.status(204).end()
      return
    }
    next()
  }
}
