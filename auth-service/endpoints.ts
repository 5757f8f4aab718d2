import { authorize } from './routes/authorize.ts'
import { claimIdentity } from './routes/claim-identity.ts'
import { createApiKey } from './routes/create-api-key.ts'
import { decideAuthorization } from './routes/decide-authorization.ts'
import { exchangeToken } from './routes/exchange-token.ts'
import { getApiCatalog } from './routes/get-api-catalog.ts'
import { getCatalog } from './routes/get-catalog.ts'
import { getAiCatalog, getMcpServerCard, getMcpServerCardWellKnown } from './mcp/server-card-reads.ts'
import { getOpenApi } from './routes/get-openapi.ts'
import { getPost } from './routes/get-post.ts'
import { listPosts } from './routes/list-posts.ts'
import { mcp } from './mcp/endpoint.ts'
import { OAI_PATH, oaiGet, oaiPost } from './routes/oai.ts'
import { receiveSecurityEvent } from './routes/receive-security-event.ts'
import { registerClient } from './routes/register-client.ts'
import { registerIdentity } from './routes/register-identity.ts'
import { revokeToken } from './routes/revoke-token.ts'
import { searchPosts } from './routes/search-posts.ts'
import {
  getAuthorizationServerMetadata,
  getJwks,
  getMcpProtectedResourceMetadata,
  getProtectedResourceMetadata,
  getProtectedResourceMetadataForPath,
} from './routes/well-known.ts'
import { MCP_PATH, RESOURCE_PATH, openApiPath, type Endpoint } from './http/endpoint.ts'

/**
 * The one endpoint table. The pipeline (http/pipeline.ts: routing, the 405s and their `Allow`,
 * credentials, scopes, budgets), the `/api/v1` catalog, the discovery documents and
 * `/openapi.json` all derive from it; adding an endpoint is one row here and one action module
 * (test/http/endpoints.test.ts holds them together).
 */
