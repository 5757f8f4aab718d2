/**
 * The developer portal's pages: an overview, then one page per part (keys, the agent flow, MCP,
 * the reference of each OpenAPI tag, the schemas), so that no page is the whole API at once. The
 * one place their addresses are spelled; the pages, their navigation and the reference's links
 * read them.
 */
export const PORTAL_PATH = '/developers'

/** A tag's reference page: the tag in lowercase words joined by hyphens. */
export const referencePath = (tag: string) =>
  `${PORTAL_PATH}/reference/${tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`

/** An operation's place: its tag's page, at its article. */
export const operationHref = (tag: string, operationId: string) => `${referencePath(tag)}#op-${operationId}`

export const SCHEMAS_PATH = `${PORTAL_PATH}/schemas`
/** A component schema's place on the schemas page. */
export const schemaHref = (name: string) => `${SCHEMAS_PATH}#schema-${name}`

/** The parts before the reference, and after it. */
export const PORTAL_PARTS = {
  before: [
    { path: PORTAL_PATH, label: 'Overview' },
    { path: `${PORTAL_PATH}/keys`, label: 'API keys' },
    { path: `${PORTAL_PATH}/agents`, label: 'Agent flow' },
    { path: `${PORTAL_PATH}/mcp`, label: 'MCP clients' },
  ],
  after: [{ path: SCHEMAS_PATH, label: 'Schemas' }],
} as const
