/** The headers of an MCP request at protocol version 2025-11-25, and the body of a coded refusal. */
import { expect } from 'vitest'

const PROTOCOL = '2025-11-25'
export const MCP_HEADERS = {
  Accept: 'application/json, text/event-stream',
  'Content-Type': 'application/json',
  'MCP-Protocol-Version': PROTOCOL,
}
export const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })
