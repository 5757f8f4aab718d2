import express, { Router, type ErrorRequestHandler } from 'express'
import { ServiceError } from '../errors.ts'
import { bodyFields, formBody, jsonBody, optionalField, requiredField } from '../http/forms.ts'
import { registerAnonymousIdentity } from '../auth/identities.ts'
import { ID_JAG, SCOPES } from '../auth/policy.ts'
import type { TokenService } from '../auth/tokens.ts'
import type { Store } from '../store/store.ts'
import { endpoints } from './well-known.ts'

export interface AgentDeps {
  baseUrl: string
  store: Store
  tokens: TokenService
  anonymousRegistration: boolean
  onIssued?: (kind: 'identity') => void
}

const isJson = (type: string | undefined) => /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type ?? '')

/** The agent registration endpoints of spec §4.2: identity, claim, and the RFC 8935 event receiver. */
export function agentRouter(deps: AgentDeps): Router {
  const router = Router()
  const e = endpoints(deps.baseUrl)

  router.post('/agent/identity', jsonBody, async function registerIdentity(req, res) {
    res.setHeader('Cache-Control', 'no-store')
    if (!isJson(req.headers['content-type']))
      throw new ServiceError('invalid_request', 'Send a JSON body such as {"type": "anonymous"} with Content-Type: application/json.')
    const fields = bodyFields(req.body)
    const type = requiredField(fields, 'type', 64)
    switch (type) {
      case 'anonymous': {
        if (!deps.anonymousRegistration)
          throw new ServiceError('anonymous_not_enabled', 'Anonymous registration is switched off on this host; pick another method.')
        const identity = await registerAnonymousIdentity(deps.store)
        const { token, claims } = await deps.tokens.signIdentityAssertion({ sub: identity.id })
        deps.onIssued?.('identity')
        res.status(200).json({
          registration_id: identity.id,
          registration_type: 'anonymous',
          identity_assertion: token,
          assertion_expires: new Date(claims.exp * 1000).toISOString(),
          expires_in: claims.exp - claims.iat,
          scopes: [...SCOPES],
          claim_token: identity.claimToken,
          claim_token_expires: identity.expiresAt.toISOString(),
          claim_url: `${e.claimPage}?claim_token=${encodeURIComponent(identity.claimToken)}`,
          token_endpoint: e.token,
          resource: e.resource,
        })
        return
      }
      case 'identity_assertion': {
        const assertionType = requiredField(fields, 'assertion_type', 200)
        requiredField(fields, 'assertion', 16_384)
        if (assertionType !== ID_JAG)
          throw new ServiceError('invalid_request', `"assertion_type" must be "${ID_JAG}".`)
        throw new ServiceError('issuer_not_enabled', 'This host keeps no list of trusted ID-JAG issuers; register with {"type": "anonymous"} instead.')
      }
      case 'service_auth':
        requiredField(fields, 'login_hint', 320)
        throw new ServiceError('service_auth_not_enabled', 'This host has no end-user accounts; register with {"type": "anonymous"} instead.')
      default:
        throw new ServiceError('invalid_request', '"type" must be "anonymous", "identity_assertion" or "service_auth".')
    }
  })

  router.post('/agent/identity/claim', jsonBody, formBody, function claimIdentity(req, res) {
    res.setHeader('Cache-Control', 'no-store')
    const fields = bodyFields(req.body)
    optionalField(fields, 'claim_token', 512)
    // Claims are never completed here, whatever the token: the agent keeps exchanging its
    // identity_assertion. The same answer for every token also reveals nothing about them.
    throw new ServiceError(
      'claimed_or_in_flight',
      'This host does not complete claims; the agent keeps its identity and should exchange its identity_assertion at the token endpoint.',
    )
  })

  router.post(
    '/agent/event/notify',
    express.text({ type: () => true, limit: '64kb' }),
    function receiveSecurityEvent(req, res) {
      res.setHeader('Cache-Control', 'no-store')
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
      if (type !== 'application/secevent+jwt') return setError(res, 'invalid_request', 'Send a Security Event Token with Content-Type: application/secevent+jwt.')
      const token = typeof req.body === 'string' ? req.body.trim() : ''
      if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)) return setError(res, 'invalid_request', 'The body must be one compact-serialised JWT.')
      const issuer = decodeIssuer(token)
      if (issuer === undefined) return setError(res, 'invalid_request', 'The Security Event Token cannot be decoded.')
      // RFC 8935 §2.4: no issuer is trusted on this host, so no SET can be verified.
      setError(res, 'invalid_issuer', 'This host trusts no Security Event Token issuers.')
    },
  )
  // Failures of the body parser on the event endpoint keep RFC 8935's error shape.
  const eventErrors: ErrorRequestHandler = (err, req, res, next) => {
    if (req.path !== '/agent/event/notify' || res.headersSent) return next(err)
    setError(res, 'invalid_request', (err as { status?: number }).status === 413 ? 'The Security Event Token is too large.' : 'The body could not be read.')
  }
  router.use(eventErrors)
  return router
}

/** RFC 8935 §2.4 error response: 400 with `err` and `description`. */
function setError(res: express.Response, err: string, description: string): void {
  res.status(400).json({ err, description })
}

function decodeIssuer(token: string): string | null | undefined {
  try {
    const [header, payload] = token.split('.')
    JSON.parse(Buffer.from(header!, 'base64url').toString('utf8'))
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { iss?: unknown }
    return typeof claims.iss === 'string' ? claims.iss : null
  } catch {
    return undefined
  }
}
