import type { Request, RequestHandler, Response } from 'express'
import type { Logger } from 'pino'
import { match, type MatchFunction } from 'path-to-regexp'
import type { PreparedBody } from '../articles/post-index.ts'
import type { Scope } from '../auth/policy.ts'
import { REQUEST_COMPLETED, REQUEST_SERIALIZERS, requestIdOf } from '../ops/logger.ts'
import type { Metrics } from '../ops/metrics.ts'
import { hasScope, type Principal, type ResolvePrincipal } from './bearer.ts'
import { sendPrepared } from './conditional.ts'
import { rateLimitHeaders, type ReadBudget } from './read-budget.ts'

/** The request as a read sees it: path parameters and Express's parsed query. */
export interface ReadInput {
  params: Readonly<Record<string, string>>
  query: Readonly<Record<string, unknown>>
}

/** A read of the protected resource, as the endpoint table describes it, with its built action. */
export interface ReadRoute {
  /** The Express path, also the metrics' route label. */
  path: string
  scope: Scope
  cacheControl: string | undefined
  read: (input: ReadInput) => PreparedBody
}

/**
 * Finds the read route of a path the way Express's router does (path-to-regexp, case-insensitive,
 * optional trailing slash, parameters decoded), so that both paths agree on what a URL means.
 */
export function readRouteMatcher(routes: readonly ReadRoute[]): (path: string) => { route: ReadRoute; params: Record<string, string> } | undefined {
  // Paths without parameters are found with one lookup (case-insensitive, trailing slash optional,
  // as path-to-regexp matches them); the others with path-to-regexp itself.
  const fixed = new Map(routes.filter((r) => !r.path.includes(':')).map((r) => [r.path.toLowerCase(), r]))
  const NO_PARAMS = Object.freeze({}) as Record<string, string>
  const matchers: Array<[MatchFunction<Record<string, string>>, ReadRoute]> = routes.filter((r) => r.path.includes(':')).map((r) => [match(r.path), r])
  return (path) => {
    const plain = fixed.get((path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase())
    if (plain) return { route: plain, params: NO_PARAMS }
    for (const [matches, route] of matchers) {
      let found
      try {
        found = matches(path)
      } catch {
        return undefined // a malformed escape: the chain answers it
      }
      if (found) return { route, params: found.params }
    }
    return undefined
  }
}

export interface ReadPathDeps {
  /** Requests under this path are candidates (the protected resource). */
  prefix: string
  routes: readonly ReadRoute[]
  resolvePrincipal: ResolvePrincipal
  budget?: ReadBudget
  /** Name/value pairs every API response carries: security headers and CORS. */
  constantHeaders: readonly string[]
  /** The name/value pair naming the build the answers come from (none before an index loads). */
  buildHeader?: () => string[]
  logger?: Logger
  metrics?: Metrics
  accepting?: () => boolean
}

/**
 * The fast path of the API's reads, since they are most of the traffic: a successful read is
 * answered in one step with the same functions as the middleware chain (route match, bearer
 * and scope check, read budget, the action's own parse and read, sendPrepared, request id and
 * log line), without passing through each middleware. Anything that is not a success, errors
 * included, falls through to the chain, which answers it in full; test/http/read-path.test.ts
 * checks that both give the same answers and that the fast path does answer.
 */
export function readFastPath(deps: ReadPathDeps): RequestHandler {
  const find = readRouteMatcher(deps.routes)

  return function readFastPath(req, res, next) {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url.startsWith(deps.prefix)) return next()
    const started = performance.now()
    const found = find(req.path)
    if (!found) return next()
    deps.resolvePrincipal(req.headers.authorization).then(
      (principal) => answer(req, res, next, principal, found.route, found.params, started),
      () => next(), // a refused credential: the chain answers with the 401
    ).catch(next)
  }

  function answer(
    req: Request, res: Response, next: (err?: unknown) => void, principal: Principal, route: ReadRoute, params: Record<string, string>, started: number,
  ): void {
    if (!hasScope(principal, route.scope)) return next()
    let prepared: PreparedBody
    try {
      // Express parses the query string on each access: only reads that look at it pay for it.
      prepared = route.read({
        params,
        get query() {
          return req.query
        },
      })
    } catch {
      return next() // a refusal: the chain answers it
    }
    const decision = deps.budget?.take(req, principal)
    if (decision && !decision.allowed) return next()

    const headers = [...deps.constantHeaders]
    if (deps.buildHeader) headers.push(...deps.buildHeader())
    if (decision) headers.push(...rateLimitHeaders(decision))
    const id = deps.logger ? requestIdOf(req) : undefined
    if (id) headers.push('X-Request-Id', id)
    if (deps.accepting && !deps.accepting()) headers.push('Connection', 'close')
    const status = sendPrepared(req, res, prepared, route.cacheControl, headers)

    const ms = performance.now() - started
    deps.metrics?.observe(req.method, route.path, status, ms / 1000)
    deps.logger?.info(
      {
        req: REQUEST_SERIALIZERS.req({ id: id!, method: req.method, url: req.url, headers: req.headers, remoteAddress: req.socket.remoteAddress }),
        res: REQUEST_SERIALIZERS.res({ statusCode: status }),
        responseTime: Math.round(ms),
      },
      REQUEST_COMPLETED,
    )
  }
}
