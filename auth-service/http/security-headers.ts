import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import type { RequestHandler } from 'express'
import helmet from 'helmet'

/**
 * The content security policy of every page: scripts only from this origin (Pagefind needs
 * WebAssembly), inline styles allowed (KaTeX and Shiki write style attributes), no plugins,
 * no framing, forms and fetches to this origin only. deploy/nginx/security-headers.conf sends
 * the same policy with the static files (a test compares them).
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'https:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const

function helmetFor(options: { https: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // The API and its documents are meant to be read from other origins.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // HSTS only means something over HTTPS; on a plain-HTTP origin it would be ignored noise.
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
  })
}

/**
 * The security headers of an answer meant for programs (JSON, discovery and OAuth documents,
 * the API's errors): the set of the OWASP REST Security Cheat Sheet ("Security Headers",
 * https://cheatsheetseries.owasp.org/cheatsheets/REST_Security_Cheat_Sheet.html#security-headers):
 * nothing of such an answer may load or run, frame it, or be sniffed into another type. The
 * headers that only guide how a browser renders a page are the pages' (securityHeaderList).
 * deploy/nginx/api-security-headers.conf sends the same with the answers nginx serves itself.
 */
export function apiSecurityHeaderList(options: { https: boolean }): string[] {
  return [
    'content-security-policy',
    API_CONTENT_SECURITY_POLICY,
    'x-content-type-options',
    'nosniff',
    'x-frame-options',
    'DENY',
    ...(options.https ? ['strict-transport-security', HSTS] : []),
  ]
}

/** The content security policy of an answer for programs: nothing loads, nothing frames it. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'"
const HSTS = 'max-age=31536000; includeSubDomains'

/**
 * helmet's headers for this origin as name/value pairs. They depend on the configuration only,
 * so helmet runs once, on a real response, and every response of the pipeline sends them.
 */
export function securityHeaderList(options: { https: boolean }): string[] {
  const req = new IncomingMessage(new Socket())
  const res = new ServerResponse(req)
  helmetFor(options)(req as never, res as never, () => {})
  return Object.entries(res.getHeaders()).flatMap(([name, value]) => [name, String(value)])
}

/** Sets constant name/value pairs on every response. */
export function constantHeaders(pairs: readonly string[]): RequestHandler {
  const headers = new Map<string, string>()
  for (let i = 0; i < pairs.length; i += 2) headers.set(pairs[i]!, pairs[i + 1]!)
  return function constantHeaders(_req, res, next) {
    res.setHeaders(headers)
    next()
  }
}
