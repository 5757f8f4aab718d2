import { Writable } from 'node:stream'
import type request from 'supertest'
import { expect } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { DEFAULT_RATE_LIMITS } from '../../auth-service/defaults.ts'
import { CONTENT_SECURITY_POLICY } from '../../auth-service/http/security-headers.ts'
import { createLogger } from '../../auth-service/ops/logger.ts'
import { createMetrics } from '../../auth-service/ops/metrics.ts'
import { testDeps } from './index.ts'

/** An app with the default budgets, its request log lines kept in `logs`, and metrics. */
export async function loggedApp() {
  const deps = await testDeps()
  const logs: string[] = []
  const stream = new Writable({
    write(chunk, _e, done) {
      logs.push(...chunk.toString().split('\n').filter(Boolean))
      done()
    },
  })
  const app = createApp({
    ...deps,
    rateLimits: DEFAULT_RATE_LIMITS,
    logger: createLogger('info', stream),
    metrics: createMetrics(),
  })
  return { deps, app, logs }
}

/**
 * The headers every answer of the pipeline carries, whoever made it: security headers, request
 * id, and CORS on the table's paths (not on a path refused before it is read: one that does not
 * decode). The table's answers are for programs (the REST security set); the rest are pages'.
 */
export function expectFrame(res: request.Response, label: string, id?: string, cors = true): void {
  const h = res.headers
  expect(h['content-security-policy'], label).toBe(cors ? "default-src 'none'; frame-ancestors 'none'" : PAGE_CSP)
  expect(h['x-content-type-options'], label).toBe('nosniff')
  if (cors) expect(h['access-control-allow-origin'], label).toBe('*')
  if (id !== undefined) expect(h['x-request-id'], label).toBe(id)
}

const PAGE_CSP = Object.entries(CONTENT_SECURITY_POLICY)
  .map(([name, values]) => `${name} ${values.join(' ')}`)
  .join(';')
