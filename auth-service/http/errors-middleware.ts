import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ErrorRequestHandler, RequestHandler } from 'express'
import { LatticeError, ServiceError, isLoggable } from '../errors.ts'

/** Answers any API path no route took (and anything the site does not serve): JSON, never HTML. */
export const apiNotFound: RequestHandler = (req) => {
  throw new ServiceError(
    'not_found',
    `Nothing at ${req.method} ${req.originalUrl.split('?')[0]!.slice(0, 200)}. The API catalog is at /api/v1.`,
  )
}

/** A route that exists but not for this method. */
export function methodNotAllowed(allow: string): RequestHandler {
  return (req) => {
    throw new ServiceError('method_not_allowed', `${req.method} is not supported here; use ${allow}.`, {
      headers: { Allow: allow },
    })
  }
}

export type LogError = (error: unknown, context: { method: string; path: string }) => void

/**
 * Whether the error handler answered the request: a refusal, whatever its status (an
 * authorization refused goes back to the client as a 303, RFC 6749 §4.1.2.1). The issuance
 * budgets count successes only.
 */
export const wasRefused = (res: ServerResponse): boolean => refused.has(res)
const refused = new WeakSet<ServerResponse>()

/**
 * The one place errors become responses: an error of the family answers in its own wire shape
 * (its details go to the log unless it is the client's own mistake), body-parser refusals as
 * 4xx, anything else as a 500 `server_error` whose details go to the log only. It writes on a
 * plain Node response, so the pipeline and Express answer errors alike; `headers` are name/value
 * pairs the answer carries besides (the pipeline's constant ones, a budget's).
 */
export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  err: unknown,
  logError: LogError,
  headers: readonly string[] = [],
): void {
  const context = { method: req.method ?? '', path: (req.url ?? '').split('?')[0]! }
  let e: LatticeError
  if (err instanceof LatticeError) {
    e = err
    if (isLoggable(err)) logError(err, context)
  } else if (isHttpError(err) && err.status < 500) e = fromHttpError(err)
  else {
    logError(err, context)
    e = new ServiceError('server_error', 'The server failed to answer; retry with backoff.')
  }
  const { status, headers: own, body } = e.response()
  const json = Buffer.from(JSON.stringify(body))
  refused.add(res)
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!)
  for (const [name, value] of Object.entries(own)) res.setHeader(name, value)
  res.setHeader('Cache-Control', 'no-store')
  res.setHeader('Content-Type', 'application/json; charset=utf-8')
  res.setHeader('Content-Length', json.length)
  res.statusCode = status
  res.end(req.method === 'HEAD' ? undefined : json)
}

/** sendError as Express's error handler, for what Express still answers (the site, health). */
export function errorHandler(logError: LogError): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err)
    sendError(req, res, err, logError)
  }
}

interface HttpError {
  status: number
  type?: string
  expose?: boolean
}

function isHttpError(err: unknown): err is HttpError {
  return typeof err === 'object' && err !== null && typeof (err as HttpError).status === 'number'
}

/** Maps the errors Express's body parsers throw (http-errors) to our codes. */
function fromHttpError(err: HttpError): ServiceError {
  switch (err.type ?? '') {
    case 'entity.too.large':
      return new ServiceError('payload_too_large', 'The request body is too large.')
    case 'entity.parse.failed':
      return new ServiceError('invalid_request', 'The request body is not valid JSON.')
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new ServiceError('unsupported_media_type', 'The request body must be UTF-8 without content encoding.')
    default:
      if (err.status === 413) return new ServiceError('payload_too_large', 'The request body is too large.')
      if (err.status === 415) return new ServiceError('unsupported_media_type', 'Unsupported request body type.')
      return new ServiceError('invalid_request', 'The request could not be read.')
  }
}
