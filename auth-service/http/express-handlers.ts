import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express'

/**
 * Makes a plain request and response Express's, as `app.handle` does before its router (the
 * prototypes that give `req.query`, `req.ip`, `res.json` the app's settings, and `res.locals`),
 * for the handlers of a row; the pipeline has found the row and its parameters already.
 */
export function asExpress(
  app: Express,
  req: IncomingMessage,
  res: ServerResponse,
  params: Record<string, string>,
): [Request, Response] {
  Object.setPrototypeOf(req, app.request)
  Object.setPrototypeOf(res, app.response)
  const request = req as Request
  const response = res as Response
  request.res = response
  response.req = request
  response.locals = Object.create(null)
  request.params = params
  request.originalUrl = req.url!
  request.baseUrl = ''
  return [request, response]
}

/**
 * Runs Express-style handlers in order, as Express 5 does: `next()` goes on, a throw, a rejected
 * promise or `next(err)` goes to the error handlers, which may pass it on with `next(err)`.
 * `end` gets what no handler answered: nothing when every handler passed the request on, else
 * the error.
 */
export function runHandlers(
  handlers: readonly RequestHandler[],
  errorHandlers: readonly ErrorRequestHandler[],
  req: Request,
  res: Response,
  end: (err?: unknown) => void,
): void {
  let i = 0
  let j = 0
  const call = (run: () => unknown) => {
    try {
      const result = run()
      if (result instanceof Promise) result.catch((err: unknown) => fail(err ?? new Error('Rejected promise')))
    } catch (err) {
      fail(err)
    }
  }
  function next(err?: unknown): void {
    const handler = handlers[i++]
    if (err !== undefined && err !== 'route' && err !== 'router') fail(err)
    else if (!handler) end()
    else call(() => handler(req, res, next))
  }
  function fail(err: unknown): void {
    const handler = errorHandlers[j++]
    if (!handler) end(err)
    else call(() => handler(err, req, res, (passed?: unknown) => fail(passed ?? err)))
  }
  next()
}
