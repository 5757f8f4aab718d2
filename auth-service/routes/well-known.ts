import { prepareBody, type PreparedBody } from '../../post-index/post-index.ts'
import { GRANTS, ID_JAG, SCOPES } from '../auth/policy.ts'
import { documentResponses } from './openapi-parts.ts'
import type { ActionContext, ReadAction } from '../http/action.ts'
import { DOCUMENTS_MODIFIED_MS, SITE_PAGES } from './documents.ts'

/** Discovery documents change only with the deployment: cached for five minutes. */
const DOCUMENT_CACHE = 'public, max-age=300'

const IDENTITY_TYPES = ['anonymous', 'identity_assertion', 'service_auth'] as const

/** RFC 9728 protected resource metadata. */
function protectedResourceMetadata(ctx: Pick<ActionContext, 'baseUrl' | 'url'>) {
  return {
    resource: ctx.url('getCatalog'),
    authorization_servers: [ctx.baseUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Lattice Research API',
    resource_logo_uri: `${ctx.baseUrl}${SITE_PAGES.logo}`,
    resource_documentation: `${ctx.baseUrl}${SITE_PAGES.guide}`,
  }
}

/**
 * RFC 9728 metadata of the second protected resource, the MCP endpoint:
 * the same server and scopes, its own audience.
 */
function mcpProtectedResourceMetadata(ctx: Pick<ActionContext, 'baseUrl' | 'url'>) {
  return {
    ...protectedResourceMetadata(ctx),
    resource: ctx.url('mcp'),
    resource_name: 'Lattice Research MCP server',
    resource_documentation: `${ctx.baseUrl}${SITE_PAGES.guide}#mcp`,
  }
}

/** RFC 8414 authorization server metadata, with the agent_auth profile's fields. */
function authorizationServerMetadata(ctx: Pick<ActionContext, 'baseUrl' | 'url'>) {
  const guide = `${ctx.baseUrl}${SITE_PAGES.guide}`
  return {
    issuer: ctx.baseUrl,
    authorization_endpoint: ctx.url('authorize'),
    token_endpoint: ctx.url('exchangeToken'),
    registration_endpoint: ctx.url('registerClient'),
    revocation_endpoint: ctx.url('revokeToken'),
    jwks_uri: ctx.url('getJwks'),
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [GRANTS.jwtBearer, GRANTS.authorizationCode, GRANTS.refreshToken, GRANTS.claim],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    // RFC 9207: every authorization response names its issuer.
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: guide,
    identity_types_supported: [
      { type: 'anonymous' },
      { type: 'identity_assertion', assertion_types_supported: [ID_JAG] },
      { type: 'service_auth' },
    ],
    agent_auth: {
      skill: guide,
      identity_endpoint: ctx.url('registerIdentity'),
      claim_endpoint: ctx.url('claimIdentity'),
      events_endpoint: ctx.url('receiveSecurityEvent'),
      identity_types_supported: [...IDENTITY_TYPES],
      identity_assertion: { assertion_types_supported: [ID_JAG] },
      events_supported: [],
    },
  }
}

/** A read of a document prepared once per app. */
function document(summary: string, schema: string, build: (ctx: ActionContext) => object): ReadAction {
  return {
    cacheControl: DOCUMENT_CACHE,
    operation: () => ({ tags: ['Discovery'], summary, responses: documentResponses(schema) }),
    read(ctx) {
      const prepared: PreparedBody = prepareBody(JSON.stringify(build(ctx)), DOCUMENTS_MODIFIED_MS)
      return () => prepared
    },
  }
}

export const getProtectedResourceMetadata = document(
  'Protected resource metadata (RFC 9728)',
  'ProtectedResourceMetadata',
  protectedResourceMetadata,
)

/** RFC 9728 §3.1: the metadata of resource <origin>/api/v1 also lives at the path-suffixed URL. */
export const getProtectedResourceMetadataForPath = document(
  'The same metadata at the RFC 9728 path-suffixed address',
  'ProtectedResourceMetadata',
  protectedResourceMetadata,
)

/** RFC 9728 §3.1: the metadata of resource <origin>/mcp, at its path-inserted URL. */
export const getMcpProtectedResourceMetadata = document(
  'Protected resource metadata of the MCP endpoint (RFC 9728)',
  'ProtectedResourceMetadata',
  mcpProtectedResourceMetadata,
)

export const getAuthorizationServerMetadata = document(
  'Authorization server metadata (RFC 8414)',
  'AuthorizationServerMetadata',
  authorizationServerMetadata,
)

export const getJwks = document('The public keys that verify the service’s tokens', 'JWKS', (ctx) => ({
  keys: [ctx.signingKey.publicJwk],
}))
