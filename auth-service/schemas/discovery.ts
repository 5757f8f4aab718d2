/**
 * The schemas of what describes the service to its clients: the API catalog, the OAuth metadata
 * documents (RFC 9728, RFC 8414), the signing keys, the linkset, the MCP server card and the
 * JSON-RPC envelope of MCP.
 */
import { GRANTS, ID_JAG, SCOPES } from '../auth/policy.ts'
import { LINE_MAX, OWN_LIST_MAX, constant, list, oneOf, text, uri } from './shared.ts'

const line = text(LINE_MAX)
const scopes = list(oneOf(SCOPES), SCOPES.length)
const grants = list(oneOf(Object.values(GRANTS)), Object.values(GRANTS).length)
/** base64url of a P-256 coordinate: 32 bytes, 43 characters (RFC 7518 §6.2.1.2). */
const coordinate = { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$', maxLength: 43 } as const

export const DISCOVERY_SCHEMAS = {
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
      name: line,
      version: line,
      base_url: uri,
      endpoints: {
        type: 'array',
        maxItems: OWN_LIST_MAX,
        items: {
          type: 'object',
          properties: {
            method: oneOf(['GET', 'POST']),
            path: line,
            url: { ...uri, format: 'uri-template' },
            description: line,
          },
          required: ['method', 'path', 'url', 'description'],
        },
      },
      links: { type: 'object', additionalProperties: uri },
    },
    required: ['endpoints'],
  },
  ProtectedResourceMetadata: {
    type: 'object',
    properties: {
      resource: uri,
      authorization_servers: list(uri, 1),
      scopes_supported: scopes,
      bearer_methods_supported: list(constant('header'), 1),
      resource_name: line,
      resource_logo_uri: uri,
      resource_documentation: uri,
    },
    required: [
      'resource',
      'authorization_servers',
      'scopes_supported',
      'bearer_methods_supported',
      'resource_name',
      'resource_logo_uri',
    ],
  },
  AuthorizationServerMetadata: {
    type: 'object',
    properties: {
      issuer: uri,
      authorization_endpoint: uri,
      token_endpoint: uri,
      registration_endpoint: uri,
      revocation_endpoint: uri,
      jwks_uri: uri,
      scopes_supported: scopes,
      response_types_supported: list(constant('code'), 1),
      response_modes_supported: list(constant('query'), 1),
      grant_types_supported: grants,
      code_challenge_methods_supported: list(constant('S256'), 1),
      authorization_response_iss_parameter_supported: { type: 'boolean' },
      client_id_metadata_document_supported: { type: 'boolean' },
      token_endpoint_auth_methods_supported: list(constant('none'), 1),
      revocation_endpoint_auth_methods_supported: list(constant('none'), 1),
      identity_types_supported: {
        type: 'array',
        maxItems: OWN_LIST_MAX,
        items: {
          type: 'object',
          properties: { type: line, assertion_types_supported: list(constant(ID_JAG), 1) },
          required: ['type'],
        },
      },
      agent_auth: {
        type: 'object',
        properties: { skill: uri, identity_endpoint: uri, claim_endpoint: uri, events_endpoint: uri },
        required: ['skill', 'identity_endpoint', 'claim_endpoint', 'events_endpoint'],
      },
    },
    required: [
      'issuer',
      'authorization_endpoint',
      'token_endpoint',
      'registration_endpoint',
      'revocation_endpoint',
      'response_types_supported',
      'grant_types_supported',
      'code_challenge_methods_supported',
      'identity_types_supported',
      'agent_auth',
    ],
  },
  ServerCard: {
    type: 'object',
    description:
      'MCP server card (experimental extension, SEP-2127): identity, remote endpoints and their protocol versions; ' +
      'the tools and the authorization accepted in `_meta`.',
    properties: {
      $schema: uri,
      name: { ...line, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
      version: line,
      title: line,
      description: { type: 'string', maxLength: 100 },
      websiteUrl: uri,
      remotes: {
        type: 'array',
        maxItems: OWN_LIST_MAX,
        items: {
          type: 'object',
          properties: {
            type: oneOf(['streamable-http', 'sse']),
            url: uri,
            supportedProtocolVersions: list(line, OWN_LIST_MAX),
          },
          required: ['type', 'url'],
        },
      },
      _meta: { type: 'object' },
    },
    required: ['$schema', 'name', 'version', 'description'],
  },
  Linkset: {
    type: 'object',
    description: 'RFC 9264 §4.2 linkset: per link context (anchor), its links by relation type.',
    properties: {
      linkset: {
        type: 'array',
        maxItems: OWN_LIST_MAX,
        items: {
          type: 'object',
          properties: { anchor: uri },
          required: ['anchor'],
          additionalProperties: list(
            { type: 'object', properties: { href: uri, type: line, title: line }, required: ['href'] },
            OWN_LIST_MAX,
          ),
        },
      },
    },
    required: ['linkset'],
  },
  JWKS: {
    type: 'object',
    properties: {
      keys: {
        type: 'array',
        maxItems: OWN_LIST_MAX,
        items: {
          type: 'object',
          properties: {
            kty: constant('EC'),
            crv: constant('P-256'),
            x: coordinate,
            y: coordinate,
            // An RFC 7638 thumbprint: SHA-256, base64url.
            kid: coordinate,
            alg: constant('ES256'),
            use: constant('sig'),
          },
          required: ['kty', 'crv', 'x', 'y', 'kid'],
          not: { required: ['d'] },
        },
      },
    },
    required: ['keys'],
  },
} as const
