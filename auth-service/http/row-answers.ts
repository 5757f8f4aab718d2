import type { Express, RequestHandler, Response } from 'express'
import { ServiceError } from '../errors.ts'
import { isReadAction, type ActionContext, type HandlerAction, type ReadAction } from '../routes/action.ts'
import type { Endpoint } from '../routes/endpoints.ts'
import { ANONYMOUS, hasScope, insufficientScope, principalOf, type Principal } from './bearer.ts'
import { sendPrepared } from './conditional.ts'
import { sendError, type LogError } from './errors-middleware.ts'
import { asExpress, runHandlers } from './express-handlers.ts'
import type { Exchange, PipelineRow } from './pipeline.ts'
import type { rateLimiters } from './rate-limits.ts'
import { credential, drawRead, resourceOf, type Headers, type Resource, type StageDeps } from './row-stages.ts'

/** What the rows' stages are made of, built once per app. */
export interface RowParts extends StageDeps {
  ctx: ActionContext
  resources: readonly Resource[]
  limiters?: ReturnType<typeof rateLimiters>
  /** The name/value pair naming the build the protected resource's answers come from. */
  buildHeader: () => string[]
  parseQuery: (query: string | null) => Record<string, unknown>
  /** Lends its request and response prototypes to handler rows (and their settings: trust proxy, query parser). */
  express: Express
  logError: LogError
}

/**
 * A row of the endpoint table as the pipeline runs it. Its stages come from the row: the
 * credential of the resource it is under, its scope, its budget, then its action: a prepared
 * read sent in one write, or Express-style handlers.
 */
export function rowAnswer(e: Endpoint, parts: RowParts): PipelineRow {
  const resource = resourceOf(parts.resources, e.path)
  const answer = isReadAction(e.action)
    ? readAnswer(e, e.action, resource, parts)
    : handlerAnswer(e, e.action, resource, parts)
  return { method: e.method, path: e.path, answer }
}

function readAnswer(e: Endpoint, action: ReadAction, resource: Resource | undefined, parts: RowParts) {
  const read = action.read(parts.ctx)
  const budget = e.budget === 'reads' ? parts.readBudget : undefined
  const build = resource ? parts.buildHeader : () => []

  return (ex: Exchange, params: Record<string, string>, done: (status: number) => void) => {
    const headers: Headers = (pairs) => ex.headers.push(...pairs)
    const fail = (err: unknown) => {
      if (ex.res.headersSent) ex.res.destroy(err instanceof Error ? err : undefined)
      else sendError(ex.req, ex.res, err, parts.logError, ex.headers)
      done(ex.res.statusCode)
    }
    const answer = (principal: Principal) => {
      if (e.scope && !hasScope(principal, e.scope)) throw insufficientScope(e.scope, resource!.metadataUrl)
      if (budget) drawRead(budget, principal, ex.req, parts, headers)
      // The query is parsed only by reads that look at it.
      const prepared = read({
        params,
        get query() {
          return parts.parseQuery(ex.search)
        },
      })
      done(sendPrepared(ex.req, ex.res, prepared, action.cacheControl, [...ex.headers, ...build()]))
    }
    try {
      // A document outside the protected resources reads the same for everyone.
      const principal = resource ? credential(resource, ex.req, parts, headers) : ANONYMOUS
      if (principal instanceof Promise) principal.then(answer).catch(fail)
      else answer(principal)
    } catch (err) {
      fail(err)
    }
  }
}

/**
 * The bearer check of a path that is no row's but lies under a protected resource (a 404 or
 * 405 there): every call to a resource is checked (RFC 6750 §2.1), so a refusal is a 401 first.
 */
export function resourceCheck(parts: RowParts): (ex: Exchange, path: string) => Promise<unknown> | undefined {
  return (ex, path) => {
    const resource = resourceOf(parts.resources, path)
    if (!resource) return undefined
    return Promise.resolve(credential(resource, ex.req, parts, (pairs) => ex.headers.push(...pairs)))
  }
}

function handlerAnswer(e: Endpoint, action: HandlerAction, resource: Resource | undefined, parts: RowParts) {
  const { limiters, readBudget } = parts
  const stages: RequestHandler[] = []
  // A write or a credential draws on the general budget, an issuance also on its own.
  if (limiters && e.kind !== 'read') stages.push(limiters.writes)
  if (limiters && e.budget && e.budget !== 'reads') stages.push(limiters[e.budget])
  if (resource?.guard) stages.push(resource.guard)
  if (resource)
    stages.push(function bearerCheck(req, res, next) {
      const found = credential(resource, req, parts, headersOf(res))
      const use = (principal: Principal) => {
        res.locals.principal = principal
        next()
      }
      return found instanceof Promise ? found.then(use) : use(found)
    })
  if (readBudget && e.budget === 'reads')
    stages.push(function readBudgetCheck(req, res, next) {
      drawRead(readBudget, principalOf(res), req, parts, headersOf(res))
      next()
    })
  stages.push(...action.handle(parts.ctx))
  const refuse = action.refuse ? [action.refuse(parts.ctx)] : []

  return (ex: Exchange, params: Record<string, string>, done: (status: number) => void) => {
    const [req, res] = asExpress(parts.express, ex.req, ex.res, params)
    headersOf(res)(ex.headers)
    res.once('close', () => done(res.statusCode))
    runHandlers(stages, refuse, req, res, (err) => {
      if (res.headersSent) return void (err === undefined || res.destroy())
      sendError(req, res, err ?? new ServiceError('not_found', `Nothing at ${req.method} ${e.path}.`), parts.logError)
    })
  }
}

/** A stage's headers on a response whose handlers are running: set at once. */
const headersOf =
  (res: Response): Headers =>
  (pairs) => {
    for (let i = 0; i < pairs.length; i += 2) res.setHeader(pairs[i]!, pairs[i + 1]!)
  }
