import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpHttpHandler,
} from '@modelcontextprotocol/server'
import express from 'express'
import type { Scope } from '../auth/policy.ts'
import { BODY_LIMITS } from '../defaults.ts'
import { ServiceError } from '../errors.ts'
import { hasScope, insufficientScope, type Principal } from '../http/bearer.ts'
import { JSON_TYPES, MAX_JSON_DEPTH, nestsTooDeep } from '../http/forms.ts'
import type { Call } from '../http/action.ts'
import { directAnswerer } from './direct.ts'
import { RPC_CODES } from './rpc-error.ts'
import type { McpServerFactory } from './server.ts'
import { sendWebResponse, webRequestOf } from './web-exchange.ts'

/**
 * body-parser's JSON reader, on the plain request: bounded by BODY_LIMITS.mcp, with its rules on
 * charsets and content encodings, as the service's other JSON bodies. `strict: false`: a body that
 * is JSON but not an object is refused as a JSON-RPC invalid request, not as unparseable.
 */
const readJson = express.json({ limit: BODY_LIMITS.mcp, type: JSON_TYPES, strict: false })

/** The request's JSON body, or `malformed` when it does not parse; the reader's other refusals reject. */
function readMessage(req: IncomingMessage, res: ServerResponse): Promise<{ message: unknown } | { malformed: true }> {
  return new Promise((resolve, reject) => {
    // body-parser reads only what node's request has; its types name Express's.
    readJson(req as express.Request, res as express.Response, (err?: unknown) => {
      if (err === undefined) resolve({ message: (req as { body?: unknown }).body })
      else if ((err as { type?: unknown }).type === 'entity.parse.failed') resolve({ malformed: true })
      else reject(err) // too large, a bad charset or encoding: the service's own 4xx
    })
  })
}

/** Sends a direct answer's parts as one corked write (a single writev), sparing a copy of the result. */
export function sendDirect(res: ServerResponse, parts: readonly Buffer[], headers: string[]): void {
  headers.push('Content-Type', 'application/json', 'Content-Length', String(parts.reduce((n, p) => n + p.length, 0)))
  res.writeHead(200, headers)
  res.cork()
  for (let i = 0; i < parts.length - 1; i++) res.write(parts[i])
  res.end(parts[parts.length - 1])
  res.uncork()
}

/** POST answers are not cached anywhere; one made for a credential says so as every API answer does. */
export function cacheControlOf(principal: Principal): string {
  return principal.kind === 'anonymous' ? 'no-store' : 'private, no-cache'
}

/**
 * MCP's DNS rebinding defence (Streamable HTTP, Security Warning): a browser page may call /mcp
 * only from this origin. Clients that are not browsers send no Origin and are not concerned.
 */
export function originCheck(baseUrl: string): (req: IncomingMessage) => void {
  const own = new URL(baseUrl).origin
  return function originCheck(req) {
    const origin = req.headers.origin
    if (origin !== undefined && origin !== own)
      throw new ServiceError(
        'invalid_origin',
        `Web pages of other origins may not call /mcp; call it from ${own} or from a client that is not a browser.`,
      )
  }
}

/**
 * A JSON-RPC error for a body that is not one message (JSON-RPC 2.0 §5.1: -32700 parse error,
 * -32600 invalid request), answered as JSON-RPC with HTTP 400 (MCP 2026-07-28, Streamable HTTP,
 * Server Validation), not with the REST error envelope: a client of /mcp reads JSON-RPC.
 */
function rpcRefusal(call: Call, status: number, code: number, message: string, id: unknown = null): void {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: idOf(id), error: { code, message } }))
  const headers = ['Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(body.length)]
  call.res.writeHead(status, [...call.headers, 'Cache-Control', 'no-store', ...headers]).end(body)
}

/** A request's id as a response may echo it (JSON-RPC 2.0 §5: a string or a number, else null). */
const idOf = (id: unknown): string | number | null =>
  typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : null

