/**
 * The Last-Modified of the service's own documents (catalogs, discovery, OpenAPI): they change
 * only with the deployment, so they date from when this process started, the same for every app
 * it builds.
 */
export const DOCUMENTS_MODIFIED_MS = Date.now()

/** Pages of the static site that the API's documents link to. */
export const SITE_PAGES = {
  /** The step-by-step guide for agents. */
  guide: '/auth.md',
  claim: '/claim',
  developers: '/developers',
  llms: '/llms.txt',
  logo: '/favicon.svg',
} as const

/** The service's name, title and version, as MCP's serverInfo and OAI-PMH's Identify give them. */
export const SERVER_INFO = { name: 'lattice-research', title: 'Lattice Research', version: '1.0.0' } as const

/** The media type of the MCP server card (mcp/server-card.ts), which the API catalog links to. */
export const SERVER_CARD_TYPE = 'application/mcp-server-card+json'
