import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { ServiceError } from '../errors.ts'
import { requestIdOf, type RequestLog } from '../ops/logger.ts'
import type { Metrics } from '../ops/metrics.ts'
import { CORS_HEADERS, PREFLIGHT_HEADERS } from './cors.ts'
import { sendError, type LogError } from './errors-middleware.ts'
import { ASTERISK, originForm, requestTarget } from './request-target.ts'
import { routeTable, type Routed } from './route-table.ts'

/** One request on its way through the pipeline: what every stage may read or add to. */
export interface Exchange {
  req: IncomingMessage
  res: ServerResponse
  /** Name/value pairs the answer carries, whatever it is: constant ones, request id, CORS, a budget's. */
  headers: string[]
  /** The path of the request's target, as sent (request-target.ts). */
  path: string
  /** The query string, unparsed (reads that look at it parse it). */
  search: string | null
  /** The request id of the log line, when requests are logged. */
  id: string | undefined
  started: number
}

/** A row of the endpoint table as the pipeline runs it: its steps built once (http/runner.ts). */
export interface PipelineRow extends Routed {
  /** The row answers pages for people (the consent page): they carry the pages' security headers. */
  page?: boolean
  /** Answers the request, errors included; calls `done` with the status once the answer is sent. */
  answer(ex: Exchange, params: Record<string, string>, done: (status: number) => void): void
}

export interface PipelineDeps {
  rows: readonly PipelineRow[]
  /** The security headers of pages: the site's and the rows marked `page` (name/value pairs). */
  constantHeaders: readonly string[]
  /** The security headers of every other answer of the table: documents for programs. */
  apiHeaders: readonly string[]
  /** Where each answer's request line goes; none: no request ids and no lines. */
  requestLog?: RequestLog
  metrics?: Metrics
  /** False while the server drains: answers then close their connection. */
  accepting?: () => boolean
  logError: LogError
  /** The bearer check of a path under a protected resource that no row has (runner.ts resourceCheck). */
  checkCredential?: (ex: Exchange, path: string) => Promise<unknown> | undefined
  /** What answers a path no row or namespace of the table has: the site and the health endpoints. */
  rest: RequestListener
}

/** The pipeline as built once: its deps, the table's finder and the CORS pairs. */
interface Built extends PipelineDeps {
  find: ReturnType<typeof routeTable<PipelineRow>>
  cors: readonly string[]
}

/**
 * The one way every request travels: request id, constant headers, a path that decodes, the
 * table's row (with CORS and a JSON 404 or 405 under the API's namespaces), the row's own stages
 * (budgets, credential, scope, action: runner.ts), then one log line and one metric. What
 * is not the table's goes to `rest` with the same frame around it.
 */
export function pipeline(deps: PipelineDeps): RequestListener {
  const built: Built = { ...deps, find: routeTable(deps.rows), cors: Object.entries(CORS_HEADERS).flat() }
  return (req, res) => {
    // The last line of defence: whatever a request holds, a throw answers that request, never
    // ends the process (every stage's own refusals and failures are answered before this).
    try {
      travel(built, req, res)
    } catch (err) {
      if (res.headersSent) res.destroy()
      else sendError(req, res, err, built.logError)
    }
  }
}

/** One request, from its arrival to its log line. */
function travel(p: Built, req: IncomingMessage, res: ServerResponse) {
  const started = performance.now()
  const target = requestTarget(req.url ?? '')
  const path = typeof target === 'object' ? target.path : ''
  const search = typeof target === 'object' ? target.search : null
  // Every later reader of req.url (Express, the static site, the logs) sees the origin-form only.
  if (typeof target === 'object') req.url = originForm(target)
  // null: a target that is no path or a path that does not decode, refused below; undefined: not
  // the table's (the site's).
  const place = typeof target === 'object' && decodes(path) ? p.find(req.method!, path) : null
  // Pages carry the pages' security headers; the table's other answers are documents for programs.
  const headers = [...(place && !('row' in place && place.row.page) ? p.apiHeaders : p.constantHeaders)]
  const id = p.requestLog ? requestIdOf(req) : undefined
  if (id) headers.push('X-Request-Id', id)
  if (p.accepting && !p.accepting()) headers.push('Connection', 'close')
  const ex: Exchange = { req, res, headers, path, search, id, started }
  if (target === ASTERISK && req.method === 'OPTIONS') {
    // RFC 9110 §9.3.7: OPTIONS * asks about the server as a whole; it has nothing more to say.
    res.writeHead(204, headers).end()
    return record(p, ex, 'unmatched', 204)
  }
  if (place === null)
    return refuse(
      p,
      ex,
      'unmatched',
      new ServiceError('invalid_request', typeof target === 'object' ? MALFORMED_PATH : NOT_A_PATH),
    )

  if (!place) {
    for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!)
    res.once('close', () => record(p, ex, routeOf(req), res.statusCode))
    return p.rest(req, res)
  }
  // The API, agents, OAuth and discovery are meant for any origin's scripts: no cookies are involved.
  headers.push(...p.cors)
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
    res.writeHead(204, [...headers, ...PREFLIGHT_HEADERS]).end()
    return record(p, ex, 'unmatched', 204)
  }
  if ('row' in place) return place.row.answer(ex, place.params, (status) => record(p, ex, place.row.path, status))

  const [route, refusal] =
    'allow' in place
      ? [
          place.path,
          new ServiceError('method_not_allowed', `${req.method} is not supported here; use ${place.allow}.`, {
            headers: { Allow: place.allow },
          }),
        ]
      : [
          'unmatched',
          new ServiceError(
            'not_found',
            `Nothing at ${req.method} ${path.slice(0, 200)}. The API catalog is at /api/v1.`,
          ),
        ]
  // A path of a protected resource is bearer-checked even when no row has it: a bad credential is a 401 first.
  const checked = p.checkCredential?.(ex, path)
  if (!checked) return refuse(p, ex, route, refusal)
  checked.then(
    () => refuse(p, ex, route, refusal),
    (err: unknown) => refuse(p, ex, route, err),
  )
}

const MALFORMED_PATH = 'The path has malformed percent-encoding (RFC 3986 §2.1); escape "%" as %25.'
const NOT_A_PATH =
  'The request target is not a path this server answers (RFC 9112 §3.2): send /path?query, or an http(s) URL.'

/** Answers a refusal made before any row's stages, and records it. */
function refuse(p: Built, ex: Exchange, route: string, err: unknown): void {
  sendError(ex.req, ex.res, err, p.logError, ex.headers)
  record(p, ex, route, ex.res.statusCode)
}

/** The one log line and the one metric of an answer; `route` is the metrics' label (a row's path). */
function record(p: Built, ex: Exchange, route: string, status: number): void {
  const ms = performance.now() - ex.started
  p.metrics?.observe(ex.req.method!, route, status, ms / 1000)
  p.requestLog?.(ex.req, ex.id!, status, ms)
}

/** Whether a path's percent-encoding decodes (RFC 3986 §2.1 escapes of UTF-8, RFC 3629). */
function decodes(path: string): boolean {
  if (!path.includes('%')) return true
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}

/** The metrics' label of what the rest answered: Express's route template, else the static site. */
function routeOf(req: IncomingMessage): string {
  const route = (req as { route?: { path?: unknown } }).route
  return typeof route?.path === 'string' ? route.path : 'static'
}
