import { randomUUID } from 'node:crypto'
import type { Request, RequestHandler, Response } from 'express'
import type { Logger } from 'pino'
import type { PostIndex, PreparedBody } from '../articles/post-index.ts'
import type { Metrics } from '../ops/metrics.ts'
import { redactUrl } from '../ops/logger.ts'
import { LIMITS } from '../routes/posts.ts'
import type { Principal, ResolvePrincipal } from './bearer.ts'
import { API_CACHE_CONTROL, CREDENTIAL_CACHE_CONTROL, isNotModified } from './conditional.ts'
import type { ReadBudget } from './read-budget.ts'

export interface HotReadDeps {
  posts: () => PostIndex | undefined
  resolvePrincipal: ResolvePrincipal
  budget?: ReadBudget
  /** Headers every API response carries: security headers and CORS. */
  constantHeaders: ReadonlyArray<readonly [string, string]>
  logger?: Logger
  metrics?: Metrics
  accepting?: () => boolean
}

const REQUEST_ID = /^[\w.-]{1,100}$/
const INTEGER = /^\d{1,3}$/

/**
 * The hot path of the API: successful article reads (list, fetch, search), anonymous or with a
 * credential, answered in one step with the same bytes and headers as the middleware chain
 * (request log, security and CORS headers, bearer and scope check, read budget, validators,
 * metrics), since they are most of the traffic. Anything else, including every error, falls
 * through to the chain, which answers it in full (test/http/hot-reads.test.ts checks parity).
 */
export function hotReads(deps: HotReadDeps): RequestHandler {
  const constant = deps.constantHeaders.flat()

  return function hotRead(req, res, next) {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url.startsWith('/api/v1/')) return next()
    const started = performance.now()
    const index = deps.posts()
    if (!index) return next()
    const q = req.url.indexOf('?')
    const path = q < 0 ? req.url : req.url.slice(0, q)
    const search = q < 0 ? undefined : new URLSearchParams(req.url.slice(q + 1))

    let route: string
    let scope = 'research.read'
    let body: () => PreparedBody | undefined
    if (path === '/api/v1/posts') {
      const limit = numberParam(search, 'limit', LIMITS.posts)
      if (limit === undefined || (search && [...search.keys()].some((k) => k !== 'limit'))) return next()
      route = '/api/v1/posts'
      body = () => index.latest(limit)
    } else if (path.startsWith('/api/v1/posts/') && q < 0) {
      const slug = path.slice('/api/v1/posts/'.length)
      if (slug.includes('/') || slug.includes('%')) return next()
      route = '/api/v1/posts/:slug'
      body = () => index.detail(slug)
    } else if (path === '/api/v1/search' && search) {
      const queries = search.getAll('q')
      const text = queries[0]?.trim()
      const limit = numberParam(search, 'limit', LIMITS.search)
      if (queries.length !== 1 || !text || text.length > LIMITS.queryLength || limit === undefined) return next()
      route = '/api/v1/search'
      scope = 'research.search'
      body = () => index.searchBody(text, limit)
    } else return next()

    deps.resolvePrincipal(req.headers.authorization)
      .then(
        (principal) => answer(req, res, next, principal, scope, route, body, started),
        () => next(), // a refused credential: the chain answers with the 401
      )
      .catch(next)
  }

  function answer(
    req: Request, res: Response, next: (err?: unknown) => void, principal: Principal, scope: string, route: string,
    body: () => PreparedBody | undefined, started: number,
  ): void {
    if (principal.kind !== 'anonymous' && !principal.scopes.includes(scope)) return next()
    const prepared = body()
    if (!prepared) return next()
    const decision = deps.budget?.take(req, principal)
    if (decision && !decision.allowed) return next()

    const headers: string[] = [...constant, 'Cache-Control', principal.kind === 'anonymous' ? API_CACHE_CONTROL : CREDENTIAL_CACHE_CONTROL, 'Vary', 'Authorization', 'ETag', prepared.etag, 'Last-Modified', prepared.lastModified]
    if (decision) headers.push('RateLimit-Policy', decision.policy, 'RateLimit', decision.remaining)
    let id: string | undefined
    if (deps.logger) {
      const given = req.headers['x-request-id']
      id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
      headers.push('X-Request-Id', id)
    }
    if (deps.accepting && !deps.accepting()) headers.push('Connection', 'close')
    let status = 200
    if (isNotModified(req, prepared)) {
      status = 304
      res.writeHead(304, headers).end()
    } else {
      headers.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(prepared.body.length))
      res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : prepared.body)
    }
    const ms = performance.now() - started
    deps.metrics?.observe(req.method, route, status, ms / 1000)
    deps.logger?.info(
      {
        req: { id, method: req.method, url: redactUrl(req.url), remoteAddress: req.socket.remoteAddress, userAgent: req.headers['user-agent'], authorization: req.headers.authorization ? '[redacted]' : undefined },
        res: { statusCode: status },
        responseTime: Math.round(ms),
      },
      'request completed',
    )
  }
}

/** A limit parameter as the chain accepts it; undefined sends the request to the chain. */
function numberParam(search: URLSearchParams | undefined, name: string, bounds: { min: number; max: number; fallback: number }): number | undefined {
  const values = search?.getAll(name) ?? []
  if (values.length === 0) return bounds.fallback
  if (values.length > 1 || !INTEGER.test(values[0]!)) return undefined
  const n = Number(values[0])
  return n >= bounds.min && n <= bounds.max ? n : undefined
}
