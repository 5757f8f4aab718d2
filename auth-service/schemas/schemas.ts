import { ARTICLE_SCHEMAS } from './articles.ts'
import { CREDENTIAL_SCHEMAS } from './credentials.ts'
import { DISCOVERY_SCHEMAS } from './discovery.ts'
import { ERROR_SCHEMAS } from './errors.ts'

/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of every body the service sends, in the order
 * the document lists them.
 */
export const SCHEMAS = {
  Post: ARTICLE_SCHEMAS.Post,
  PostDetail: ARTICLE_SCHEMAS.PostDetail,
  PostComplete: ARTICLE_SCHEMAS.PostComplete,
  PostDetailComplete: ARTICLE_SCHEMAS.PostDetailComplete,
  PostList: ARTICLE_SCHEMAS.PostList,
  SearchResult: ARTICLE_SCHEMAS.SearchResult,
  JsonRpcMessage: DISCOVERY_SCHEMAS.JsonRpcMessage,
  McpRefusal: DISCOVERY_SCHEMAS.McpRefusal,
  Catalog: DISCOVERY_SCHEMAS.Catalog,
  ApiKey: CREDENTIAL_SCHEMAS.ApiKey,
  Error: ERROR_SCHEMAS.Error,
  EventError: ERROR_SCHEMAS.EventError,
  IdentityRequest: CREDENTIAL_SCHEMAS.IdentityRequest,
  IdentityRegistration: CREDENTIAL_SCHEMAS.IdentityRegistration,
  TokenRequest: CREDENTIAL_SCHEMAS.TokenRequest,
  TokenResponse: CREDENTIAL_SCHEMAS.TokenResponse,
  RevocationRequest: CREDENTIAL_SCHEMAS.RevocationRequest,
  ClientMetadata: CREDENTIAL_SCHEMAS.ClientMetadata,
  ClientInformation: CREDENTIAL_SCHEMAS.ClientInformation,
  AuthorizationDecision: CREDENTIAL_SCHEMAS.AuthorizationDecision,
  KeyRequest: CREDENTIAL_SCHEMAS.KeyRequest,
  ProtectedResourceMetadata: DISCOVERY_SCHEMAS.ProtectedResourceMetadata,
  AuthorizationServerMetadata: DISCOVERY_SCHEMAS.AuthorizationServerMetadata,
  ServerCard: DISCOVERY_SCHEMAS.ServerCard,
  Linkset: DISCOVERY_SCHEMAS.Linkset,
  JWKS: DISCOVERY_SCHEMAS.JWKS,
} as const
