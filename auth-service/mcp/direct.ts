import type { IncomingMessage } from 'node:http'
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import { LRUCache } from 'lru-cache'
import type { PreparedBody } from '../articles/post-index.ts'
import { MCP_LIMITS } from '../defaults.ts'
import type { McpServerFactory, ToolAnswer } from './server.ts'

/**
 * The answer to a message, as the bytes of a JSON-RPC response in two parts (the kept result, then
 * the id), or undefined when the server must judge it.
 */
export type DirectAnswerer = (req: IncomingMessage, message: object) => [Buffer, Buffer] | undefined

const answerers = new WeakMap<McpServerFactory, DirectAnswerer>()

/**
 * Answers a plain tools/call without a server and a transport, with the same runTool the server's
 * handler runs and the JSON the server would write (test/http/mcp.test.ts checks both give the
 * same answers). One per factory, shared by the chain and the fast path, with its cache.
 */
export function directAnswerer(servers: McpServerFactory): DirectAnswerer {
  let answerer = answerers.get(servers)
  if (answerer) return answerer
  const known = new Set(servers.tools.map((t) => t.name))
  // The answers of the reads, kept as the server would write them up to their id: a read's body is
  // prepared once per index, and its escaping as the text content costs more than the read.
  const results = new LRUCache<PreparedBody, Buffer>({ maxSize: MCP_LIMITS.resultCacheBytes, sizeCalculation: (b) => b.length })
  const resultOf = (prepared: PreparedBody): Buffer => {
    let head = results.get(prepared)
    if (!head) {
      const json = prepared.body.toString()
      head = Buffer.from(`{"result":{"content":[{"type":"text","text":${JSON.stringify(json)}}],"structuredContent":${json}},"jsonrpc":"2.0","id":`)
      results.set(prepared, head)
    }
    return head
  }

  answerer = (req, message) => {
    const call = plainToolCall(req, message)
    if (!call || !known.has(call.name)) return undefined
    let answer: ToolAnswer
    try {
      answer = servers.runTool(call.name, call.arguments)
    } catch {
      return undefined // a failure: the server answers it, logged and without details
    }
    const head = 'prepared' in answer ? resultOf(answer.prepared) : Buffer.from(`{"result":${JSON.stringify(answer.refusal)},"jsonrpc":"2.0","id":`)
    return [head, Buffer.from(`${JSON.stringify(call.id)}}`)]
  }
  answerers.set(servers, answerer)
  return answerer
}

const SUPPORTED = new Set(SUPPORTED_PROTOCOL_VERSIONS)

/**
 * The message as a tools/call that the transport would hand to the server unchanged: the headers
 * it checks are acceptable, and the message has nothing but jsonrpc, id, method and params
 * {name, arguments}. Anything else (undefined) goes through the transport, which judges it.
 */
function plainToolCall(req: IncomingMessage, message: object): { id: string | number; name: string; arguments?: Record<string, unknown> } | undefined {
  const accept = req.headers.accept ?? ''
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined
  const version = req.headers['mcp-protocol-version']
  if (version !== undefined && !SUPPORTED.has(version as string)) return undefined
  const m = message as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown } }
  if (Array.isArray(m) || m.jsonrpc !== '2.0' || m.method !== 'tools/call' || Object.keys(m).length !== 4) return undefined
  if (!(typeof m.id === 'string' || Number.isSafeInteger(m.id))) return undefined
  const params = m.params
  if (typeof params !== 'object' || params === null || Array.isArray(params) || typeof params.name !== 'string') return undefined
  if (!Object.keys(params).every((k) => k === 'name' || k === 'arguments')) return undefined
  const args = params.arguments
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return undefined
  return { id: m.id as string | number, name: params.name, arguments: args as Record<string, unknown> | undefined }
}
