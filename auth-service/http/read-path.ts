/** The request as a read sees it: path parameters and the parsed query (REST and MCP tools alike). */
export interface ReadInput {
  params: Readonly<Record<string, string>>
  query: Readonly<Record<string, unknown>>
}
