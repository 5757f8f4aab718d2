import { Router } from 'express'
import { prepareBody, type PreparedBody } from '../articles/post-index.ts'
import { sendPrepared } from '../http/conditional.ts'
import { GRANTS, ID_JAG, SCOPES } from '../auth/policy.ts'
import type { SigningKey } from '../auth/signing-key.ts'

/** Every URL the discovery documents name, derived from BASE_URL alone. */
export function endpoints(baseUrl: string) {
  return {
    issuer: baseUrl,
    resource: `${baseUrl}/api/v1`,
    resourceMetadata: `${baseUrl}/.well-known/oauth-protected-resource`,
    authorizationServerMetadata: `${baseUrl}/.well-known/oauth-authorization-server`,
    jwks: `${baseUrl}/.well-known/jwks.json`,
    token: `${baseUrl}/oauth2/token`,
    revocation: `${baseUrl}/oauth2/revoke`,
    identity: `${baseUrl}/agent/identity`,
    claim: `${baseUrl}/agent/identity/claim`,
    events: `${baseUrl}/agent/event/notify`,
    skill: `${baseUrl}/auth.md`,
    claimPage: `${baseUrl}/claim`,
    docs: `${baseUrl}/developers`,
  }
}

export function protectedResourceMetadata(baseUrl: string) {
  const e = endpoints(baseUrl)
  return {
    resource: e.resource,
    authorization_servers: [e.issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Lattice Research API',
    resource_logo_uri: `${baseUrl}/favicon.svg`,
    resource_documentation: e.skill,
  }
}

export function authorizationServerMetadata(baseUrl: string) {
  const e = endpoints(baseUrl)
  const identityTypes = ['anonymous', 'identity_assertion', 'service_auth']
  return {
    issuer: e.issuer,
    token_endpoint: e.token,
    revocation_endpoint: e.revocation,
    jwks_uri: e.jwks,
    scopes_supported: [...SCOPES],
    response_types_supported: [],
    grant_types_supported: [GRANTS.jwtBearer, GRANTS.claim],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    service_documentation: e.skill,
    identity_types_supported: [
      { type: 'anonymous' },
      { type: 'identity_assertion', assertion_types_supported: [ID_JAG] },
      { type: 'service_auth' },
    ],
    agent_auth: {
      skill: e.skill,
      identity_endpoint: e.identity,
      claim_endpoint: e.claim,
      events_endpoint: e.events,
      identity_types_supported: identityTypes,
      identity_assertion: { assertion_types_supported: [ID_JAG] },
      events_supported: [],
    },
  }
}

/** RFC 9728 protected resource metadata, RFC 8414 authorization server metadata and the JWKS. */
export function wellKnownRouter(baseUrl: string, key: SigningKey): Router {
  const router = Router()
  const doc = (value: object): PreparedBody => prepareBody(JSON.stringify(value), Date.now())
  const prm = doc(protectedResourceMetadata(baseUrl))
  const asm = doc(authorizationServerMetadata(baseUrl))
  const jwks = doc({ keys: [key.publicJwk] })
  const cache = 'public, max-age=300'
  // RFC 9728 §3.1: the metadata of resource <origin>/api/v1 also lives at the path-suffixed URL.
  router.get(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/v1'], (req, res) =>
    sendPrepared(req, res, prm, cache),
  )
  router.get('/.well-known/oauth-authorization-server', (req, res) => sendPrepared(req, res, asm, cache))
  router.get('/.well-known/jwks.json', (req, res) => sendPrepared(req, res, jwks, cache))
  return router
}
