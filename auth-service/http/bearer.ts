import type { Request, RequestHandler, Response } from 'express'
import type { Store } from '../store/store.ts'
import { findApiKey, looksLikeApiKey } from '../auth/api-keys.ts'
import { isTokenRevoked } from '../auth/revocations.ts'
import type { Scope } from '../auth/policy.ts'
import type { TokenService } from '../auth/tokens.ts'
import { InvalidTokenError, ServiceError } from '../errors.ts'

/** Who is calling: nobody (public reads), or the holder of a valid API key or access token. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'api_key' | 'access_token'; subject: string; scopes: readonly string[] }

/** RFC 6750 §2.1 b64token, bounded so that no header makes us do unbounded work. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{1,4096}=*) *$/i

export function principalOf(res: Response): Principal {
  return (res.locals.principal as Principal | undefined) ?? { kind: 'anonymous' }
}

/**
 * The bearer check of every `/api/v1` call (spec §5): no Authorization header reads anonymously;
 * a valid API key or access token reads as its holder; anything else is a 401 whose
 * WWW-Authenticate points at the protected resource metadata (RFC 9728 §5.1).
 */
export type ResolvePrincipal = (authorization: string | undefined) => Promise<Principal>

/**
 * Who an Authorization header names: anonymous without one, the holder of a valid API key or
 * access token, and otherwise a 401 `invalid_token` whose WWW-Authenticate points at the
 * protected resource metadata (RFC 9728 §5.1). Revocation is checked on every call.
 */
export function principalResolver(deps: { store: Store; tokens: TokenService; resourceMetadataUrl: string }): ResolvePrincipal {
  const challenge = `Bearer error="invalid_token", resource_metadata="${deps.resourceMetadataUrl}"`
  const refuse = (description: string, cause?: unknown) =>
    new ServiceError('invalid_token', description, { cause, headers: { 'WWW-Authenticate': challenge } })
  const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous' })

  return async function resolvePrincipal(header) {
    if (header === undefined) return ANONYMOUS
    const match = BEARER.exec(header)
    if (!match) throw refuse('Send credentials as "Authorization: Bearer <API key or access token>".')
    const value = match[1]!
    if (looksLikeApiKey(value)) {
      const key = await findApiKey(deps.store, value)
      if (!key) throw refuse('The API key is unknown, expired or revoked.')
      return { kind: 'api_key', subject: key.subject, scopes: key.scopes }
    }
    let claims
    try {
      claims = await deps.tokens.verifyAccessToken(value)
    } catch (e) {
      if (e instanceof InvalidTokenError) throw refuse(`The access token is not valid: ${e.message}`, e)
      throw e
    }
    if (await isTokenRevoked(deps.store, claims.jti)) throw refuse('The access token has been revoked.')
    return { kind: 'access_token', subject: claims.sub, scopes: claims.scope.split(' ') }
  }
}

/** The bearer check of every `/api/v1` call (spec §5), as middleware. */
export function authenticate(resolve: ResolvePrincipal): RequestHandler {
  return async function bearerCheck(req: Request, res: Response, next) {
    res.locals.principal = await resolve(req.headers.authorization)
    next()
  }
}

/** Identified callers must hold `scope`; anonymous reads are public (spec §5.2). */
export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.kind === 'anonymous' || principal.scopes.includes(scope)
}

/** The 403 of a caller without the scope a call needs (RFC 6750 §3.1). */
export function insufficientScope(scope: Scope, resourceMetadataUrl: string): ServiceError {
  return new ServiceError('insufficient_scope', `This call needs the "${scope}" scope.`, {
    headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${resourceMetadataUrl}"` },
  })
}
