import type { IncomingMessage } from 'node:http'
import type { Request, Response } from 'express'
import typeis from 'type-is'
import { hasScope, type ResolvePrincipal } from '../http/bearer.ts'
import { JSON_TYPES } from '../http/forms.ts'
import { recordAnswer, recover, successHeaders, type FrontAnswerDeps, type FrontHandler } from '../http/front.ts'
import type { ReadBudget } from '../http/read-budget.ts'
import { cacheControlOf, readMcpBody, sendDirect } from './http.ts'
import type { DirectAnswerer } from './direct.ts'
import type { McpServerFactory } from './server.ts'

export interface McpFastPathDeps extends FrontAnswerDeps {
  path: string
  /** The service's origin: a browser page of another is the chain's to refuse. */
  origin: string
  servers: McpServerFactory
  answerDirectly: DirectAnswerer
  resolvePrincipal: ResolvePrincipal
  budget?: ReadBudget
  /** The client's budget key, as the chain's `clientAddress` computes it behind the same proxies. */
  clientAddress: (req: IncomingMessage) => string
}

/**
 * The fast path of POST /mcp, as the read fast path is REST's (http/read-path.ts): a plain
 * tools/call that succeeds is answered in one step with the same functions as the chain (origin
 * rule, bearer and scope check, read budget, the body reader, the direct answer, request id and
 * log line), in front of Express as the read fast path is. Anything else goes to the chain with
 * the body already read, and the chain answers it in full; test/http/mcp.test.ts checks that
 * both give the same answers.
 */
export function mcpFastPath(deps: McpFastPathDeps): FrontHandler {
  const scopes = new Map(deps.servers.tools.map((t) => [t.name, t.scope]))
  return function mcpFastPath(req, res, next) {
    if (req.method !== 'POST' || req.url !== deps.path) return next()
    const origin = req.headers.origin
    if ((origin !== undefined && origin !== deps.origin) || !typeis(req, JSON_TYPES)) return next()
    const started = performance.now()
    // The same body reader as the chain's; it reads a plain request as Express's.
    readMcpBody(req as Request, res as Response, () => {
      try {
        const message: unknown = (req as Request).body
        if (typeof message !== 'object' || message === null || Array.isArray(message)) return next()
        const name = (message as { params?: { name?: unknown } }).params?.name
        const scope = typeof name === 'string' ? scopes.get(name) : undefined
        if (!scope) return next()
        deps
          .resolvePrincipal(req.headers.authorization)
          .then(
            (principal) => {
              if (!hasScope(principal, scope)) return next()
              const answer = deps.answerDirectly(req, message)
              if (!answer) return next()
              const decision = deps.budget?.take(principal, () => deps.clientAddress(req))
              if (decision && !decision.allowed) return next()

              const { headers, id } = successHeaders(deps, req, decision, [
                'Cache-Control',
                cacheControlOf(principal),
                'Vary',
                'Authorization',
              ])
              sendDirect(res, answer, headers)
              recordAnswer(deps, req, id, deps.path, 200, started)
            },
            () => next(), // a refused credential: the chain answers with the 401
          )
          .catch((err: unknown) => recover(res, next, err))
      } catch (err) {
        recover(res, next, err)
      }
    })
  }
}
