import type { IncomingMessage } from 'node:http'
import type { Express, RequestHandler } from 'express'
import { ServiceError } from '../errors.ts'
import { isReadAction, type ActionContext, type ReadAction } from '../routes/action.ts'
import type { Endpoint } from '../routes/endpoints.ts'
import {
  ANONYMOUS,
  authenticate,
  hasScope,
  insufficientScope,
  type Principal,
  type ResolvePrincipal,
} from './bearer.ts'
import { sendPrepared } from './conditional.ts'
import { sendError, type LogError } from './errors-middleware.ts'
import { asExpress, runHandlers } from './express-handlers.ts'
import type { Exchange, PipelineRow } from './pipeline.ts'
import { enforce, overBudget, rateLimitHeaders, type BadCredentialBudget, type ReadBudget } from './read-budget.ts'
import type { rateLimiters } from './rate-limits.ts'

/** A protected resource (RFC 9728): requests under its path are bearer-checked for it. */
export interface Resource {
  path: string
  resolve: ResolvePrincipal
  /** Named by a 403 insufficient_scope (RFC 6750 §3.1). */
  metadataUrl: string
  /** Only this origin's web pages may call it (MCP's DNS rebinding defence), when given. */
  ownOrigin?: string
}

/** What the rows' stages are made of, built once per app. */
export interface RowParts {
  ctx: ActionContext
  resources: readonly Resource[]
  readBudget?: ReadBudget
  badCredentials?: BadCredentialBudget
  limiters?: ReturnType<typeof rateLimiters>
  /** The name/value pair naming the build the protected resource's answers come from. */
  buildHeader: () => string[]
  parseQuery: (query: string | null) => Record<string, unknown>
  /** The client's budget key, behind the configured proxies. */
  clientAddress: (req: IncomingMessage) => string
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
  const resource = parts.resources.find((r) => e.path === r.path || e.path.startsWith(`${r.path}/`))
  const answer = isReadAction(e.action) ? readAnswer(e, e.action, resource, parts) : handlerAnswer(e, resource, parts)
  return { method: e.method, path: e.path, answer }
}

function readAnswer(e: Endpoint, action: ReadAction, resource: Resource | undefined, parts: RowParts) {
  const read = action.read(parts.ctx)
  const budget = e.budget === 'reads' ? parts.readBudget : undefined
  const build = resource ? parts.buildHeader : () => []

  return (ex: Exchange, params: Record<string, string>, done: (status: number) => void) => {
    const fail = (err: unknown) => {
      if (ex.res.headersSent) ex.res.destroy(err instanceof Error ? err : undefined)
      else sendError(ex.req, ex.res, err, parts.logError, ex.headers)
      done(ex.res.statusCode)
    }
    const answer = (principal: Principal) => {
      if (e.scope && !hasScope(principal, e.scope)) throw insufficientScope(e.scope, resource!.metadataUrl)
      if (budget) {
        const decision = budget.take(principal, () => parts.clientAddress(ex.req))
        ex.headers.push(...rateLimitHeaders(decision))
        if (!decision.allowed) throw overBudget(decision)
      }
      // The query is parsed only by reads that look at it.
      const prepared = read({
        params,
        get query() {
          return parts.parseQuery(ex.search)
        },
      })
      done(sendPrepared(ex.req, ex.res, prepared, action.cacheControl, [...ex.headers, ...build()]))
    }
    const authorization = ex.req.headers.authorization
    // No credential is the common case: answered without waiting for a turn of the event loop.
    if (!resource || authorization === undefined) {
      try {
        answer(ANONYMOUS)
      } catch (err) {
        fail(err)
      }
      return
    }
    resource
      .resolve(authorization)
      .catch((err: unknown) => refusedCredential(ex, err, parts))
      .then(answer)
      .catch(fail)
  }
}

/**
 * The bearer check of a path that is no row's but lies under a protected resource (a 404 or
 * 405 there): every call to a resource is checked (RFC 6750 §2.1), so a refusal is a 401 first.
 */
export function resourceCheck(parts: RowParts): (ex: Exchange, path: string) => Promise<unknown> | undefined {
  return (ex, path) => {
    const resource = parts.resources.find((r) => path === r.path || path.startsWith(`${r.path}/`))
    const authorization = ex.req.headers.authorization
    if (!resource || authorization === undefined) return undefined
    return resource.resolve(authorization).catch((err: unknown) => refusedCredential(ex, err, parts))
  }
}

/** A refused credential draws on the per-address budget of refusals: beyond it, a 429 instead of the 401. */
function refusedCredential(ex: Exchange, err: unknown, parts: RowParts): never {
  if (parts.badCredentials && err instanceof ServiceError && err.code === 'invalid_token') {
    const decision = parts.badCredentials.take(parts.clientAddress(ex.req))
    ex.headers.push(...rateLimitHeaders(decision))
    if (!decision.allowed) throw overBudget(decision)
  }
  throw err
}

function handlerAnswer(e: Endpoint, resource: Resource | undefined, parts: RowParts) {
  if (isReadAction(e.action)) throw new Error(`${e.operationId} is a read`)
  const { limiters, badCredentials, readBudget } = parts
  const stages: RequestHandler[] = []
  // A write or a credential draws on the general budget, an issuance also on its own.
  if (limiters && e.kind !== 'read') stages.push(limiters.writes)
  if (limiters && e.budget && e.budget !== 'reads') stages.push(limiters[e.budget])
  if (resource?.ownOrigin) stages.push(ownOriginOnly(resource.ownOrigin, e.path))
  if (resource)
    stages.push(
      authenticate(
        resource.resolve,
        badCredentials && ((req, res) => enforce(res, badCredentials.take(parts.clientAddress(req)))),
      ),
    )
  if (readBudget && e.budget === 'reads') stages.push(readBudget.everyRequest)
  stages.push(...e.action.handle(parts.ctx))
  const refuse = e.action.refuse ? [e.action.refuse(parts.ctx)] : []

  return (ex: Exchange, params: Record<string, string>, done: (status: number) => void) => {
    const [req, res] = asExpress(parts.express, ex.req, ex.res, params)
    for (let i = 0; i < ex.headers.length; i += 2) res.setHeader(ex.headers[i]!, ex.headers[i + 1]!)
    res.once('close', () => done(res.statusCode))
    runHandlers(stages, refuse, req, res, (err) => {
      if (res.headersSent) return void (err === undefined || res.destroy())
      sendError(req, res, err ?? new ServiceError('not_found', `Nothing at ${req.method} ${e.path}.`), parts.logError)
    })
  }
}

/**
 * MCP's DNS rebinding defence (Streamable HTTP, Security Warning): a browser page may call the
 * resource only from this origin. Clients that are not browsers send no Origin and are not concerned.
 */
function ownOriginOnly(own: string, path: string): RequestHandler {
  return function originCheck(req, _res, next) {
    const origin = req.headers.origin
    if (origin !== undefined && origin !== own)
      throw new ServiceError(
        'invalid_origin',
        `Web pages of other origins may not call ${path}; call it from ${own} or from a client that is not a browser.`,
      )
    next()
  }
}
