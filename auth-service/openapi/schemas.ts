import { z } from 'zod'
import { Post, PostDetail } from '../../model/article.ts'
import { API_KEY_PATTERN } from '../auth/api-keys.ts'
import { GRANTS, ID_JAG, SCOPES } from '../auth/policy.ts'
import { CLIENT_METADATA_LIMITS, FIELD_LIMITS, LABEL_MAX, type FieldName } from '../defaults.ts'
import { ERROR_CODES, EVENT_ERROR_CODES } from '../errors.ts'

const uri = { type: 'string', format: 'uri' } as const
const str = { type: 'string' } as const
/** `type` stands beside every `const` and `enum`, so that client generators type them as strings. */
const constant = (value: string) => ({ type: 'string', const: value }) as const
const oneOf = (values: readonly string[]) => ({ type: 'string', enum: [...values] }) as const
/** A request field, bounded as the code bounds it (FIELD_LIMITS). */
const field = (name: FieldName, extra: object = {}) =>
  ({ type: 'string', maxLength: FIELD_LIMITS[name], ...extra }) as const

const nextCursor = {
  type: ['string', 'null'],
  description: 'Pass as `cursor` to get the next page; null on the last page.',
} as const

/** The wire Post and PostDetail, from the one article schema (model/article.ts). */
function fromZod(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' })
  return json
}

/**
 * The contract declares no required field for Post (docs/api.md#the-openapi-document), so that
 * clients written to it tolerate a field they do not know being absent; the service always sends
 * every field, and says so with the `…Complete` schemas for clients that want the stricter type.
 */
function contractual(schema: z.ZodType, description: string, complete: string): Record<string, unknown> {
  const { required: _all, ...json } = fromZod(schema)
  return {
    ...json,
    description: `${description} No field is required by the contract; the service always sends every one (see ${complete}).`,
  }
}

/** JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of every body the service sends. */
export const SCHEMAS = {
  Post: contractual(Post, 'A published article.', 'PostComplete'),
  PostDetail: contractual(PostDetail, 'A Post with its markdown body.', 'PostDetailComplete'),
  PostComplete: {
    ...fromZod(Post),
    description: 'A Post as the service sends it: every field present (a stricter type than the contract’s Post).',
  },
  PostDetailComplete: {
    ...fromZod(PostDetail),
    description: 'A PostDetail as the service sends it: every field present.',
  },
  PostList: {
    type: 'object',
    properties: { posts: { type: 'array', items: { $ref: '#/components/schemas/Post' } }, next_cursor: nextCursor },
    required: ['posts'],
    additionalProperties: false,
  },
  SearchResult: {
    type: 'object',
    properties: {
      query: { ...str, description: 'The query that was searched (trimmed).' },
      posts: { type: 'array', items: { $ref: '#/components/schemas/Post' }, description: 'Ranked matches.' },
      next_cursor: nextCursor,
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
  ApiKey: {
    type: 'object',
    properties: {
      key: {
        ...str,
        pattern: API_KEY_PATTERN,
        description: 'The secret key, shown only in this response. Send it as a bearer value.',
      },
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
        properties: {
          type: constant('identity_assertion'),
          assertion_type: constant(ID_JAG),
          assertion: field('assertion'),
        },
        required: ['type', 'assertion_type', 'assertion'],
      },
      {
        type: 'object',
        properties: { type: constant('service_auth'), login_hint: field('login_hint') },
        required: ['type', 'login_hint'],
      },
    ],
  },
  IdentityRegistration: {
    type: 'object',
    properties: {
      registration_id: str,
      registration_type: constant('anonymous'),
      identity_assertion: {
        ...str,
        description: 'A JWT signed by this service; post it to the token endpoint as `assertion`.',
      },
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
      grant_type: oneOf([GRANTS.jwtBearer, GRANTS.authorizationCode, GRANTS.refreshToken, GRANTS.claim]),
      assertion: field('assertion', { description: 'The identity_assertion (jwt-bearer grant).' }),
      code: field('code', {
        description: 'The authorization code (authorization_code grant); single use, one minute.',
      }),
      code_verifier: field('code_verifier', {
        description: 'The PKCE verifier of the code_challenge (authorization_code grant).',
      }),
      redirect_uri: field('redirect_uri', {
        format: 'uri',
        description: 'The redirect_uri of the authorization request (authorization_code grant).',
      }),
      refresh_token: field('refresh_token', {
        description: 'The refresh token (refresh_token grant); each use returns a new one and retires this one.',
      }),
      resource: field('resource', {
        format: 'uri',
        description:
          'The protected resource the token is for (RFC 8707): {base_url}/api/v1 (the default) or {base_url}/mcp. The token is valid only there.',
      }),
      scope: field('scope', { description: 'Optional, space-separated subset of the scopes.' }),
      claim_token: field('claim_token', { description: 'The claim token (claim grant).' }),
      client_id: field('client_id', {
        description: 'The client (authorization_code and refresh_token grants); ignored by the jwt-bearer grant.',
      }),
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
      refresh_token: {
        ...str,
        description:
          'Issued by the authorization_code and refresh_token grants to clients registered for refresh_token; single use.',
      },
    },
    required: ['access_token', 'token_type', 'expires_in', 'scope'],
    additionalProperties: false,
  },
  RevocationRequest: {
    type: 'object',
    properties: { token: field('token'), token_type_hint: field('token_type_hint'), client_id: field('client_id') },
    required: ['token'],
  },
  ClientMetadata: {
    type: 'object',
    description: 'RFC 7591 §2 client metadata; fields not listed are ignored.',
    properties: {
      client_name: { ...str, maxLength: CLIENT_METADATA_LIMITS.clientName },
      redirect_uris: {
        type: 'array',
        minItems: 1,
        maxItems: CLIENT_METADATA_LIMITS.redirectUris,
        items: {
          ...uri,
          maxLength: CLIENT_METADATA_LIMITS.uriLength,
          description: 'https, or http on 127.0.0.1, [::1] or localhost (any port when used).',
        },
      },
      grant_types: {
        type: 'array',
        maxItems: CLIENT_METADATA_LIMITS.listItems,
        items: oneOf([GRANTS.authorizationCode, GRANTS.refreshToken]),
      },
      response_types: { type: 'array', maxItems: CLIENT_METADATA_LIMITS.listItems, items: constant('code') },
      token_endpoint_auth_method: constant('none'),
    },
    required: ['redirect_uris'],
  },
  ClientInformation: {
    type: 'object',
    properties: {
      client_id: str,
      client_id_issued_at: { type: 'integer' },
      client_name: str,
      redirect_uris: { type: 'array', items: uri },
      grant_types: { type: 'array', items: str },
      response_types: { type: 'array', items: constant('code') },
      token_endpoint_auth_method: constant('none'),
    },
    required: [
      'client_id',
      'client_id_issued_at',
      'redirect_uris',
      'grant_types',
      'response_types',
      'token_endpoint_auth_method',
    ],
    additionalProperties: false,
  },
  AuthorizationDecision: {
    type: 'object',
    properties: { transaction: field('transaction'), decision: oneOf(['approve', 'deny']) },
    required: ['transaction', 'decision'],
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
