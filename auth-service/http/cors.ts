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
 * Files of the static site meant for programs (markdown and citation twins, linksets, auth.md,
 * llms.txt, llms-full.txt, feeds, sitemaps): any origin's scripts may read them too, as they read
 * the API that links to them.
 */
export const OPEN_FILES = /\.(md|bib|ris|txt|xml|json|linkset)$/

/** The answer to a CORS preflight of the API (any origin, bearer credentials in Authorization). */
export const PREFLIGHT_HEADERS: readonly string[] = [
  'Access-Control-Allow-Methods',
  'GET, HEAD, POST, OPTIONS',
  'Access-Control-Allow-Headers',
  'Authorization, Content-Type, If-None-Match, If-Modified-Since',
  'Access-Control-Max-Age',
  '86400',
]
