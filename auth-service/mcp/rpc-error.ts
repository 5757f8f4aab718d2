import { ErrorCode } from '@modelcontextprotocol/sdk/types.js'

/** JSON-RPC error codes the endpoint answers with (JSON-RPC 2.0 §5.1; -32002 is MCP's resource not found). */
export const RPC_CODES = {
  invalidParams: ErrorCode.InvalidParams,
  internalError: ErrorCode.InternalError,
  resourceNotFound: -32002,
} as const

/**
 * A JSON-RPC error the SDK answers with as given: its `code`, its `message` and `data`. (The SDK's
 * McpError prefixes its message with "MCP error <code>:", which is not what clients should read.)
 */
export class RpcError extends Error {
  readonly code: number
  readonly data?: unknown
  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.code = code
    this.data = data
  }
}
