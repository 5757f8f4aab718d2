import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'

/** JSON-RPC error codes the endpoint answers with (JSON-RPC 2.0 §5.1; -32002 is MCP's resource not found). */
export const RPC_CODES = {
  parseError: ProtocolErrorCode.ParseError,
  invalidRequest: ProtocolErrorCode.InvalidRequest,
  invalidParams: ProtocolErrorCode.InvalidParams,
  internalError: ProtocolErrorCode.InternalError,
  resourceNotFound: -32002,
} as const

/** A JSON-RPC error the SDK answers with as given: its `code`, its `message` and `data`. */
export class RpcError extends ProtocolError {}
