import { SITE_PAGES } from '../routes/documents.ts'
import { ENDPOINTS, endpointUrls } from '../endpoints.ts'
import { MCP_PATH, RESOURCE_PATH, openApiPath, type Endpoint } from '../http/endpoint.ts'
import type { Json } from '../http/action.ts'
import { COMMON, RATE_LIMIT_HEADERS } from '../routes/openapi-parts.ts'
import { API_CACHE_CONTROL, CREDENTIAL_CACHE_CONTROL } from '../http/conditional.ts'
import { CORS_HEADERS } from '../http/cors.ts'
import { RESPONSE_HEADERS } from './response-headers.ts'
import { SCHEMAS } from '../schemas/schemas.ts'

const optionalBearer = [{}, { bearer: [] }]
/**
 * Said outright rather than left out: the operations outside the protected resources take no
 * HTTP credential (they issue credentials, or read public documents); what authenticates a
 * token request or a security event travels in its body.
 */
const anonymous = [{}]
/** Every answer of the table's rows carries the CORS headers (http/pipeline.ts). */
const CORS = Object.fromEntries(Object.keys(CORS_HEADERS).map((name) => [name, {}]))

/** What any operation may answer, less 413: an operation that takes no body refuses no body as too large. */
const BODILESS_COMMON: Json = Object.fromEntries(Object.entries(COMMON).filter(([status]) => status !== '413'))

/**
 * The responses with these headers added to each, and every header's schema: its own when it
 * names one value (`const`), a read's Cache-Control, or RESPONSE_HEADERS'.
 */
function withHeaders(responses: Json, headers: Json, cacheControl: string | undefined): Json {
  const schemaOf = (name: string, header: Json): Json => {
    const own = header.schema as Json | undefined
    if (own && 'const' in own) return own
    // A read's caching (http/conditional.ts): its action's, or private to a request with a credential.
    if (name === 'Cache-Control')
      return { type: 'string', enum: [cacheControl ?? API_CACHE_CONTROL, CREDENTIAL_CACHE_CONTROL] }
    const schema = RESPONSE_HEADERS[name]
    if (!schema) throw new Error(`The header ${name} has no schema in RESPONSE_HEADERS.`)
    return schema
  }
  return Object.fromEntries(
    Object.entries(responses).map(([status, r]) => {
      const all = { ...headers, ...((r as Json).headers as Json) }
      const declared = Object.fromEntries(
        Object.entries(all).map(([name, h]) => [name, { ...(h as Json), schema: schemaOf(name, h as Json) }]),
      )
      return [status, { ...(r as Json), headers: declared }]
    }),
  )
}

/** A server on a loopback address is a local one (npm start, a test); any other origin is production. */
function environmentOf(baseUrl: string): string {
  const host = new URL(baseUrl).hostname
  const local = host === 'localhost' || host === '[::1]' || host.startsWith('127.')
  return local ? 'The local server (npm start) at this origin.' : 'The production server at this origin.'
}

/** The HEAD twin of a GET operation: its parameters and headers, no bodies. */
function headOf(get: Json): Json {
  const { content: _content, requestBody: _body, ...rest } = get
  const responses = Object.fromEntries(
    Object.entries(get.responses as Json).map(([status, r]) => {
      const { content: _c, ...response } = r as Json
      return [status, response]
    }),
  )
  return {
    ...rest,
    operationId: `${get.operationId as string}Head`,
    summary: `${get.summary as string} (headers only)`,
    responses,
  }
}

/**
 * The OpenAPI 3.1 description of every endpoint of the table, each operation written by its
 * action from the same constants the code uses (limits, scopes, grants, error codes), so the
 * description cannot drift from the code.
 */
export function buildOpenApiDocument(baseUrl: string): Json {
  const ctx = { baseUrl, url: endpointUrls(baseUrl) }
  const paths: Record<string, Record<string, Json>> = {}
  for (const e of ENDPOINTS as readonly Endpoint[]) {
    const operation = e.action.operation?.(ctx)
    if (!operation) continue
    const protectedResource = e.path.startsWith(RESOURCE_PATH) || e.path === MCP_PATH
    // Every answer of a budgeted operation (a read of a protected resource or on the read budget,
    // a write or a credential) carries the budget's headers.
    const budgeted = protectedResource || e.kind !== 'read' || e.budget === 'reads'
    const common = e.method === 'GET' ? BODILESS_COMMON : COMMON
    const responses = withHeaders(
      { ...common, ...(operation.responses as Json) },
      { ...CORS, ...(budgeted ? RATE_LIMIT_HEADERS : {}) },
      'cacheControl' in e.action ? e.action.cacheControl : undefined,
    )
    // Everything under a protected resource takes an optional bearer credential (docs/api.md#the-api, docs/mcp.md).
    const security = protectedResource ? optionalBearer : anonymous
    const ops = (paths[openApiPath(e.path)] ??= {})
    const described = {
      operationId: e.operationId,
      tags: operation.tags,
      summary: operation.summary,
      security,
      ...operation,
      responses,
    }
    ops[e.method.toLowerCase()] = described
    // HEAD is answered wherever GET is (RFC 9110 §9.3.2): the same headers, no body.
    if (e.method === 'GET') ops.head = headOf(described)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lattice Research API',
      version: '1.0.0',
      summary: 'Research articles as JSON: list, fetch and search; API keys and an OAuth agent flow.',
      description:
        'Every read is public. A bearer credential (an API key from ' +
        'POST /api/v1/keys, or an access token from the agent flow ' +
        'described in /auth.md) is optional and only identifies the ' +
        'caller. Errors are `{"error": code, "error_description": text}`.',
    },
    // OWASP API9:2023: the server's audience and environment, said outright.
    servers: [{ url: baseUrl, description: environmentOf(baseUrl), 'x-internal': false }],
    externalDocs: { description: 'The agent guide', url: `${baseUrl}${SITE_PAGES.guide}` },
    tags: [
      { name: 'Articles', description: 'Public reads.' },
      { name: 'Keys', description: 'Self-serve API keys.' },
      { name: 'Agents', description: 'Agent registration and OAuth token flow.' },
      { name: 'MCP', description: 'The Model Context Protocol endpoint: the same reads as tools and resources.' },
      { name: 'Discovery', description: 'Metadata documents.' },
    ],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'An access token from the agent flow (a JWT, verified as RFC8725 asks: one algorithm, ES256; ' +
            'an explicit typ; issuer, audience, key id and expiry checked) or an API key (lat_live_…). ' +
            'Optional on every read.',
        },
      },
    },
  }
}
