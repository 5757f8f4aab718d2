import type { ServerResponse } from 'node:http'
import { ServiceError } from '../errors.ts'
import { isReadAction, type ActionContext, type Call, type ReadAction, type Step } from './action.ts'
import type { Endpoint } from './endpoint.ts'
import { LazyQueryInput } from './read-path.ts'
import { ANONYMOUS, hasScope, insufficientScope } from './bearer.ts'
import { sendPrepared } from './conditional.ts'
import { sendError, type LogError } from './errors-middleware.ts'
import type { Exchange, PipelineRow } from './pipeline.ts'
import type { rateLimiters } from './rate-limits.ts'
import { credential, drawRead, resourceOf, type Headers, type Resource, type StageDeps } from './row-stages.ts'

/** What the rows' steps are made of, built once per app. */
export interface RowParts extends StageDeps {
  ctx: ActionContext
  resources: readonly Resource[]
  limiters?: ReturnType<typeof rateLimiters>
  /** The name/value pair naming the build the protected resource's answers come from. */
  buildHeader: () => string[]
  parseQuery: (query: string | null) => Record<string, unknown>
  logError: LogError
}

/**
 * A row of the endpoint table as the pipeline runs it: its steps, listed once here for every
 * row (REST, OAuth, MCP and OAI alike), built once, then run in order by `compose`: the write
 * budgets, the resource's own guard, the credential, the scope and read budget, then its action
 * (a prepared read sent in one write, or the action's own steps).
 */
export function rowAnswer(e: Endpoint, parts: RowParts): PipelineRow {
  const resource = resourceOf(parts.resources, e.path)
  const { limiters, readBudget } = parts
  const steps: Step[] = []
  // A write or a credential draws on the general budget, an issuance also on its own.
  if (limiters && e.kind !== 'read') steps.push(limiters.writes)
  if (limiters && e.budget && e.budget !== 'reads') steps.push(limiters[e.budget])
  const guard = resource?.guard
  if (guard) steps.push((call) => guard(call.req))
  // A document outside the protected resources reads the same for everyone.
  if (resource)
    steps.push((call) => {
      const found = credential(resource, call.req, parts, pushTo(call))
      if (!(found instanceof Promise)) return void (call.principal = found)
      return found.then((principal) => void (call.principal = principal))
    })
  // A read checks the row's scope; a message to /mcp checks the scope of what it calls itself.
  const scope = isReadAction(e.action) ? e.scope : undefined
  if (scope)
    steps.push((call) => {
      if (!hasScope(call.principal, scope)) throw insufficientScope(scope, resource!.metadataUrl)
    })
  if (readBudget && e.budget === 'reads')
    steps.push((call) => drawRead(readBudget, call.principal, call.req, parts, pushTo(call)))
  if (isReadAction(e.action)) steps.push(readStep(e.action, resource, parts))
  else steps.push(...e.action.handle(parts.ctx))
  const refuse = !isReadAction(e.action) && e.action.refuse ? e.action.refuse(parts.ctx) : undefined

  const run = compose(steps)
  const failed = (call: Call, err: unknown, done: (status: number) => void) => {
    const page = refuse?.(err, call)
    if (page) page.catch((second: unknown) => answerError(call, second, parts.logError))
    else answerError(call, err, parts.logError)
    finished(call.res, done)
  }
  return {
    method: e.method,
    path: e.path,
    ...(e.page ? { page: true } : {}),
    answer(ex: Exchange, params: Record<string, string>, done: (status: number) => void) {
      const call: Call = {
        req: ex.req,
        res: ex.res,
        params,
        target: { path: ex.path, search: ex.search },
        headers: ex.headers,
        principal: ANONYMOUS,
      }
      // No closure per request on the way that waits for nothing (an anonymous prepared read).
      try {
        const running = run(call)
        if (running)
          running.then(
            () => ended(call, e, parts.logError, done),
            (err: unknown) => failed(call, err, done),
          )
        else ended(call, e, parts.logError, done)
      } catch (err) {
        failed(call, err, done)
      }
    },
  }
}

/**
 * Runs steps in order, each once the one before has settled: synchronously for as long as the
 * steps return nothing (the prepared read of an anonymous caller takes no turn of the event
 * loop), then on the promise of the first that waits. A throw or a rejection stops the run.
 */
export function compose(steps: readonly Step[]): (call: Call) => Promise<void> | undefined {
  const from = (i: number, call: Call): Promise<void> | undefined => {
    for (; i < steps.length; i++) {
      const waiting = steps[i]!(call)
      if (waiting instanceof Promise) {
        const next = i + 1
        return waiting.then(() => from(next, call))
      }
    }
    return undefined
  }
  return (call) => from(0, call)
}

/** The last step of a prepared read: the action's read, and the answer in one write (conditional.ts). */
function readStep(action: ReadAction, resource: Resource | undefined, parts: RowParts): Step {
  const read = action.read(parts.ctx)
  const build = resource ? parts.buildHeader : () => []
  return (call) => {
    const prepared = read(new LazyQueryInput(call.params, call.target.search, parts.parseQuery))
    sendPrepared(call.req, call.res, prepared, action.cacheControl, [...call.headers, ...build()])
  }
}

/**
 * Once the steps have run: the answer is sent, or it is on its way (`done` when it closes); a
 * row whose steps all passed the request on, without answering, has nothing here.
 */
function ended(call: Call, e: Endpoint, logError: LogError, done: (status: number) => void) {
  if (!call.res.headersSent)
    answerError(call, new ServiceError('not_found', `Nothing at ${call.req.method} ${e.path}.`), logError)
  finished(call.res, done)
}

function finished(res: ServerResponse, done: (status: number) => void) {
  if (res.writableEnded) done(res.statusCode)
  else res.once('close', () => done(res.statusCode))
}

/** A refusal or a failure: answered as an error with the call's headers, or, once its answer has begun, its connection closed. */
function answerError(call: Call, err: unknown, logError: LogError) {
  if (call.res.headersSent) call.res.destroy(err instanceof Error ? err : undefined)
  else sendError(call.req, call.res, err, logError, call.headers)
}

/** A step's headers on an answer not begun yet: carried by whatever it becomes. */
const pushTo =
  (call: Call): Headers =>
  (pairs) =>
    void call.headers.push(...pairs)

/**
 * The bearer check of a path that is no row's but lies under a protected resource (a 404 or
 * 405 there): every call to a resource is checked (RFC 6750 §2.1), so a refusal is a 401 first.
 */
export function resourceCheck(parts: RowParts): (ex: Exchange, path: string) => Promise<unknown> | undefined {
  return (ex, path) => {
    const resource = resourceOf(parts.resources, path)
    if (!resource) return undefined
    return Promise.resolve(credential(resource, ex.req, parts, (pairs) => void ex.headers.push(...pairs)))
  }
}
