import { CLIENT_METADATA_LIMITS } from '../defaults.ts'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

/**
 * Why a redirect URI cannot be registered, or undefined when it can: https, or http on a loopback
 * address (RFC 8252 §7.3, a native client's local listener); absolute, no fragment (RFC 6749
 * §3.1.2), no credentials. Custom schemes and plain http elsewhere are refused.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > CLIENT_METADATA_LIMITS.uriLength)
    return `a redirect URI is longer than ${CLIENT_METADATA_LIMITS.uriLength} characters`
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return 'a redirect URI is not an absolute URL'
  }
  if (url.hash || uri.includes('#')) return 'a redirect URI must not carry a fragment'
  if (url.username || url.password) return 'a redirect URI must not carry credentials'
  // Port 0 asks a system for any free port when listening: no client is reached at it.
  if (url.port === '0') return 'a redirect URI must not name port 0, which no client listens on; give its real port'
  if (url.protocol === 'https:') return undefined
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined
  return 'a redirect URI must use https, or http on a loopback address (127.0.0.1, [::1] or localhost)'
}

/**
 * Whether the redirect URI of a request is one the client registered: exact string comparison
 * (no normalisation an attacker could play with), except that a loopback URI may use any port,
 * which a native client picks when it starts listening (RFC 8252 §7.3).
 */
export function redirectUriMatches(registered: readonly string[], requested: string): boolean {
  // A requested URI must be usable itself (a loopback one with port 99999 is not a URL at all).
  if (redirectUriProblem(requested) !== undefined) return false
  if (registered.includes(requested)) return true
  const asked = loopbackWithoutPort(requested)
  return asked !== undefined && registered.some((r) => loopbackWithoutPort(r) === asked)
}

/** An http loopback URI as text without its port, or undefined for any other URI. */
function loopbackWithoutPort(uri: string): string | undefined {
  const m = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::\d{1,5})?([/?].*)?$/.exec(uri)
  return m ? `http://${m[1]}${m[2] ?? ''}` : undefined
}
