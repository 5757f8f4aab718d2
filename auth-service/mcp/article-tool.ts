/** What an MCP tool of the articles is: one of the API's reads, offered to agents (tools.ts lists them). */
import type { PreparedBody } from '../../post-index/post-index.ts'
import type { Scope } from '../auth/policy.ts'

export type ObjectSchema = {
  type: 'object'
  properties?: Record<string, object>
  required?: string[]
  [key: string]: unknown
}

/** An MCP tool that is one of the API's reads, answering what the REST endpoint answers. */
export interface ArticleTool {
  name: string
  title: string
  description: string
  /** The scope an identified caller needs, as on the REST endpoint. */
  scope: Scope
  inputSchema: ObjectSchema
  outputSchema: ObjectSchema
  /**
   * The REST read's answer for these arguments, prepared, or an article's laid out for this call;
   * a ServiceError for arguments REST would refuse.
   */
  call(args: Readonly<Record<string, unknown>>): PreparedBody | ToolDocument
}

/**
 * A tool's JSON answer laid out on each call from an article's parts (article-documents.ts), as
 * the REST detail is: the document in parts, and the same document as a JSON string, quotes
 * included, in parts (the text content the SDK would write for it).
 */
export interface ToolDocument {
  readonly json: readonly Buffer[]
  readonly text: readonly Buffer[]
}