export const ENDPOINTS = [
  {
    operationId: 'getCatalog',
    method: 'GET',
    path: RESOURCE_PATH,
    kind: 'read',
    budget: 'reads',
    scope: 'research.read',
    action: getCatalog,
  },
  {
    operationId: 'listPosts',
    method: 'GET',
    path: '/api/v1/posts',
    kind: 'read',
    budget: 'reads',
    scope: 'research.read',
    action: listPosts,
  },
  {
    operationId: 'getPost',
    method: 'GET',
    path: '/api/v1/posts/:slug',
    kind: 'read',
    budget: 'reads',
    scope: 'research.read',
    action: getPost,
  },
  {
    operationId: 'searchPosts',
    method: 'GET',
    path: '/api/v1/search',
    kind: 'read',
    budget: 'reads',
    scope: 'research.search',
    action: searchPosts,
  },
  // Each POST is one JSON-RPC message, counted on the read budget; a tool may need more than research.read.
  {
    operationId: 'mcp',
    method: 'POST',
    path: MCP_PATH,
    kind: 'read',
    budget: 'reads',
    scope: 'research.read',
    action: mcp,
  },
  {
    operationId: 'createApiKey',
    method: 'POST',
    path: '/api/v1/keys',
    kind: 'credential',
    budget: 'keys',
    action: createApiKey,
  },
  {
    operationId: 'registerIdentity',
    method: 'POST',
    path: '/agent/identity',
    kind: 'credential',
    budget: 'identities',
    action: registerIdentity,
  },
  {
    operationId: 'claimIdentity',
    method: 'POST',
    path: '/agent/identity/claim',
    kind: 'credential',
    action: claimIdentity,
  },
  {
    operationId: 'exchangeToken',
    method: 'POST',
    path: '/oauth2/token',
    kind: 'credential',
    budget: 'tokens',
    action: exchangeToken,
  },
  { operationId: 'revokeToken', method: 'POST', path: '/oauth2/revoke', kind: 'credential', action: revokeToken },
  {
    operationId: 'authorize',
    method: 'GET',
    path: '/oauth2/authorize',
    kind: 'credential',
    page: true,
    action: authorize,
  },
  // The decision creates an anonymous identity: it draws on the identity budget.
  {
    operationId: 'decideAuthorization',
    method: 'POST',
    path: '/oauth2/authorize',
    kind: 'credential',
    budget: 'identities',
    page: true,
    action: decideAuthorization,
  },
  {
    operationId: 'registerClient',
    method: 'POST',
    path: '/oauth2/register',
    kind: 'credential',
    budget: 'clients',
    action: registerClient,
  },
  {
    operationId: 'receiveSecurityEvent',
    method: 'POST',
    path: '/agent/event/notify',
    kind: 'write',
    action: receiveSecurityEvent,
  },
  // The documents that describe the service are reads like the others, on the read budget
  // (OWASP API4:2023): each answer says what is left of it.
  {
    operationId: 'getProtectedResourceMetadata',
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    kind: 'read',
    budget: 'reads',
    action: getProtectedResourceMetadata,
  },
  {
    operationId: 'getProtectedResourceMetadataForPath',
    method: 'GET',
    path: '/.well-known/oauth-protected-resource/api/v1',
    kind: 'read',
    budget: 'reads',
    action: getProtectedResourceMetadataForPath,
  },
  {
    operationId: 'getMcpProtectedResourceMetadata',
    method: 'GET',
    path: `/.well-known/oauth-protected-resource${MCP_PATH}`,
    kind: 'read',
    budget: 'reads',
    action: getMcpProtectedResourceMetadata,
  },
  {
    operationId: 'getAuthorizationServerMetadata',
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    kind: 'read',
    budget: 'reads',
    action: getAuthorizationServerMetadata,
  },
  {
    operationId: 'getJwks',
    method: 'GET',
    path: '/.well-known/jwks.json',
    kind: 'read',
    budget: 'reads',
    action: getJwks,
  },
  {
    operationId: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    kind: 'read',
    budget: 'reads',
    action: getOpenApi,
  },
  {
    operationId: 'getApiCatalog',
    method: 'GET',
    path: '/.well-known/api-catalog',
    kind: 'read',
    budget: 'reads',
    action: getApiCatalog,
  },
  {
    operationId: 'getMcpServerCard',
    method: 'GET',
    path: `${MCP_PATH}/server-card`,
    kind: 'read',
    budget: 'reads',
    action: getMcpServerCard,
  },
  {
    operationId: 'getMcpServerCardWellKnown',
    method: 'GET',
    path: '/.well-known/mcp/server-card.json',
    kind: 'read',
    budget: 'reads',
    action: getMcpServerCardWellKnown,
  },
  {
    operationId: 'getAiCatalog',
    method: 'GET',
    path: '/.well-known/ai-catalog.json',
    kind: 'read',
    budget: 'reads',
    action: getAiCatalog,
  },
  // OAI-PMH 2.0: public reads by GET or POST (§3.1.1 of the protocol), on the read budget.
  { operationId: 'getOai', method: 'GET', path: OAI_PATH, kind: 'read', budget: 'reads', action: oaiGet },
  { operationId: 'postOai', method: 'POST', path: OAI_PATH, kind: 'read', budget: 'reads', action: oaiPost },
] as const satisfies readonly Endpoint[]

/** The absolute URL of every endpoint, by operationId (templates keep their `{name}`). */
export function endpointUrls(baseUrl: string): (operationId: string) => string {
  const urls = new Map<string, string>(ENDPOINTS.map((e) => [e.operationId, `${baseUrl}${openApiPath(e.path)}`]))
  return (operationId) => {
    const url = urls.get(operationId)
    if (url === undefined) throw new Error(`No endpoint has the operationId "${operationId}".`)
    return url
  }
}
