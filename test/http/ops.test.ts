import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { createApp } from '../../auth-service/app.ts'
import { createLogger } from '../../auth-service/ops/logger.ts'
import { createMetrics } from '../../auth-service/ops/metrics.ts'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import { postExchange } from '../support/agent.ts'
import { testDeps } from '../support/index.ts'

const deps = await testDeps()

describe('health and readiness', () => {
  it('answers /healthz and /readyz when the index is loaded and the store answers', async () => {
    const app = createApp(deps)
    expect((await request(app).get('/healthz')).body).toEqual({ status: 'ok' })
    const ready = await request(app).get('/readyz')
    expect(ready.status).toBe(200)
    expect(ready.body).toMatchObject({ status: 'ready', accepting: true, articles: 3, store: 'ok' })
  })

  it('is not ready while draining, before the index loads, or when the store is unreachable', async () => {
    const draining = await request(createApp({ ...deps, accepting: () => false })).get('/readyz')
    expect(draining.status).toBe(503)
    expect(draining.body.accepting).toBe(false)
    const loading = await request(createApp({ ...deps, posts: () => undefined })).get('/readyz')
    expect(loading.status).toBe(503)
    expect(loading.body.articles).toBeNull()
    const deadStore = createRedisStore('redis://127.0.0.1:1', { commandTimeoutMs: 300 })
    const down = await request(createApp({ ...deps, store: deadStore })).get('/readyz')
    expect(down.status).toBe(503)
    expect(down.body.store).toBe('unreachable')
    // Liveness does not depend on the store: restarting would not bring Redis back.
    expect((await request(createApp({ ...deps, store: deadStore })).get('/healthz')).status).toBe(200)
    await deadStore.close()
  })
})

describe('metrics', () => {
  it('counts requests by route template, never by slug or query', async () => {
    const app = createApp({ ...deps, metrics: createMetrics() })
    await request(app).get('/api/v1/posts/hashing-rings')
    await request(app).get('/api/v1/posts/cafe-latency-notes')
    await request(app).get('/api/v1/search?q=secret-query')
    await request(app).post('/api/v1/keys')
    const text = (await request(app).get('/metrics')).text
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/posts\/:slug",status_code="200"\} 2/,
    )
    expect(text).toContain('route="/api/v1/search"')
    expect(text).not.toContain('hashing-rings')
    expect(text).not.toContain('secret-query')
    expect(text).toMatch(/lattice_articles 3/)
    expect(text).toMatch(/lattice_credentials_issued_total\{kind="api_key"\} 1/)
  })
})

describe('request logs', () => {
  function capture() {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean))
        done()
      },
    })
    return { lines, logger: createLogger('info', stream) }
  }

  it('writes one JSON line per request with its id, and never a credential', async () => {
    const { lines, logger } = capture()
    const app = createApp({ ...deps, logger })
    const key = (await request(app).post('/api/v1/keys')).body.key as string
    const res = await request(app)
      .get('/api/v1/posts?limit=1')
      .set('Authorization', `Bearer ${key}`)
      .set('X-Request-Id', 'trace-abc.123')
    expect(res.headers['x-request-id']).toBe('trace-abc.123')
    await request(app).get('/claim?claim_token=lat_claim_SECRETVALUE')
    await request(app).get('/oauth2/authorize?response_type=code&state=STATESECRET&code_challenge=CHALLENGESECRET')
    await postExchange(app, 'ASSERTIONSECRET')

    const entries = lines.map((l) => JSON.parse(l))
    expect(entries.length).toBeGreaterThanOrEqual(4)
    const read = entries.find((e) => e.req?.id === 'trace-abc.123')
    expect(read).toMatchObject({
      msg: 'request completed',
      res: { statusCode: 200 },
      req: { method: 'GET', authorization: '[redacted]' },
    })
    const all = lines.join('\n')
    expect(all).not.toContain(key)
    expect(all).not.toContain(key.slice(9))
    expect(all).not.toContain('SECRETVALUE')
    expect(all).not.toContain('ASSERTIONSECRET')
    expect(all).not.toContain('STATESECRET')
    expect(all).not.toContain('CHALLENGESECRET')
    expect(all).toContain('claim_token=%5Bredacted%5D')
  })

  it('generates a request id when none (or a malformed one) is sent', async () => {
    const { logger } = capture()
    const app = createApp({ ...deps, logger })
    const res = await request(app).get('/healthz').set('X-Request-Id', 'bad id with spaces')
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })
})
