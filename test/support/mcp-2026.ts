import type { RequestListener } from 'node:http'
import request from 'supertest'
import { expect } from 'vitest'

/** Raw 2026-07-28 requests for the tests (MCP 2026-07-28, Basic, `_meta`; Streamable HTTP, Standard Headers). */
export const V = '2026-07-28'
export const META = {
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
}
export const META_VERSION = 'io.modelcontextprotocol/protocolVersion'
/** A name in the Base64 sentinel form of the standard headers (Streamable HTTP, Value Encoding). */
export const base64Name = (name: string) => `=?base64?${Buffer.from(name).toString('base64')}?=`

/** A 2026-07-28 request as the specification writes it: the envelope in _meta and the standard headers. */
export function message(method: string, params: Record<string, unknown> = {}, id: number | string = 1) {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }
}
/** The standard headers of a request for `method` (and `Mcp-Name`, for the methods that take one). */
export function headersOf(method: string, name?: string): Record<string, string> {
  return {
    Accept: 'application/json, text/event-stream',
    'Content-Type': 'application/json',
    'MCP-Protocol-Version': V,
    'Mcp-Method': method,
    ...(name === undefined ? {} : { 'Mcp-Name': name }),
  }
}

/** The result of `tools/call` of `name` on `app`, which must answer 200. */
export async function callTool(app: RequestListener, name: string, args: Record<string, unknown>) {
  const res = await request(app)
    .post('/mcp')
    .set(headersOf('tools/call', name))
    .send(JSON.stringify(message('tools/call', { name, arguments: args })))
  expect(res.status).toBe(200)
  return res.body.result as { structuredContent: Record<string, unknown>; content: Array<{ text: string }> }
}
