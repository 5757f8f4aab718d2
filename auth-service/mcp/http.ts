import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { ServerResponse } from 'node:http'
import express, { type RequestHandler } from 'express'
import type { Scope } from '../auth/policy.ts'
import { BODY_LIMITS } from '../defaults.ts'
import { ServiceError } from '../errors.ts'
import { hasScope, insufficientScope, principalOf, type Principal } from '../http/bearer.ts'
import { JSON_TYPES } from '../http/forms.ts'
import { directAnswerer } from './direct.ts'
import type { McpServerFactory } from './server.ts'

const readJson = express.json({ limit: BODY_LIMITS.mcp, type: JSON_TYPES })

/** Bodies the fast path read but could not parse, for the chain to refuse. */
const bodyErrors = new WeakMap<express.Request, unknown>()

/** Reads one JSON message into req.body (bounded); a refusal is kept for the chain, which answers it. */
export function readMcpBody(req: express.Request, res: express.Response, done: () => void): void {
  readJson(req, res, (err?: unknown) => {
    if (err !== undefined) bodyErrors.set(req, err)
    done()
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
export function originCheck(baseUrl: string): RequestHandler {
  const own = new URL(baseUrl).origin
  return function originCheck(req, _res, next) {
    const origin = req.headers.origin
    if (origin !== undefined && origin !== own)
      throw new ServiceError(
        'invalid_origin',
        `Web pages of other origins may not call /mcp; call it from ${own} or from a client that is not a browser.`,
      )
    next()
  }
}

/**
 * POST /mcp: one JSON-RPC message, answered by a fresh stateless Streamable HTTP transport (one
 * JSON answer, no session) and a server of the factory. The body is read here, bounded, so that
 * malformed or oversized messages get the service's own 4xx; the caller's scope is checked
 * against what the message asks (a tool's scope, research.read otherwise) before it is handled.
 *
 * A plain tools/call, most of the traffic, is answered directly (direct.ts): building a server and
 * a transport per request costs about ten times the read itself.
 */
export function mcpHandlers(deps: { servers: McpServerFactory; resourceMetadataUrl: string }): RequestHandler[] {
  const toolScopes = new Map<string, Scope>(deps.servers.tools.map((t) => [t.name, t.scope]))
  const answerDirectly = directAnswerer(deps.servers)

  const body: RequestHandler = (req, res, next) => {
    // The fast path may have read the body already: its refusal is answered here, in the chain.
    const failed = bodyErrors.get(req)
    if (failed !== undefined) throw failed
    if (!req.is(JSON_TYPES))
      throw new ServiceError('unsupported_media_type', 'Send one JSON-RPC message with Content-Type: application/json.')
    readJson(req, res, next)
  }

  async function handleMcp(req: express.Request, res: express.Response): Promise<void> {
    const message: unknown = req.body
    if (Array.isArray(message))
      throw new ServiceError(
        'invalid_request',
        'Send one JSON-RPC message per request: batches are not part of MCP since 2025-06-18.',
      )
    if (typeof message !== 'object' || message === null)
      throw new ServiceError('invalid_request', 'The body must be one JSON-RPC message (an object).')

    const principal = principalOf(res)
    const scope = scopeOf(message as { method?: unknown; params?: { name?: unknown } })
    if (!hasScope(principal, scope)) throw insufficientScope(scope, deps.resourceMetadataUrl)
    res.setHeader('Cache-Control', cacheControlOf(principal))
    res.setHeader('Vary', 'Authorization')

    const direct = answerDirectly(req, message)
    if (direct) {
      sendDirect(res, direct, [])
      return
    }

    const server = deps.servers.create()
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.once('close', () => void server.close())
    await server.connect(transport)
    await transport.handleRequest(req, res, message)
  }

  function scopeOf(message: { method?: unknown; params?: { name?: unknown } }): Scope {
    if (message.method === 'tools/call' && typeof message.params?.name === 'string')
      return toolScopes.get(message.params.name) ?? 'research.read'
    return 'research.read'
  }

  return [body, handleMcp]
}
