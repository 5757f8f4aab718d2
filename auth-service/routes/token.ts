import { Router, type Request, type Response } from 'express'
import { ServiceError } from '../errors.ts'
import { bodyFields, formBody, isForm, optionalField, requiredField } from '../http/forms.ts'
import { looksLikeApiKey, revokeApiKey } from '../auth/api-keys.ts'
import { findClaim, findIdentity, removeIdentity } from '../auth/identities.ts'
import { GRANTS, SCOPES } from '../auth/policy.ts'
import { revokeTokenId } from '../auth/revocations.ts'
import { InvalidTokenError, type TokenService } from '../auth/tokens.ts'
import type { Store } from '../store/store.ts'
import { endpoints } from './well-known.ts'

export interface TokenDeps {
  baseUrl: string
  store: Store
  tokens: TokenService
  onIssued?: (kind: 'access_token') => void
}

type Fields = Record<string, unknown>
type GrantHandler = (fields: Fields, res: Response) => Promise<void>

/** Seconds an agent should wait between claim-grant polls (RFC 8628 §3.5 `interval`). */
const CLAIM_POLL_INTERVAL = 5

/** The token endpoint (RFC 6749 §5, RFC 7523) and the revocation endpoint (RFC 7009). */
export function tokenRouter(deps: TokenDeps): Router {
  const router = Router()
  const { resource } = endpoints(deps.baseUrl)

  const grants: Record<string, GrantHandler> = {
    async [GRANTS.jwtBearer](fields, res) {
      const assertion = requiredField(fields, 'assertion', 16_384)
      const requested = optionalField(fields, 'resource', 2048)
      if (requested !== undefined && requested !== resource)
        throw new ServiceError('invalid_target', `The only resource here is ${resource}.`)
      const scope = grantedScope(optionalField(fields, 'scope', 512))
      let claims
      try {
        claims = await deps.tokens.verifyIdentityAssertion(assertion)
      } catch (e) {
        if (e instanceof InvalidTokenError)
          throw new ServiceError('invalid_grant', `The identity_assertion is not valid (${e.message}) Register again at /agent/identity.`, { cause: e })
        throw e
      }
      if (!(await findIdentity(deps.store, claims.sub)))
        throw new ServiceError('invalid_grant', 'The identity behind this identity_assertion no longer exists; register again at /agent/identity.')
      const { token, claims: issued } = await deps.tokens.signAccessToken({ sub: claims.sub, scope })
      deps.onIssued?.('access_token')
      res.json({ access_token: token, token_type: 'Bearer', expires_in: issued.exp - issued.iat, scope })
    },
    async [GRANTS.claim](fields) {
      const claimToken = requiredField(fields, 'claim_token', 512)
      if (!(await findClaim(deps.store, claimToken)))
        throw new ServiceError('invalid_grant', 'The claim_token is unknown or expired; register again at /agent/identity.')
      throw new ServiceError('authorization_pending', `The claim is not complete; this host does not complete claims. Poll no faster than every ${CLAIM_POLL_INTERVAL} s, or exchange the identity_assertion instead.`)
    },
  }

  router.post('/oauth2/token', noStore, formBody, async function exchangeToken(req, res) {
    const fields = formFields(req)
    const grantType = requiredField(fields, 'grant_type', 256)
    // client_id is accepted and ignored: the agent is a public client (auth method "none").
    optionalField(fields, 'client_id', 256)
    const grant = Object.hasOwn(grants, grantType) ? grants[grantType] : undefined
    if (!grant) throw new ServiceError('unsupported_grant_type', `Use "${GRANTS.jwtBearer}" (or the claim grant "${GRANTS.claim}").`)
    await grant(fields, res)
  })

  router.post('/oauth2/revoke', noStore, formBody, async function revokeToken(req, res) {
    const fields = formFields(req)
    const token = requiredField(fields, 'token', 16_384)
    optionalField(fields, 'token_type_hint', 64)
    optionalField(fields, 'client_id', 256)
    await revoke(deps, token)
    // RFC 7009 §2.2: 200 whether or not the token was valid, so nothing about it leaks.
    res.status(200).end()
  })

  return router
}

/** Revokes whatever the token is: an API key, an access token, or an identity_assertion (its identity). */
async function revoke(deps: TokenDeps, token: string): Promise<void> {
  if (looksLikeApiKey(token)) return revokeApiKey(deps.store, token)
  try {
    const claims = await deps.tokens.verifyAccessToken(token, { ignoreExpiry: true })
    return revokeTokenId(deps.store, claims.jti, claims.exp)
  } catch (e) {
    if (!(e instanceof InvalidTokenError)) throw e
  }
  try {
    const claims = await deps.tokens.verifyIdentityAssertion(token)
    return removeIdentity(deps.store, claims.sub)
  } catch (e) {
    if (!(e instanceof InvalidTokenError)) throw e
  }
}

function grantedScope(requested: string | undefined): string {
  if (requested === undefined || requested.trim() === '') return SCOPES.join(' ')
  const wanted = [...new Set(requested.trim().split(/ +/))]
  const unknown = wanted.filter((s) => !(SCOPES as readonly string[]).includes(s))
  if (unknown.length) throw new ServiceError('invalid_scope', `Unknown scope "${unknown[0]!.slice(0, 64)}"; this host grants ${SCOPES.join(' ')}.`)
  return SCOPES.filter((s) => wanted.includes(s)).join(' ')
}

/** RFC 6749 §5.1: token responses and their errors are never cached. */
function noStore(_req: Request, res: Response, next: () => void): void {
  res.setHeader('Cache-Control', 'no-store')
  res.setHeader('Pragma', 'no-cache')
  next()
}

function formFields(req: Request): Fields {
  if (!isForm(req.headers['content-type']))
    throw new ServiceError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.')
  return bodyFields(req.body)
}
