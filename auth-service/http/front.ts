import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import { logRequestLine, requestIdOf } from '../ops/logger.ts'
import type { Metrics } from '../ops/metrics.ts'
import { rateLimitHeaders, type ReadDecision } from './read-budget.ts'

/**
 * What mcp/fast-path.ts answers with. The app no longer runs that fast path: every request goes
 * through the one pipeline (pipeline.ts), which frames, logs and counts each answer itself. This
 * module goes when auth-service/mcp/ no longer has a fast path.
 */

/** Answers a request, or hands it on to `fallback` (the app's middleware chain) untouched. */
export type FrontHandler = (req: IncomingMessage, res: ServerResponse, fallback: () => void) => void

/**
 * What a fast path does with an error it did not expect: the chain answers the request in full
 * (its error handler included) unless the answer has begun, in which case the connection is cut.
 * Nothing in front of Express may throw: Node would end the process.
 */
export function recover(res: ServerResponse, fallback: () => void, err: unknown): void {
  if (res.headersSent) res.destroy(err instanceof Error ? err : undefined)
  else fallback()
}

/** What the chain's middleware adds to every answer, which a fast path adds itself. */
export interface FrontAnswerDeps {
  /** Name/value pairs every API response carries: security headers and CORS. */
  constantHeaders: readonly string[]
  logger?: Logger
  metrics?: Metrics
  /** False while the server drains: answers then close their connection. */
  accepting?: () => boolean
}

/**
 * The headers of a success, as the chain sends them: the constant ones, `more`, the read
 * budget's, the request id (returned too, for the log line) and `Connection: close` while the
 * server drains.
 */
export function successHeaders(
  deps: FrontAnswerDeps,
  req: IncomingMessage,
  decision: ReadDecision | undefined,
  more: readonly string[] = [],
): { headers: string[]; id: string | undefined } {
  const headers = [...deps.constantHeaders, ...more]
  if (decision) headers.push(...rateLimitHeaders(decision))
  const id = deps.logger ? requestIdOf(req) : undefined
  if (id) headers.push('X-Request-Id', id)
  if (deps.accepting && !deps.accepting()) headers.push('Connection', 'close')
  return { headers, id }
}

/** The metrics and the request log line of an answer, as the chain records them; `route` is the metrics' label. */
export function recordAnswer(
  deps: FrontAnswerDeps,
  req: IncomingMessage,
  id: string | undefined,
  route: string,
  status: number,
  started: number,
): void {
  const ms = performance.now() - started
  deps.metrics?.observe(req.method!, route, status, ms / 1000)
  if (deps.logger) logRequestLine(deps.logger, req, id!, status, ms)
}
