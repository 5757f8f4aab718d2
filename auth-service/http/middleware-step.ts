import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestHandler } from 'express'
import type { Step } from './action.ts'

/**
 * A connect-style middleware of a library (a body parser, a rate limiter) as a step: what it
 * needs of the request and response is node's own, and its `next(err)` is the step's refusal.
 */
export function middleware(handler: RequestHandler): Step {
  const run = handler as unknown as (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void
  return (call) =>
    new Promise<void>((resolve, reject) => {
      run(call.req, call.res, (err) => (err === undefined ? resolve() : reject(err)))
    })
}
