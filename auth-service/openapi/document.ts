import { SITE_PAGES } from '../routes/action.ts'
import { ENDPOINTS, MCP_PATH, RESOURCE_PATH, endpointUrls, openApiPath, type Endpoint } from '../routes/endpoints.ts'
import { COMMON, RATE_LIMIT_HEADERS, type Json } from '../routes/openapi-parts.ts'
import { SCHEMAS } from './schemas.ts'

const optionalBearer = [{}, { bearer: [] }]

/** What any operation may answer, less 413: an operation that takes no body refuses no body as too large. */
const BODILESS_COMMON: Json = Object.fromEntries(Object.entries(COMMON).filter(([status]) => status !== '413'))

/** The responses with these headers added to each. */
function withHeaders(responses: Json, headers: Json): Json {
  if (Object.keys(headers).length === 0) return responses
  return Object.fromEntries(
    Object.entries(responses).map(([status, r]) => [
      status,
      { ...(r as Json), headers: { ...((r as Json).headers as Json), ...headers } },
    ]),
  )
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
    const responses = withHeaders({ ...common, ...(operation.responses as Json) }, budgeted ? RATE_LIMIT_HEADERS : {})
    // Everything under a protected resource takes an optional bearer credential (docs/api.md#the-api, docs/mcp.md).
    const security = protectedResource ? optionalBearer : []
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
    servers: [{ url: baseUrl }],
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
            'An access token from the agent flow (a JWT) or an API key (lat_live_…). Optional on every read.',
        },
      },
    },
  }
}
