/**
 * Generators of hostile input for the fuzz tests (paths, methods, media types, credentials,
 * bodies, cursors, client names, queries), and the check every answer to them must pass: never
 * a 5xx, and every refusal explained with a known code.
 */
import fc from 'fast-check'
import { expect } from 'vitest'
import { ERROR_CODES, EVENT_ERROR_CODES } from '../../auth-service/errors.ts'

const KNOWN = new Set<string>(ERROR_CODES)
const EVENT_CODES = new Set<string>(EVENT_ERROR_CODES)

export const PATHS = [
  '/api/v1',
  '/api/v1/posts',
  '/api/v1/posts/hashing-rings',
  '/api/v1/search',
  '/api/v1/keys',
  '/agent/identity',
  '/agent/identity/claim',
  '/oauth2/token',
  '/oauth2/revoke',
  '/agent/event/notify',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-authorization-server',
  '/.well-known/jwks.json',
  '/openapi.json',
  '/api/v1/posts/',
  '/.well-known/api-catalog',
]
export const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'options', 'head'] as const
export const CONTENT_TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'application/secevent+jwt',
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded; charset=utf-16',
]

/** Tokens and keys of every malformed shape, and a few that look almost right. */
export const credential = fc.oneof(
  fc.string(),
  fc.stringMatching(/^lat_live_[A-Za-z0-9_-]{0,60}$/),
  fc.tuple(fc.base64String(), fc.base64String(), fc.base64String()).map((p) => p.join('.')),
  fc.constantFrom('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'a.b.c', '...', 'Bearer', '%00', 'ey'),
)
export const authorization = fc.oneof(
  credential.map((c) => `Bearer ${c}`),
  fc.string().map((s) => s.replace(/[\r\n]/g, '')),
  fc.constantFrom('Basic dXNlcjpwYXNz', 'Bearer', 'bearer  x', 'DPoP abc'),
)
export const body = fc.oneof(
  fc.json(),
  fc.string(),
  fc
    .record({
      type: fc.oneof(fc.string(), fc.constantFrom('anonymous', 'identity_assertion', 'service_auth')),
      assertion: credential,
    })
    .map((o) => JSON.stringify(o)),
  fc
    .dictionary(
      fc.constantFrom('grant_type', 'assertion', 'resource', 'token', 'label', 'claim_token', 'scope', 'client_id'),
      fc.oneof(fc.string(), credential),
    )
    .map((d) => new URLSearchParams(d).toString()),
  fc.constant(''),
)
/** Cursors of every malformed shape: random text, base64url of random JSON, of near-valid positions. */
export const cursor = fc.oneof(
  fc.string(),
  fc.json().map((j) => Buffer.from(j).toString('base64url')),
  fc
    .tuple(
      fc.constantFrom(1, 2, '1'),
      fc.string(),
      fc.oneof(fc.string(), fc.double()),
      fc.oneof(fc.string(), fc.integer()),
      fc.string(),
    )
    .map((fields) => Buffer.from(JSON.stringify(fields)).toString('base64url')),
)
/** Client names with a character that makes them read differently: controls, bidi, invisible. */
export const hiddenName = fc
  .tuple(
    fc.string({ maxLength: 20 }),
    fc.constantFrom(
      '\u0000',
      '\n',
      '\r',
      '\t',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u200b',
      '\u200d',
      '\u200e',
      '\u202a',
      '\u202e',
      '\u2066',
      '\u2069',
      '\u2028',
      '\u2029',
      '\ufeff',
      '\ue000',
    ),
    fc.string({ maxLength: 20 }),
  )
  .map(([a, hidden, b]) => `${a}${hidden}${b}`)
export const query = fc.dictionary(
  fc.constantFrom('q', 'limit', 'x', 'q[]', 'limit[a]', 'cursor', 'tag', 'author', 'updated_since', 'offset'),
  fc.oneof(
    fc.string(),
    fc.integer().map(String),
    cursor,
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  ),
  { maxKeys: 3 },
)

export function assertAnswer(path: string, status: number, type: string | undefined, parsed: unknown) {
  expect(status, path).toBeLessThan(500)
  if (status < 400) return
  expect(type, `${path} ${status}`).toMatch(/^application\/json/)
  const b = parsed as { error?: string; err?: string }
  if (path === '/agent/event/notify' && b.err !== undefined)
    expect(EVENT_CODES.has(b.err), `${path} ${b.err}`).toBe(true)
  else expect(KNOWN.has(b.error ?? ''), `${path} ${status} ${JSON.stringify(b)}`).toBe(true)
}
