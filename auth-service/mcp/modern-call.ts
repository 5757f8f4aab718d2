import type { IncomingMessage } from 'node:http'
import { META, MODERN_PROTOCOL } from './protocol.ts'

/** A tools/call the direct answer may answer: its id, the tool and its arguments. */
export type ToolCall = { id: string | number; name: string; arguments?: Record<string, unknown> }

const ENVELOPE_KEYS = [META.protocolVersion, META.clientInfo, META.clientCapabilities]
const CLIENT_INFO_KEYS = new Set(['name', 'version', 'title'])

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The message as a 2026-07-28 tools/call that the SDK would accept and hand to the server's
 * handler unchanged, or undefined: then the SDK judges it (and answers its refusals). Only the
 * plainest call qualifies, a subset of what the SDK accepts, so the direct answer never accepts
 * what the SDK would refuse:
 * - the standard headers (MCP 2026-07-28, Streamable HTTP, Standard Request Headers): the version,
 *   `Mcp-Method: tools/call` and `Mcp-Name` the tool's name, written plain (a base64 name, and any
 *   `Mcp-Param-*` header, go to the SDK, which decodes and checks them);
 * - the body: jsonrpc, id, method and params {name, arguments, _meta}, nothing else;
 * - `_meta` the envelope alone (Basic, `_meta`): this version, a client info of strings, and no
 *   client capabilities (a declared capability is for the SDK to read).
 */
export function modernToolCall(req: IncomingMessage, message: object): ToolCall | undefined {
  const h = req.headers
  if (h['mcp-protocol-version'] !== MODERN_PROTOCOL || h['mcp-method'] !== 'tools/call') return undefined
  const accept = h.accept ?? ''
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined
  const headerName = h['mcp-name']
  if (typeof headerName !== 'string') return undefined
  for (const name in h) if (name.startsWith('mcp-param-')) return undefined

  const m = message as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown }
  if (m.jsonrpc !== '2.0' || m.method !== 'tools/call' || Object.keys(m).length !== 4) return undefined
  if (!(typeof m.id === 'string' || Number.isSafeInteger(m.id))) return undefined
  const params = m.params
  if (!isPlainObject(params) || params.name !== headerName) return undefined
  for (const key in params) if (key !== 'name' && key !== 'arguments' && key !== '_meta') return undefined
  const args = params.arguments
  if (args !== undefined && !isPlainObject(args)) return undefined
  if (!plainEnvelope(params._meta)) return undefined
  return { id: m.id as string | number, name: headerName, arguments: args }
}

function plainEnvelope(meta: unknown): boolean {
  if (!isPlainObject(meta) || Object.keys(meta).length !== ENVELOPE_KEYS.length) return false
  if (meta[META.protocolVersion] !== MODERN_PROTOCOL) return false
  const capabilities = meta[META.clientCapabilities]
  if (!isPlainObject(capabilities) || Object.keys(capabilities).length > 0) return false
  const info = meta[META.clientInfo]
  if (!isPlainObject(info) || !info.name || !info.version) return false
  for (const key in info) if (!CLIENT_INFO_KEYS.has(key) || typeof info[key] !== 'string') return false
  return true
}
