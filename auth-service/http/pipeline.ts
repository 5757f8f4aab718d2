import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import parseurl from 'parseurl'
import { ServiceError } from '../errors.ts'
import { logRequestLine, requestIdOf } from '../ops/logger.ts'
import type { Metrics } from '../ops/metrics.ts'
import { CORS_HEADERS, PREFLIGHT_HEADERS } from './cors.ts'
import { sendError, type LogError } from './errors-middleware.ts'
import { routeTable, type Routed } from './route-table.ts'

/** One request on its way through the pipeline: what every stage may read or add to. */
export interface Exchange {
  req: IncomingMessage
  res: ServerResponse
  /** Name/value pairs the answer carries, whatever it is: constant ones, request id, CORS, a budget's. */
  headers: string[]
  /** The query string, unparsed (reads that look at it parse it). */
  search: string | null
  /** The request id of the log line, when requests are logged. */
  id: string | undefined
  started: number
}

/** A row of the endpoint table as the pipeline runs it: its stages built once (http/row-answers.ts). */
export interface PipelineRow extends Routed {
  /** Answers the request, errors included; calls `done` with the status once the answer is sent. */
  answer(ex: Exchange, params: Record<string, string>, done: (status: number) => void): void
}

export interface PipelineDeps {
  rows: readonly PipelineRow[]
  /** Name/value pairs every response carries (the security headers). */
  constantHeaders: readonly string[]
  logger?: Logger
  metrics?: Metrics
  /** False while the server drains: answers then close their connection. */
  accepting?: () => boolean
  logError: LogError
  /** The bearer check of a path under a protected resource that no row has (row-answers.ts resourceCheck). */
  checkCredential?: (ex: Exchange, path: string) => Promise<unknown> | undefined
  /** What answers a path no row or namespace of the table has: the site and the health endpoints. */
  rest: RequestListener
}

/**
 * The one way every request travels: request id, constant headers, a path that decodes, the
 * table's row (with CORS and a JSON 404 or 405 under the API's namespaces), the row's own stages
 * (credential, scope, budget, handler: row-answers.ts), then one log line and one metric. What
 * is not the table's goes to `rest` with the same frame around it.
 */
export function pipeline(deps: PipelineDeps): RequestListener {
  const find = routeTable(deps.rows)
  const cors = Object.entries(CORS_HEADERS).flat()

  const record = (ex: Exchange, route: string, status: number) => {
    const ms = performance.now() - ex.started
    deps.metrics?.observe(ex.req.method!, route, status, ms / 1000)
    if (deps.logger) logRequestLine(deps.logger, ex.req, ex.id!, status, ms)
  }

  return function pipeline(req, res) {
    const started = performance.now()
    const headers = [...deps.constantHeaders]
    const id = deps.logger ? requestIdOf(req) : undefined
    if (id) headers.push('X-Request-Id', id)
    if (deps.accepting && !deps.accepting()) headers.push('Connection', 'close')
    const url = parseurl(req)
    const path = url?.pathname ?? '/'
    const ex: Exchange = { req, res, headers, search: typeof url?.query === 'string' ? url.query : null, id, started }
    const refuse = (route: string, err: unknown) => {
      sendError(req, res, err, deps.logError, headers)
      record(ex, route, res.statusCode)
    }
    if (!decodes(path))
      return refuse(
        'unmatched',
        new ServiceError(
          'invalid_request',
          'The path has malformed percent-encoding (RFC 3986 §2.1); escape "%" as %25.',
        ),
      )

    const place = find(req.method!, path)
    if (!place) {
      for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!)
      res.once('close', () => record(ex, routeOf(req), res.statusCode))
      return deps.rest(req, res)
    }
    // The API, agents, OAuth and discovery are meant for any origin's scripts: no cookies are involved.
    headers.push(...cors)
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.writeHead(204, [...headers, ...PREFLIGHT_HEADERS]).end()
      return record(ex, 'unmatched', 204)
    }
    if ('row' in place) return place.row.answer(ex, place.params, (status) => record(ex, place.row.path, status))
    const refusal: [string, ServiceError] =
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
    const checked = deps.checkCredential?.(ex, path)
    if (!checked) return refuse(...refusal)
    checked.then(
      () => refuse(...refusal),
      (err: unknown) => refuse(refusal[0], err),
    )
  }
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
