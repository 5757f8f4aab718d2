/**
 * The schemas of what describes the service to its clients: the API catalog, the OAuth metadata
 * documents (RFC 9728, RFC 8414), the signing keys, the linkset, the MCP server card and the
 * JSON-RPC envelope of MCP.
 */
import { constant, oneOf, str, uri } from './shared.ts'

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
      name: str,
      version: str,
      base_url: uri,
      endpoints: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            method: oneOf(['GET', 'POST']),
            path: str,
            url: { type: 'string', format: 'uri-template' },
            description: str,
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
      authorization_servers: { type: 'array', items: uri },
      scopes_supported: { type: 'array', items: str },
      bearer_methods_supported: { type: 'array', items: constant('header') },
      resource_name: str,
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
      scopes_supported: { type: 'array', items: str },
      response_types_supported: { type: 'array', items: constant('code') },
      response_modes_supported: { type: 'array', items: str },
      grant_types_supported: { type: 'array', items: str },
      code_challenge_methods_supported: { type: 'array', items: constant('S256') },
      authorization_response_iss_parameter_supported: { type: 'boolean' },
      client_id_metadata_document_supported: { type: 'boolean' },
      token_endpoint_auth_methods_supported: { type: 'array', items: str },
      revocation_endpoint_auth_methods_supported: { type: 'array', items: str },
      identity_types_supported: {
        type: 'array',
        items: {
          type: 'object',
          properties: { type: str, assertion_types_supported: { type: 'array', items: str } },
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
      name: { type: 'string', pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
      version: str,
      title: str,
      description: { type: 'string', maxLength: 100 },
      websiteUrl: uri,
      remotes: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            type: oneOf(['streamable-http', 'sse']),
            url: str,
            supportedProtocolVersions: { type: 'array', items: str },
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
        items: {
          type: 'object',
          properties: { anchor: uri },
          required: ['anchor'],
          additionalProperties: {
            type: 'array',
            items: { type: 'object', properties: { href: uri, type: str, title: str }, required: ['href'] },
          },
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
        items: {
          type: 'object',
          properties: {
            kty: constant('EC'),
            crv: constant('P-256'),
            x: str,
            y: str,
            kid: str,
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
