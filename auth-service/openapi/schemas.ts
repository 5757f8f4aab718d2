import { z } from 'zod'
import { Post, PostDetail } from '../../model/article.ts'
import { API_KEY_PATTERN } from '../auth/api-keys.ts'
import { GRANTS, ID_JAG, SCOPES } from '../auth/policy.ts'
import { LABEL_MAX } from '../defaults.ts'
import { ERROR_CODES, EVENT_ERROR_CODES } from '../errors.ts'

const uri = { type: 'string', format: 'uri' } as const
const str = { type: 'string' } as const
/** `type` stands beside every `const` and `enum`, so that client generators type them as strings. */
const constant = (value: string) => ({ type: 'string', const: value }) as const
const oneOf = (values: readonly string[]) => ({ type: 'string', enum: [...values] }) as const

/** The wire Post and PostDetail, from the one article schema (model/article.ts). */
function fromZod(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' })
  return json
}

/** JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of every body the service sends. */
export const SCHEMAS = {
  Post: fromZod(Post),
  PostDetail: fromZod(PostDetail),
  PostList: {
    type: 'object',
    properties: { posts: { type: 'array', items: { $ref: '#/components/schemas/Post' } } },
    required: ['posts'],
    additionalProperties: false,
  },
  SearchResult: {
    type: 'object',
    properties: {
      query: { ...str, description: 'The query that was searched (trimmed).' },
      posts: { type: 'array', items: { $ref: '#/components/schemas/Post' }, description: 'Ranked matches.' },
    },
    required: ['query', 'posts'],
    additionalProperties: false,
  },
  JsonRpcMessage: {
    type: 'object',
    description: 'A JSON-RPC 2.0 message (MCP).',
    properties: { jsonrpc: constant('2.0') },
    required: ['jsonrpc'],
  },
  McpRefusal: { anyOf: [{ $ref: '#/components/schemas/Error' }, { $ref: '#/components/schemas/JsonRpcMessage' }] },
  Catalog: {
    type: 'object',
    properties: {
      name: str,
      version: str,
      base_url: uri,
      endpoints: {
        type: 'array',
        items: {
          type: 'object',
          properties: { method: oneOf(['GET', 'POST']), path: str, url: { type: 'string', format: 'uri-template' }, description: str },
          required: ['method', 'path', 'url', 'description'],
        },
      },
      links: { type: 'object', additionalProperties: uri },
    },
    required: ['endpoints'],
  },
  ApiKey: {
    type: 'object',
    properties: {
      key: { ...str, pattern: API_KEY_PATTERN, description: 'The secret key, shown only in this response. Send it as a bearer value.' },
      prefix: { ...str, description: 'The leading, non-secret part of the key, to recognise it later.' },
      token_type: constant('Bearer'),
      scopes: { type: 'array', items: oneOf(SCOPES) },
      expires_in: { type: 'integer', description: 'Seconds until the key expires.' },
      label: { type: ['string', 'null'], maxLength: LABEL_MAX, description: 'The label sent at issuance, or null.' },
    },
    required: ['key', 'prefix', 'token_type', 'scopes', 'expires_in', 'label'],
    additionalProperties: false,
  },
  Error: {
    type: 'object',
    description: 'Every error of the API, agent and OAuth endpoints (RFC 6749 §5.2 shape).',
    properties: {
      error: { ...oneOf(ERROR_CODES), description: 'A stable code to act on.' },
      error_description: { ...str, description: 'One sentence saying what to fix.' },
    },
    required: ['error', 'error_description'],
    additionalProperties: false,
  },
  EventError: {
    type: 'object',
    description: 'RFC 8935 §2.4 error of the Security Event Token receiver.',
    properties: {
      err: oneOf(EVENT_ERROR_CODES),
      description: str,
    },
    required: ['err', 'description'],
    additionalProperties: false,
  },
  IdentityRequest: {
    oneOf: [
      { type: 'object', properties: { type: constant('anonymous') }, required: ['type'] },
      {
        type: 'object',
        properties: { type: constant('identity_assertion'), assertion_type: constant(ID_JAG), assertion: str },
        required: ['type', 'assertion_type', 'assertion'],
      },
      { type: 'object', properties: { type: constant('service_auth'), login_hint: str }, required: ['type', 'login_hint'] },
    ],
  },
  IdentityRegistration: {
    type: 'object',
    properties: {
      registration_id: str,
      registration_type: constant('anonymous'),
      identity_assertion: { ...str, description: 'A JWT signed by this service; post it to the token endpoint as `assertion`.' },
      assertion_expires: { ...str, format: 'date-time' },
      expires_in: { type: 'integer', description: 'Seconds until the identity_assertion expires.' },
      scopes: { type: 'array', items: oneOf(SCOPES) },
      claim_token: { ...str, description: 'Returned once; only for the optional claim ceremony.' },
      claim_token_expires: { ...str, format: 'date-time' },
      claim_url: uri,
      token_endpoint: uri,
      resource: uri,
    },
    required: ['registration_id', 'registration_type', 'identity_assertion', 'claim_token'],
    additionalProperties: false,
  },
  TokenRequest: {
    type: 'object',
    properties: {
      grant_type: oneOf([GRANTS.jwtBearer, GRANTS.claim]),
      assertion: { ...str, description: 'The identity_assertion (jwt-bearer grant).' },
      resource: { ...uri, description: 'The protected resource the token is for (RFC 8707): {base_url}/api/v1 (the default) or {base_url}/mcp. The token is valid only there.' },
      scope: { ...str, description: 'Optional, space-separated subset of the scopes.' },
      claim_token: { ...str, description: 'The claim token (claim grant).' },
      client_id: { ...str, description: 'Accepted and ignored.' },
    },
    required: ['grant_type'],
  },
  TokenResponse: {
    type: 'object',
    properties: {
      access_token: { ...str, description: 'An RFC 9068 JWT (typ at+jwt).' },
      token_type: constant('Bearer'),
      expires_in: { type: 'integer' },
      scope: str,
    },
    required: ['access_token', 'token_type', 'expires_in', 'scope'],
    additionalProperties: false,
  },
  RevocationRequest: {
    type: 'object',
    properties: { token: str, token_type_hint: str, client_id: str },
    required: ['token'],
  },
  KeyRequest: {
    type: 'object',
    properties: { label: { type: ['string', 'null'], maxLength: LABEL_MAX } },
  },
  ProtectedResourceMetadata: {
    type: 'object',
    properties: {
      resource: uri,
      authorization_servers: { type: 'array', items: uri },
      scopes_supported: { type: 'array', items: str },
      bearer_methods_supported: { type: 'array', items: constant('header') },
      resource_name: str,
      resource_logo_uri: uri,
      resource_documentation: uri,
    },
    required: ['resource', 'authorization_servers', 'scopes_supported', 'bearer_methods_supported', 'resource_name', 'resource_logo_uri'],
  },
  AuthorizationServerMetadata: {
    type: 'object',
    properties: {
      issuer: uri,
      token_endpoint: uri,
      revocation_endpoint: uri,
      jwks_uri: uri,
      grant_types_supported: { type: 'array', items: str },
      token_endpoint_auth_methods_supported: { type: 'array', items: str },
      revocation_endpoint_auth_methods_supported: { type: 'array', items: str },
      identity_types_supported: {
        type: 'array',
        items: { type: 'object', properties: { type: str, assertion_types_supported: { type: 'array', items: str } }, required: ['type'] },
      },
      agent_auth: {
        type: 'object',
        properties: { skill: uri, identity_endpoint: uri, claim_endpoint: uri, events_endpoint: uri },
        required: ['skill', 'identity_endpoint', 'claim_endpoint', 'events_endpoint'],
      },
    },
    required: ['issuer', 'token_endpoint', 'revocation_endpoint', 'grant_types_supported', 'identity_types_supported', 'agent_auth'],
  },
  JWKS: {
    type: 'object',
    properties: {
      keys: {
        type: 'array',
        items: {
          type: 'object',
          properties: { kty: constant('EC'), crv: constant('P-256'), x: str, y: str, kid: str, alg: constant('ES256'), use: constant('sig') },
          required: ['kty', 'crv', 'x', 'y', 'kid'],
          not: { required: ['d'] },
        },
      },
    },
    required: ['keys'],
  },
} as const
