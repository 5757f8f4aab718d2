import { Writable } from 'node:stream'
import type request from 'supertest'
import type { RequestHandler } from 'express'
import { createApp } from '../../auth-service/app.ts'
import { DEFAULT_RATE_LIMITS } from '../../auth-service/defaults.ts'
import { createLogger } from '../../auth-service/ops/logger.ts'
import { createMetrics } from '../../auth-service/ops/metrics.ts'
import { testDeps } from './index.ts'

/**
 * Two apps on one store, one answering on the fast paths (REST reads, plain MCP tool calls) and
 * one through the whole chain, each with its own log lines. `reachedChain` lists the requests
 * that reached the fast app's middleware chain (its metrics middleware runs only there), so a
 * fast path that stopped answering is caught.
 */
export async function fastPathPair() {
  const deps = await testDeps()
  const logs: Record<'fast' | 'chain', string[]> = { fast: [], chain: [] }
  const reachedChain: string[] = []
  const make = (fast: boolean) => {
    const lines = logs[fast ? 'fast' : 'chain']
    const stream = new Writable({
      write(chunk, _e, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean))
        done()
      },
    })
    const metrics = createMetrics()
    if (fast) {
      const middleware = metrics.middleware
      metrics.middleware = ((req, res, next) => {
        reachedChain.push(req.originalUrl)
        middleware(req, res, next)
      }) as RequestHandler
    }
    return createApp({
      ...deps,
      readFastPath: fast,
      rateLimits: DEFAULT_RATE_LIMITS,
      logger: createLogger('info', stream),
      metrics,
    })
  }
  return { deps, fast: make(true), chain: make(false), logs, reachedChain }
}

const VOLATILE = new Set(['date', 'x-request-id', 'connection', 'keep-alive'])

/**
 * A response's headers as the pair compares them; the budget's counts are shared through the store, so
 * only their form is.
 */
export const headersOf = (res: request.Response) =>
  Object.fromEntries(
    Object.entries(res.headers)
      .filter(([k]) => !VOLATILE.has(k))
      .map(([k, v]) => [k, k === 'ratelimit' ? String(v).replace(/r=\d+; t=\d+/, 'r=N; t=N') : v]),
  )
