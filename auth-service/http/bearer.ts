import { KNOWN_CREDENTIALS_CACHE_SIZE } from '../defaults.ts'
import type { Store } from '../store/store.ts'
import { LRUCache } from 'lru-cache'
import { findApiKey, isApiKeyLive, looksLikeApiKey } from '../auth/api-keys.ts'
import { isTokenRevoked } from '../auth/revocations.ts'
import type { Scope } from '../auth/policy.ts'
import type { TokenService } from '../auth/tokens.ts'
import { InvalidTokenError, ServiceError } from '../errors.ts'

/** Who is calling: nobody (public reads), or the holder of a valid API key or access token. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'api_key' | 'access_token'; subject: string; scopes: readonly string[] }

/** The caller who sends no credential: public reads. */
export const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous' })

/** RFC 6750 §2.1 b64token, bounded so that no header makes us do unbounded work. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{1,4096}=*) *$/i

/**
 * The bearer check of every `/api/v1` call (RFC 6750 §2.1): no Authorization header reads
 * anonymously; a valid API key or access token reads as its holder; anything else is a 401 whose
 * WWW-Authenticate points at the protected resource metadata (RFC 9728 §5.1).
 */
export type ResolvePrincipal = (authorization: string | undefined) => Promise<Principal>

/**
 * Who an Authorization header names: anonymous without one, the holder of a valid API key or
 * access token, and otherwise a 401 `invalid_token` whose WWW-Authenticate points at the
 * protected resource metadata (RFC 9728 §5.1). Revocation is checked on every call.
 */
export function principalResolver(deps: {
  store: Store
  tokens: TokenService
  resourceMetadataUrl: string
  /** The protected resource whose tokens this accepts (their audience); the default resource when omitted. */
  resource?: string
}): ResolvePrincipal {
  const audience = { resource: deps.resource }
  const challenge = `Bearer error="invalid_token", resource_metadata="${deps.resourceMetadataUrl}"`
  const refuse = (description: string, cause?: unknown) =>
    new ServiceError('invalid_token', description, { cause, headers: { 'WWW-Authenticate': challenge } })
  // Credentials already resolved, by their exact header: a caller presents the same one on every
  // call, so parsing, digesting and verifying it once is enough. What can change (revocation,
  // expiry) is checked again on every call, with one store read.
  const known = new LRUCache<string, { principal: Principal; live: () => Promise<boolean> }>({
    max: KNOWN_CREDENTIALS_CACHE_SIZE,
  })

  async function resolve(header: string): Promise<Principal> {
    const match = BEARER.exec(header)
    if (!match) throw refuse('Send credentials as "Authorization: Bearer <API key or access token>".')
    const value = match[1]!
    if (looksLikeApiKey(value)) {
      const key = await findApiKey(deps.store, value)
      if (!key) throw refuse('The API key is unknown, expired or revoked.')
      const principal: Principal = Object.freeze({ kind: 'api_key', subject: key.subject, scopes: key.scopes })
      known.set(header, { principal, live: () => isApiKeyLive(deps.store, key.digest) })
      return principal
    }
    let claims
    try {
      claims = await deps.tokens.verifyAccessToken(value, audience)
    } catch (e) {
      if (e instanceof InvalidTokenError) throw refuse(`The access token is not valid: ${e.message}`, e)
      throw e
    }
    if (await isTokenRevoked(deps.store, claims)) throw refuse('The access token has been revoked.')
    const principal: Principal = Object.freeze({
      kind: 'access_token',
      subject: claims.sub,
      scopes: Object.freeze(claims.scope.split(' ')),
    })
    known.set(header, {
      principal,
      // Expiry by the token service's own clock, revocation from the store.
      live: () =>
        deps.tokens.unexpired(claims)
          ? isTokenRevoked(deps.store, claims).then((revoked) => !revoked)
          : Promise.resolve(false),
    })
    return principal
  }

  return function resolvePrincipal(header) {
    if (header === undefined) return Promise.resolve(ANONYMOUS)
    const hit = known.get(header)
    if (!hit) return resolve(header)
    return hit.live().then((live) => {
      if (live) return hit.principal
      // No longer valid: the full check says why.
      known.delete(header)
      return resolve(header)
    })
  }
}

/** Identified callers must hold `scope`; anonymous reads are public (docs/api.md#the-api). */
export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.kind === 'anonymous' || principal.scopes.includes(scope)
}

/** The 403 of a caller without the scope a call needs (RFC 6750 §3.1). */
export function insufficientScope(scope: Scope, resourceMetadataUrl: string): ServiceError {
  return new ServiceError('insufficient_scope', `This call needs the "${scope}" scope.`, {
    headers: {
      'WWW-Authenticate':
        `Bearer error="insufficient_scope", scope="${scope}", ` + `resource_metadata="${resourceMetadataUrl}"`,
    },
  })
}
