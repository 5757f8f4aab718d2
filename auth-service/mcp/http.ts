import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import express, { type RequestHandler } from 'express'
import type { Scope } from '../auth/policy.ts'
import { LRUCache } from 'lru-cache'
import type { PreparedBody } from '../articles/post-index.ts'
import { BODY_LIMITS, MCP_LIMITS } from '../defaults.ts'
import { ServiceError } from '../errors.ts'
import { hasScope, insufficientScope, principalOf } from '../http/bearer.ts'
import { JSON_TYPES } from '../http/forms.ts'
import type { McpServerFactory, ToolAnswer } from './server.ts'

const readJson = express.json({ limit: BODY_LIMITS.mcp, type: JSON_TYPES })

/**
 * MCP's DNS rebinding defence (Streamable HTTP, Security Warning): a browser page may call /mcp
 * only from this origin. Clients that are not browsers send no Origin and are not concerned.
 */
export function originCheck(baseUrl: string): RequestHandler {
  const own = new URL(baseUrl).origin
  return function originCheck(req, _res, next) {
    const origin = req.headers.origin
    if (origin !== undefined && origin !== own)
      throw new ServiceError('invalid_origin', `Web pages of other origins may not call /mcp; call it from ${own} or from a client that is not a browser.`)
    next()
  }
}

/**
 * POST /mcp: one JSON-RPC message, answered by a fresh stateless Streamable HTTP transport (one
 * JSON answer, no session) and a server of the factory. The body is read here, bounded, so that
 * malformed or oversized messages get the service's own 4xx; the caller's scope is checked
 * against what the message asks (a tool's scope, research.read otherwise) before it is handled.
 *
 * A tools/call, most of the traffic, is answered directly with the same callTool the server's
 * handler runs, when nothing in the request needs the transport's judgement (test/http/mcp.test.ts
 * checks both give the same answers): building a server and a transport per request costs about
 * ten times the read itself.
 */
export function mcpHandlers(deps: { servers: McpServerFactory; resourceMetadataUrl: string }): RequestHandler[] {
  const toolScopes = new Map<string, Scope>(deps.servers.tools.map((t) => [t.name, t.scope]))

  const body: RequestHandler = (req, res, next) => {
    if (!req.is(JSON_TYPES)) throw new ServiceError('unsupported_media_type', 'Send one JSON-RPC message with Content-Type: application/json.')
    readJson(req, res, next)
  }

  async function handleMcp(req: express.Request, res: express.Response): Promise<void> {
    const message: unknown = req.body
    if (Array.isArray(message))
      throw new ServiceError('invalid_request', 'Send one JSON-RPC message per request: batches are not part of MCP since 2025-06-18.')
    if (typeof message !== 'object' || message === null) throw new ServiceError('invalid_request', 'The body must be one JSON-RPC message (an object).')

    const principal = principalOf(res)
    const scope = scopeOf(message as { method?: unknown; params?: { name?: unknown } })
    if (!hasScope(principal, scope)) throw insufficientScope(scope, deps.resourceMetadataUrl)
    // POST answers are not cached anywhere; one made for a credential says so as every API answer does.
    res.setHeader('Cache-Control', principal.kind === 'anonymous' ? 'no-store' : 'private, no-cache')
    res.setHeader('Vary', 'Authorization')

    const call = plainToolCall(req, message)
    if (call && toolScopes.has(call.name)) {
      let answer: ToolAnswer | undefined
      try {
        answer = deps.servers.runTool(call.name, call.arguments)
      } catch {
        // A failure: the server answers it, logged and without details.
      }
      if (answer) {
        const id = Buffer.from(`${JSON.stringify(call.id)}}`)
        const head = 'prepared' in answer ? resultOf(answer.prepared) : Buffer.from(`{"result":${JSON.stringify(answer.refusal)},"jsonrpc":"2.0","id":`)
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': head.length + id.length }).end(Buffer.concat([head, id]))
        return
      }
    }

    const server = deps.servers.create()
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.once('close', () => void server.close())
    await server.connect(transport)
    await transport.handleRequest(req, res, message)
  }

  // The answers of the reads, kept as the server would write them up to their id: a read's body is
  // prepared once per index, and its escaping as the text content costs more than the read.
  const results = new LRUCache<PreparedBody, Buffer>({ maxSize: MCP_LIMITS.resultCacheBytes, sizeCalculation: (b) => b.length })
  function resultOf(prepared: PreparedBody): Buffer {
    let head = results.get(prepared)
    if (!head) {
      const json = prepared.body.toString()
      head = Buffer.from(`{"result":{"content":[{"type":"text","text":${JSON.stringify(json)}}],"structuredContent":${json}},"jsonrpc":"2.0","id":`)
      results.set(prepared, head)
    }
    return head
  }

  function scopeOf(message: { method?: unknown; params?: { name?: unknown } }): Scope {
    if (message.method === 'tools/call' && typeof message.params?.name === 'string') return toolScopes.get(message.params.name) ?? 'research.read'
    return 'research.read'
  }

  return [body, handleMcp]
}

const SUPPORTED = new Set(SUPPORTED_PROTOCOL_VERSIONS)

/**
 * The message as a tools/call that the transport would hand to the server unchanged: the headers
 * it checks are acceptable, and the message has nothing but jsonrpc, id, method and params
 * {name, arguments}. Anything else (undefined) goes through the transport, which judges it.
 */
function plainToolCall(req: express.Request, message: object): { id: string | number; name: string; arguments?: Record<string, unknown> } | undefined {
  const accept = req.headers.accept ?? ''
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined
  const version = req.headers['mcp-protocol-version']
  if (version !== undefined && !SUPPORTED.has(version as string)) return undefined
  const m = message as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown } }
  if (m.jsonrpc !== '2.0' || m.method !== 'tools/call' || Object.keys(m).length !== 4) return undefined
  if (!(typeof m.id === 'string' || Number.isSafeInteger(m.id))) return undefined
  const params = m.params
  if (typeof params !== 'object' || params === null || Array.isArray(params) || typeof params.name !== 'string') return undefined
  const keys = Object.keys(params)
  if (!keys.every((k) => k === 'name' || k === 'arguments')) return undefined
  const args = params.arguments
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return undefined
  return { id: m.id as string | number, name: params.name, arguments: args as Record<string, unknown> | undefined }
}
