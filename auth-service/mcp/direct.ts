import type { IncomingMessage } from 'node:http'
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server'
import { LRUCache } from 'lru-cache'
import type { PreparedBody } from '../../post-index/post-index.ts'
import { MCP_LIMITS } from '../defaults.ts'
import { modernToolCall, type ToolCall } from './modern-call.ts'
import { META } from './protocol.ts'
import { RPC_CODES } from './rpc-error.ts'
import { SERVER_INFO } from '../routes/documents.ts'
import type { McpServerFactory, ToolAnswer } from './server.ts'

/**
 * The answer to a message, as the bytes of a JSON-RPC response in parts sent one after another,
 * or undefined when the server must judge it.
 */
export type DirectAnswerer = (req: IncomingMessage, message: object) => Buffer[] | undefined

// A read's result as the server writes it: the body as text content, then as structured content.
const TEXT_OPEN = Buffer.from('{"result":{"content":[{"type":"text","text":')
const STRUCTURED_OPEN = Buffer.from('}],"structuredContent":')
const RESULT_CLOSE = Buffer.from('},"jsonrpc":"2.0","id":')
/**
 * What the SDK appends to a 2026-07-28 result (its encode contract): the result type, then the
 * server's identity in `_meta` (MCP 2026-07-28, Basic, `_meta`: servers SHOULD include it).
 */
const MODERN_FIELDS = { resultType: 'complete', _meta: { [META.serverInfo]: SERVER_INFO } }
const MODERN_CLOSE = Buffer.from(`,${JSON.stringify(MODERN_FIELDS).slice(1)},"jsonrpc":"2.0","id":`)

const answerers = new WeakMap<McpServerFactory, DirectAnswerer>()

/**
 * Answers a plain tools/call without a server and a transport, with the same runTool the server's
 * handler runs and the JSON the server would write (test/http/mcp.test.ts checks both give the
 * same answers). One per factory, with its cache.
 */
export function directAnswerer(servers: McpServerFactory): DirectAnswerer {
  let answerer = answerers.get(servers)
  if (answerer) return answerer
  const known = new Set(servers.tools.map((t) => t.name))
  // A prepared read's body escaped as a JSON string (its text content), kept: the body is prepared
  // once per index, and escaping it costs more than the read. The structured content is the body
  // itself. An article's document comes with its text form (article-documents.ts).
  const texts = new LRUCache<PreparedBody, Buffer>({
    maxSize: MCP_LIMITS.textCacheBytes,
    sizeCalculation: (b) => b.length,
  })
  const textOf = (prepared: PreparedBody): Buffer => {
    let text = texts.get(prepared)
    if (!text) {
      text = jsonStringOf(prepared.body)
      texts.set(prepared, text)
    }
    return text
  }

  /** A read's result up to its closing brace: its text content, then its structured content. */
  const resultOf = (answer: Exclude<ToolAnswer, { refusal: unknown }>): Buffer[] =>
    'document' in answer
      ? [TEXT_OPEN, ...answer.document.text, STRUCTURED_OPEN, ...answer.document.json]
      : [TEXT_OPEN, textOf(answer.prepared), STRUCTURED_OPEN, answer.prepared.body]

  const tools = [...known].join(', ')
  answerer = (req, message) => {
    const modern = modernToolCall(req, message)
    if (modern) return known.has(modern.name) ? modernAnswer(modern) : undefined
    const call = plainToolCall(req, message)
    if (!call) return undefined
    // A call that fails CallToolRequest's schema is a protocol error, -32602 (MCP 2025-11-25, Tools,
    // Error Handling: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling),
    // answered here in words a client can act on rather than with the SDK's validator dump.
    if ('invalid' in call) return [invalidParams(call.id, call.invalid(tools))]
    if (!known.has(call.name)) return undefined
    let answer: ToolAnswer
    try {
      answer = servers.runTool(call.name, call.arguments)
    } catch {
      return undefined // a failure: the server answers it, logged and without details
    }
    const id = Buffer.from(`${JSON.stringify(call.id)}}`)
    if ('refusal' in answer)
      return [Buffer.from(`{"result":${JSON.stringify(answer.refusal)},"jsonrpc":"2.0","id":`), id]
    return [...resultOf(answer), RESULT_CLOSE, id]
  }

  /** The bytes the SDK writes for a 2026 call: the 2025 result with the fields of MODERN_FIELDS after it. */
  function modernAnswer(call: ToolCall): Buffer[] | undefined {
    let answer: ToolAnswer
    try {
      answer = servers.runTool(call.name, call.arguments)
    } catch {
      return undefined
    }
    const id = Buffer.from(`${JSON.stringify(call.id)}}`)
    if (!('refusal' in answer)) return [...resultOf(answer), MODERN_CLOSE, id]
    const result = JSON.stringify({ ...answer.refusal, ...MODERN_FIELDS })
    return [Buffer.from(`{"result":${result},"jsonrpc":"2.0","id":`), id]
  }

  answerers.set(servers, answerer)
  return answerer
}

/**
 * The UTF-8 bytes of a JSON document as a JSON string: the bytes of JSON.stringify(json.toString()),
 * computed byte for byte as latin1. A JSON document holds no raw control character, and
 * JSON.stringify leaves every character above 0x7f as it is, so the UTF-8 sequences pass through
 * intact; decoding and re-encoding UTF-8 cost more than the escaping itself.
 */
export function jsonStringOf(json: Buffer): Buffer {
  return Buffer.from(JSON.stringify(json.toString('latin1')), 'latin1')
}

const SUPPORTED = new Set(SUPPORTED_PROTOCOL_VERSIONS)

const invalidParams = (id: string | number, message: string) =>
  Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, error: { code: RPC_CODES.invalidParams, message } }))

/** A tools/call whose params are malformed, with what to say about them (given the tools' names). */
type MalformedCall = { id: string | number; invalid: (tools: string) => string }

/**
 * The message as a tools/call that the transport would hand to the server unchanged: the headers
 * it checks are acceptable, and the message has nothing but jsonrpc, id, method and params
 * {name, arguments}. Anything else (undefined) goes through the transport, which judges it.
 */
function plainToolCall(req: IncomingMessage, message: object): ToolCall | MalformedCall | undefined {
  const accept = req.headers.accept ?? ''
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined
  const version = req.headers['mcp-protocol-version']
  if (version !== undefined && !SUPPORTED.has(version as string)) return undefined
  const m = message as {
    jsonrpc?: unknown
    id?: unknown
    method?: unknown
    params?: { name?: unknown; arguments?: unknown }
  }
  if (Array.isArray(m) || m.jsonrpc !== '2.0' || m.method !== 'tools/call') return undefined
  if (!(typeof m.id === 'string' || Number.isSafeInteger(m.id))) return undefined
  const id = m.id as string | number
  const params = m.params
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    return {
      id,
      invalid: (tools) =>
        `Invalid params: "params" must be an object with a tool's "name" (${tools}) and its "arguments".`,
    }
  const name = params.name
  if (typeof name !== 'string')
    return { id, invalid: (tools) => `Invalid params: "name" must be the name of a tool, a string: ${tools}.` }
  const args = params.arguments
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
    return {
      id,
      invalid: () =>
        `Invalid params: "arguments" of ${name.slice(0, 60)} must ` +
        `be an object, as its inputSchema in tools/list describes.`,
    }
  if (Object.keys(m).length !== 4 || !Object.keys(params).every((k) => k === 'name' || k === 'arguments'))
    return undefined
  return { id, name, arguments: args as Record<string, unknown> | undefined }
}