/**
 * POST /mcp: one JSON-RPC message, answered by the official SDK (v2) from a fresh server of the
 * factory. A 2026-07-28 request (its `_meta` envelope) goes to the SDK's per-request handler,
 * which validates the envelope and the Mcp-Method / Mcp-Name headers and answers server/discover;
 * a 2025 request (no envelope) to a stateless Streamable HTTP transport with JSON answers, as
 * before. The body is read here, bounded; the caller's scope is checked against what the message
 * asks (a tool's scope, research.read otherwise) before it is handled.
 *
 * A plain tools/call, most of the traffic, is answered directly (direct.ts): building a server and
 * a transport per request costs about ten times the read itself.
 */
export function mcpExchange(deps: {
  servers: McpServerFactory
  resourceMetadataUrl: string
  baseUrl: string
  onerror: (e: Error) => void
}): (call: Call) => Promise<void> {
  const toolScopes = new Map<string, Scope>(deps.servers.tools.map((t) => [t.name, t.scope]))
  const answerDirectly = directAnswerer(deps.servers)
  const origin = new URL(deps.baseUrl).origin
  // The SDK's default response mode ('auto') answers one JSON body unless a handler sends a
  // message before its result, which none of this server's does; 'json' would only add a warning
  // on every start that notifications would be dropped.
  const modern: McpHttpHandler = createMcpHandler(() => deps.servers.create(), {
    legacy: 'reject',
    onerror: deps.onerror,
  })

  return async function handleMcp(call: Call): Promise<void> {
    const { req, res, principal } = call
    // The SDK's own test of the media type (application/json, with any parameters), so that the
    // direct answer takes exactly what the SDK would (MCP, Streamable HTTP: the body is JSON).
    if (!isJsonContentType(req.headers['content-type']))
      throw new ServiceError('unsupported_media_type', 'Send one JSON-RPC message with Content-Type: application/json.')
    const read = await readMessage(req, res)
    if ('malformed' in read)
      return rpcRefusal(call, 400, RPC_CODES.parseError, 'Parse error: the body is not valid JSON.')
    const message = read.message
    if (Array.isArray(message))
      return rpcRefusal(
        call,
        400,
        RPC_CODES.invalidRequest,
        'Invalid request: send one JSON-RPC message per request; batches are not part of MCP since 2025-06-18.',
      )
    if (typeof message !== 'object' || message === null)
      return rpcRefusal(call, 400, RPC_CODES.invalidRequest, 'Invalid request: the body must be one JSON-RPC message.')
    // The service's JSON depth limit, as on its other bodies: no MCP message here needs more.
    if (nestsTooDeep(message))
      return rpcRefusal(
        call,
        400,
        RPC_CODES.invalidParams,
        `Invalid params: the message nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays; ` +
          'no message to this server needs more.',
        (message as { id?: unknown }).id,
      )

    const scope = scopeOf(message as { method?: unknown; params?: { name?: unknown } })
    if (!hasScope(principal, scope)) throw insufficientScope(scope, deps.resourceMetadataUrl)
    const extra = [...call.headers, 'Cache-Control', cacheControlOf(principal), 'Vary', 'Authorization']

    const direct = answerDirectly(req, message)
    if (direct) return sendDirect(res, direct, extra)

    const request = webRequestOf(req, origin, call.target)
    const options = { parsedBody: message }
    if (!(await isLegacyRequest(request, message)))
      return sendWebResponse(res, await modern.fetch(request, options), extra)
    // A 2025 client: one stateless exchange with JSON answers, as the 2025 specification allows.
    const server = deps.servers.create()
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    try {
      await server.connect(transport)
      await sendWebResponse(res, await transport.handleRequest(request, options), extra)
    } finally {
      void server.close()
    }
  }

  function scopeOf(message: { method?: unknown; params?: { name?: unknown } }): Scope {
    if (message.method === 'tools/call' && typeof message.params?.name === 'string')
      return toolScopes.get(message.params.name) ?? 'research.read'
    return 'research.read'
  }
}
