import type { Express, RequestHandler, Response } from 'express'
import { ServiceError } from '../errors.ts'
import {
  isExchangeAction,
  isReadAction,
  type ActionContext,
  type ExchangeAction,
  type HandlerAction,
  type ReadAction,
} from './action.ts'
import type { Endpoint } from './endpoint.ts'
import type { PreparedBody } from '../../post-index/post-index.ts'
import type { Scope } from '../auth/policy.ts'
import { LazyQueryInput, type ReadInput } from './read-path.ts'
import type { ReadBudget } from './read-budget.ts'
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
 * read sent in one write, an exchange answered on the plain request, or Express-style handlers.
 */
export function rowAnswer(e: Endpoint, parts: RowParts): PipelineRow {
  const resource = resourceOf(parts.resources, e.path)
  const answer = isReadAction(e.action)
    ? readAnswer(e, e.action, resource, parts)
    : isExchangeAction(e.action)
      ? exchangeAnswer(e, e.action, resource, parts)
      : handlerAnswer(e, e.action, resource, parts)
  return { method: e.method, path: e.path, answer, ...(e.page ? { page: true } : {}) }
}

/** A prepared read's row, as built once. */
interface ReadRow {
  scope?: Scope
  resource?: Resource
  budget?: ReadBudget
  read: (input: ReadInput) => PreparedBody
  cacheControl?: string
  /** The build header of the protected resource's answers; none for documents outside it. */
  build: () => string[]
  parts: RowParts
}

function readAnswer(e: Endpoint, action: ReadAction, resource: Resource | undefined, parts: RowParts) {
  const row: ReadRow = {
    ...(e.scope ? { scope: e.scope } : {}),
    ...(resource ? { resource } : {}),
    ...(e.budget === 'reads' && parts.readBudget ? { budget: parts.readBudget } : {}),
    read: action.read(parts.ctx),
    ...(action.cacheControl ? { cacheControl: action.cacheControl } : {}),
    build: resource ? parts.buildHeader : () => [],
    parts,
  }
  return (ex: Exchange, params: Record<string, string>, done: (status: number) => void) =>
    answerRead(row, ex, params, done)
}

/** One read: the credential (at once when there is none), then `sendRead`; any refusal answered as an error. */
function answerRead(row: ReadRow, ex: Exchange, params: Record<string, string>, done: (status: number) => void) {
  const fail = failure(ex, row.parts.logError, done)
  try {
    // A document outside the protected resources reads the same for everyone.
    const principal = row.resource ? credential(row.resource, ex.req, row.parts, pushTo(ex)) : ANONYMOUS
    if (principal instanceof Promise) principal.then((found) => sendRead(row, ex, params, found, done)).catch(fail)
    else sendRead(row, ex, params, principal, done)
  } catch (err) {
    fail(err)
  }
}

/** The caller's scope and budget, the action's read, and the answer in one write (conditional.ts). */
function sendRead(
  row: ReadRow,
  ex: Exchange,
  params: Record<string, string>,
  principal: Principal,
  done: (status: number) => void,
): void {
  if (row.scope && !hasScope(principal, row.scope)) throw insufficientScope(row.scope, row.resource!.metadataUrl)
  if (row.budget) drawRead(row.budget, principal, ex.req, row.parts, pushTo(ex))
  const prepared = row.read(new LazyQueryInput(params, ex.search, row.parts.parseQuery))
  done(sendPrepared(ex.req, ex.res, prepared, row.cacheControl, [...ex.headers, ...row.build()]))
}

/**
 * How a read or an exchange ends on a refusal or a failure: answered as an error with the
 * exchange's headers, or, when its answer has begun, its connection closed.
 */
const failure =
  (ex: Exchange, logError: LogError, done: (status: number) => void) =>
  (err: unknown): void => {
    if (ex.res.headersSent) ex.res.destroy(err instanceof Error ? err : undefined)
    else sendError(ex.req, ex.res, err, logError, ex.headers)
    done(ex.res.statusCode)
  }

/** A stage's headers on an answer not begun yet: carried by whatever it becomes. */
const pushTo =
  (ex: Exchange): Headers =>
  (pairs) =>
    void ex.headers.push(...pairs)

/**
 * The bearer check of a path that is no row's but lies under a protected resource (a 404 or
 * 405 there): every call to a resource is checked (RFC 6750 §2.1), so a refusal is a 401 first.
 */
export function resourceCheck(parts: RowParts): (ex: Exchange, path: string) => Promise<unknown> | undefined {
  return (ex, path) => {
    const resource = resourceOf(parts.resources, path)
    if (!resource) return undefined
    return Promise.resolve(credential(resource, ex.req, parts, pushTo(ex)))
  }
}

/**
 * An exchange's row: the resource's guard, the credential and the read budget, run on the plain
 * request as a read's are, then the action, which reads the body and answers. Only reads take
 * this way: the write and issuance budgets are Express middleware (rate-limits.ts).
 */
function exchangeAnswer(e: Endpoint, action: ExchangeAction, resource: Resource | undefined, parts: RowParts) {
  if (e.kind !== 'read' || (e.budget && e.budget !== 'reads'))
    throw new Error(`${e.operationId}: an exchange row must be a read on the read budget`)
  const handle = action.exchange(parts.ctx)
  const budget = e.budget === 'reads' ? parts.readBudget : undefined
  return (ex: Exchange, _params: Record<string, string>, done: (status: number) => void) => {
    const fail = failure(ex, parts.logError, done)
    const answer = (principal: Principal) => {
      if (budget) drawRead(budget, principal, ex.req, parts, pushTo(ex))
      const answered = handle({
        req: ex.req,
        res: ex.res,
        principal,
        target: { path: ex.path, search: ex.search },
        headers: ex.headers,
      })
      if (answered instanceof Promise) answered.then(() => done(ex.res.statusCode), fail)
      else done(ex.res.statusCode)
    }
    try {
      resource?.guard?.(ex.req)
      const principal = resource ? credential(resource, ex.req, parts, pushTo(ex)) : ANONYMOUS
      if (principal instanceof Promise) principal.then(answer).catch(fail)
      else answer(principal)
    } catch (err) {
      fail(err)
    }
  }
}

function handlerAnswer(e: Endpoint, action: HandlerAction, resource: Resource | undefined, parts: RowParts) {
  const { limiters, readBudget } = parts
  const stages: RequestHandler[] = []
  // A write or a credential draws on the general budget, an issuance also on its own.
  if (limiters && e.kind !== 'read') stages.push(limiters.writes)
  if (limiters && e.budget && e.budget !== 'reads') stages.push(limiters[e.budget])
  const guard = resource?.guard
  if (guard)
    stages.push(function resourceGuard(req, _res, next) {
      guard(req)
      next()
    })
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
