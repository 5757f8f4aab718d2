/** A request's target as the origin serves it: the path, and the query unparsed (null without `?`). */
export interface RequestTarget {
  path: string
  search: string | null
}

/** The asterisk-form target (RFC 9112 §3.2.4): OPTIONS about the server as a whole. */
export const ASTERISK = '*'

// RFC 3986 §3.1 scheme, then "//" and the authority (§3.2) up to the path, query or fragment.
const ABSOLUTE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s

/**
 * Reads a request-target (RFC 9112 §3.2) without throwing, whatever the request line holds:
 * - origin-form, `/path?query`, as it is;
 * - absolute-form, `http://host/path?query`, which a server must accept (§3.2.2), by its path and
 *   query: the authority must be well formed, but it picks nothing (this origin serves one site),
 *   and an empty path is `/` (RFC 9110 §4.2.3);
 * - asterisk-form, `*`, as ASTERISK (only OPTIONS may use it, which the caller checks).
 * Anything else (authority-form outside CONNECT, another scheme, a malformed host such as
 * `http://[::1/`) is undefined: the caller answers 400. A fragment is not part of a target
 * (§3.2) and is dropped.
 */
export function requestTarget(url: string): RequestTarget | typeof ASTERISK | undefined {
  if (url.startsWith('/')) return split(url)
  if (url === ASTERISK) return ASTERISK
  const absolute = ABSOLUTE.exec(url)
  if (!absolute) return undefined
  const [, scheme, authority, rest] = absolute as unknown as [string, string, string, string]
  const lower = scheme.toLowerCase()
  if ((lower !== 'http' && lower !== 'https') || authority === '') return undefined
  // WHATWG URL parses the host as a browser would (IPv6 literals, ports, forbidden code points).
  if (URL.parse(`${lower}://${authority}/`) === null) return undefined
  return split(rest.startsWith('/') ? rest : `/${rest}`)
}

/** The target as origin-form (`/path?query`): what the rest of the service reads as `req.url`. */
export const originForm = (target: RequestTarget): string =>
  target.search === null ? target.path : `${target.path}?${target.search}`

function split(target: string): RequestTarget {
  const hash = target.indexOf('#')
  const whole = hash < 0 ? target : target.slice(0, hash)
  const q = whole.indexOf('?')
  return q < 0 ? { path: whole, search: null } : { path: whole.slice(0, q), search: whole.slice(q + 1) }
}
