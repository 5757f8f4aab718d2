import { GRANTS, LIFETIMES, SCOPES } from '../auth/policy.ts'
import { LIMITS } from '../routes/posts.ts'
import { SCHEMAS } from './schemas.ts'

type Json = Record<string, unknown>

const ref = (name: keyof typeof SCHEMAS) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: Json, example?: unknown) => ({
  'application/json': { schema, ...(example === undefined ? {} : { example }) },
})
const error = (description: string, codes: string[]) => ({
  description,
  content: json(ref('Error'), { error: codes[0], error_description: 'What to fix, in one sentence.' }),
})
const cachedRead = {
  ETag: { description: 'Validator for conditional requests (If-None-Match).', schema: { type: 'string' } },
  'Last-Modified': { description: 'Validator for If-Modified-Since.', schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string' } },
}
const noStore = { 'Cache-Control': { schema: { const: 'no-store' } } }

const READ_ERRORS = {
  '304': { description: 'Not modified: the copy named by If-None-Match or If-Modified-Since is current.' },
  '401': {
    ...error('The bearer credential is invalid, expired or revoked.', ['invalid_token']),
    headers: { 'WWW-Authenticate': { description: 'Bearer error="invalid_token", resource_metadata="…"', schema: { type: 'string' } } },
  },
  '403': error('The token lacks the scope this call needs.', ['insufficient_scope']),
  '503': error('Temporarily unavailable; retry after Retry-After seconds.', ['temporarily_unavailable']),
}
const limitParam = (bounds: { min: number; max: number; fallback: number }) => ({
  name: 'limit',
  in: 'query',
  required: false,
  description: `How many posts, ${bounds.min} to ${bounds.max}. Anything else is a 400 invalid_request.`,
  schema: { type: 'integer', minimum: bounds.min, maximum: bounds.max, default: bounds.fallback },
})
const optionalBearer = [{}, { bearer: [] }]
/** Answers any operation may give: a body too large, or an unexpected failure. */
const COMMON = {
  '413': error('The body is too large.', ['payload_too_large']),
  '429': {
    ...error('Too many requests from this client; the RateLimit headers give the budget.', ['rate_limited']),
    headers: {
      'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
      RateLimit: { description: 'Remaining quota (IETF RateLimit header fields, draft 8).', schema: { type: 'string' } },
      'RateLimit-Policy': { schema: { type: 'string' } },
    },
  },
  default: error('Any other error, in the same shape (500 server_error: retry with backoff).', ['server_error']),
}
const SAMPLE_POST = {
  slug: 'tail-latency-in-fan-out-services',
  title: 'Tail Latency in Fan-Out Services: Why p99 Becomes the Median',
  description: 'Fan-out multiplies tail latency.',
  date: '2025-07-09',
  lastModified: '2025-08-01T14:20:00.000Z',
  author: 'Jonas Lindqvist',
  tags: ['distributed-systems', 'performance'],
  url: 'https://research.example.org/posts/tail-latency-in-fan-out-services',
  markdown_url: 'https://research.example.org/posts/tail-latency-in-fan-out-services.md',
  image: 'https://research.example.org/images/default-cover.svg',
}

/**
 * The OpenAPI 3.1 description of every endpoint, built from the same constants the routes use
 * (limits, scopes, grants, error codes), so the description cannot drift from the code.
 */
export function buildOpenApiDocument(baseUrl: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lattice Research API',
      version: '1.0.0',
      summary: 'Research articles as JSON: list, fetch and search; API keys and an OAuth agent flow.',
      description:
        'Every read is public. A bearer credential (an API key from POST /api/v1/keys, or an access token from the agent flow described in /auth.md) is optional and only identifies the caller. Errors are `{"error": code, "error_description": text}`.',
    },
    servers: [{ url: baseUrl }],
    externalDocs: { description: 'The agent guide', url: `${baseUrl}/auth.md` },
    tags: [
      { name: 'Articles', description: 'Public reads.' },
      { name: 'Keys', description: 'Self-serve API keys.' },
      { name: 'Agents', description: 'Agent registration and OAuth token flow.' },
      { name: 'Discovery', description: 'Metadata documents.' },
    ],
    paths: withCommonResponses({
      '/api/v1': {
        get: {
          operationId: 'getCatalog', tags: ['Articles'], summary: 'Catalog of the public endpoints', security: optionalBearer,
          responses: { '200': { description: 'The catalog.', headers: cachedRead, content: json(ref('Catalog')) }, ...READ_ERRORS },
        },
      },
      '/api/v1/posts': {
        get: {
          operationId: 'listPosts', tags: ['Articles'], summary: 'List articles, newest first', security: optionalBearer,
          parameters: [limitParam(LIMITS.posts)],
          responses: {
            '200': { description: 'The newest posts.', headers: cachedRead, content: json(ref('PostList'), { posts: [SAMPLE_POST] }) },
            '400': error('A bad limit.', ['invalid_request']),
            ...READ_ERRORS,
          },
        },
      },
      '/api/v1/posts/{slug}': {
        get: {
          operationId: 'getPost', tags: ['Articles'], summary: 'Fetch one article with its markdown', security: optionalBearer,
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' }, example: SAMPLE_POST.slug }],
          responses: {
            '200': { description: 'The article.', headers: cachedRead, content: json(ref('PostDetail'), { ...SAMPLE_POST, markdown: '## Question\n\n…' }) },
            '404': error('No article has this slug.', ['not_found']),
            ...READ_ERRORS,
          },
        },
      },
      '/api/v1/search': {
        get: {
          operationId: 'searchPosts', tags: ['Articles'], summary: 'Search articles by keywords', security: optionalBearer,
          description:
            'Ranked keyword search over title, tags and description: more matched words first, then title over tags over description, then newest. Case- and accent-insensitive; the last word also matches as a prefix. Needs the research.search scope when a token is sent.',
          parameters: [
            { name: 'q', in: 'query', required: true, description: 'Keywords.', schema: { type: 'string', minLength: 1, maxLength: LIMITS.queryLength }, example: 'tail latency' },
            limitParam(LIMITS.search),
          ],
          responses: {
            '200': { description: 'Ranked matches.', headers: cachedRead, content: json(ref('SearchResult'), { query: 'tail latency', posts: [SAMPLE_POST] }) },
            '400': error('q is missing or blank, or limit is out of range.', ['invalid_request']),
            ...READ_ERRORS,
          },
        },
      },
      '/api/v1/keys': {
        post: {
          operationId: 'createApiKey', tags: ['Keys'], summary: 'Issue an API key', security: optionalBearer,
          description: `The body is optional. The key is shown once, expires after ${LIFETIMES.apiKey} seconds, and carries ${SCOPES.join(' and ')}.`,
          requestBody: {
            required: false,
            content: {
              'application/json': { schema: ref('KeyRequest'), example: { label: 'nightly crawler' } },
              'application/x-www-form-urlencoded': { schema: ref('KeyRequest') },
            },
          },
          responses: {
            '201': {
              description: 'The new key.', headers: noStore,
              content: json(ref('ApiKey'), { key: 'lat_live_…', prefix: 'lat_live_Ab3dE9xQ', token_type: 'Bearer', scopes: [...SCOPES], expires_in: LIFETIMES.apiKey, label: 'nightly crawler' }),
            },
            '400': error('A label that is not a short string, or a malformed body.', ['invalid_request']),
            '401': READ_ERRORS['401'],
            '415': error('The body is neither JSON nor a form.', ['unsupported_media_type']),
            '503': READ_ERRORS['503'],
          },
        },
      },
      '/agent/identity': {
        post: {
          operationId: 'registerIdentity', tags: ['Agents'], summary: 'Register an agent identity', security: [],
          requestBody: { required: true, content: json(ref('IdentityRequest'), { type: 'anonymous' }) },
          responses: {
            '200': { description: 'An anonymous identity.', headers: noStore, content: json(ref('IdentityRegistration')) },
            '400': error('invalid_request for a malformed body; anonymous_not_enabled, issuer_not_enabled or service_auth_not_enabled for a method that is off.', [
              'invalid_request', 'anonymous_not_enabled', 'issuer_not_enabled', 'service_auth_not_enabled',
            ]),
            '503': READ_ERRORS['503'],
          },
        },
      },
      '/agent/identity/claim': {
        post: {
          operationId: 'claimIdentity', tags: ['Agents'], summary: 'Claim ceremony (never completed on this host)', security: [],
          requestBody: {
            required: false,
            content: {
              'application/json': { schema: { type: 'object', properties: { claim_token: { type: 'string' } } } },
              'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { claim_token: { type: 'string' } } } },
            },
          },
          responses: { '400': error('Always claimed_or_in_flight: exchange the identity_assertion instead.', ['claimed_or_in_flight', 'invalid_request']) },
        },
      },
      '/oauth2/token': {
        post: {
          operationId: 'exchangeToken', tags: ['Agents'], summary: 'Token endpoint (jwt-bearer and claim grants)', security: [],
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': {
                schema: ref('TokenRequest'),
                example: { grant_type: GRANTS.jwtBearer, assertion: '<identity_assertion>', resource: `${baseUrl}/api/v1` },
              },
            },
          },
          responses: {
            '200': { description: 'An access token (RFC 6749 §5.1).', headers: noStore, content: json(ref('TokenResponse')) },
            '400': error('RFC 6749 §5.2 errors.', [
              'invalid_request', 'invalid_grant', 'invalid_target', 'invalid_scope', 'unsupported_grant_type', 'authorization_pending',
            ]),
            '503': READ_ERRORS['503'],
          },
        },
      },
      '/oauth2/revoke': {
        post: {
          operationId: 'revokeToken', tags: ['Agents'], summary: 'Revoke an access token, API key or identity_assertion (RFC 7009)', security: [],
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('RevocationRequest') } } },
          responses: {
            '200': { description: 'Revoked, or nothing to revoke: the answer is the same.' },
            '400': error('The token parameter is missing.', ['invalid_request']),
            '503': READ_ERRORS['503'],
          },
        },
      },
      '/agent/event/notify': {
        post: {
          operationId: 'receiveSecurityEvent', tags: ['Agents'], summary: 'Security Event Token receiver (RFC 8935); clients do not call it', security: [],
          requestBody: { required: true, content: { 'application/secevent+jwt': { schema: { type: 'string' } } } },
          responses: {
            '400': {
              description: 'Every SET is refused: no issuer is trusted on this host.',
              content: json(ref('EventError'), { err: 'invalid_issuer', description: 'This host trusts no Security Event Token issuers.' }),
            },
            default: { description: 'Any other error, in the RFC 8935 shape.', content: json(ref('EventError')) },
          },
        },
      },
      '/.well-known/oauth-protected-resource': {
        get: {
          operationId: 'getProtectedResourceMetadata', tags: ['Discovery'], summary: 'Protected resource metadata (RFC 9728)', security: [],
          responses: { '200': { description: 'The metadata.', content: json(ref('ProtectedResourceMetadata')) }, '304': READ_ERRORS['304'] },
        },
      },
      '/.well-known/oauth-protected-resource/api/v1': {
        get: {
          operationId: 'getProtectedResourceMetadataForPath', tags: ['Discovery'], summary: 'The same metadata at the RFC 9728 path-suffixed address', security: [],
          responses: { '200': { description: 'The metadata.', content: json(ref('ProtectedResourceMetadata')) }, '304': READ_ERRORS['304'] },
        },
      },
      '/.well-known/oauth-authorization-server': {
        get: {
          operationId: 'getAuthorizationServerMetadata', tags: ['Discovery'], summary: 'Authorization server metadata (RFC 8414)', security: [],
          responses: { '200': { description: 'The metadata.', content: json(ref('AuthorizationServerMetadata')) }, '304': READ_ERRORS['304'] },
        },
      },
      '/.well-known/jwks.json': {
        get: {
          operationId: 'getJwks', tags: ['Discovery'], summary: 'The public keys that verify the service’s tokens', security: [],
          responses: { '200': { description: 'The JWK set.', content: json(ref('JWKS')) }, '304': READ_ERRORS['304'] },
        },
      },
    }),
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token from the agent flow (a JWT) or an API key (lat_live_…). Optional on every read.',
        },
      },
    },
  }
}

/** Adds the answers every operation can give, keeping any an operation documents itself. */
function withCommonResponses(paths: Record<string, Record<string, Json & { responses: Json }>>) {
  for (const ops of Object.values(paths))
    for (const op of Object.values(ops)) op.responses = { ...COMMON, ...op.responses }
  return paths
}
