import helmet from 'helmet'
import type { RequestHandler } from 'express'

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

export function securityHeaders(options: { https: boolean }): RequestHandler {
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

/** The same headers as a list, computed once, for responses written without the middleware chain. */
export function securityHeaderList(options: { https: boolean }): Array<[string, string]> {
  const captured: Array<[string, string]> = []
  const res = {
    setHeader: (name: string, value: unknown) => captured.push([name, String(value)]),
    removeHeader: () => {},
    getHeader: () => undefined,
  }
  securityHeaders(options)({} as never, res as never, () => {})
  return captured
}
