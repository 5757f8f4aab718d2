import { SITE_PAGES } from '../routes/action.ts'
import { ENDPOINTS, MCP_PATH, RESOURCE_PATH, endpointUrls, openApiPath } from '../routes/endpoints.ts'
import { COMMON, type Json } from '../routes/openapi-parts.ts'
import { SCHEMAS } from './schemas.ts'

const optionalBearer = [{}, { bearer: [] }]

/**
 * The OpenAPI 3.1 description of every endpoint of the table, each operation written by its
 * action from the same constants the code uses (limits, scopes, grants, error codes), so the
 * description cannot drift from the code.
 */
export function buildOpenApiDocument(baseUrl: string): Json {
  const ctx = { baseUrl, url: endpointUrls(baseUrl) }
  const paths: Record<string, Record<string, Json>> = {}
  for (const e of ENDPOINTS) {
    const operation = e.action.operation?.(ctx)
    if (!operation) continue
    const responses = { ...COMMON, ...(operation.responses as Json) }
    // Everything under a protected resource takes an optional bearer credential (spec §5).
    const security = e.path.startsWith(RESOURCE_PATH) || e.path === MCP_PATH ? optionalBearer : []
    const ops = (paths[openApiPath(e.path)] ??= {})
    ops[e.method.toLowerCase()] = { operationId: e.operationId, tags: operation.tags, summary: operation.summary, security, ...operation, responses }
  }
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
          description: 'An access token from the agent flow (a JWT) or an API key (lat_live_…). Optional on every read.',
        },
      },
    },
  }
}
