import { Writable } from 'node:stream'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { DEFAULT_RATE_LIMITS } from '../../auth-service/http/rate-limits.ts'
import { createLogger } from '../../auth-service/ops/logger.ts'
import { createMetrics } from '../../auth-service/ops/metrics.ts'
import { agentToken, postExchange } from '../support/agent.ts'
import { testDeps } from '../support/index.ts'

/** Two apps on one store, one answering reads on the hot path and one through the whole chain. */
async function pair() {
  const deps = await testDeps()
  const logs: Record<'hot' | 'chain', string[]> = { hot: [], chain: [] }
  const make = (hot: boolean) => {
    const lines = logs[hot ? 'hot' : 'chain']
    const stream = new Writable({
      write(chunk, _e, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean))
        done()
      },
    })
    return createApp({ ...deps, hotReads: hot, rateLimits: DEFAULT_RATE_LIMITS, logger: createLogger('info', stream), metrics: createMetrics() })
  }
  return { deps, hot: make(true), chain: make(false), logs }
}

const VOLATILE = new Set(['date', 'x-request-id', 'connection', 'keep-alive'])
/** Headers to compare; the budget's counts are shared through the store, so only their form is. */
const headersOf = (res: request.Response) =>
  Object.fromEntries(
    Object.entries(res.headers)
      .filter(([k]) => !VOLATILE.has(k))
      .map(([k, v]) => [k, k === 'ratelimit' ? String(v).replace(/r=\d+; t=\d+/, 'r=N; t=N') : v]),
  )

describe('the hot read path', () => {
  it('answers exactly as the middleware chain: status, headers and body', async () => {
    const { hot, chain } = await pair()
    const key = (await request(chain).post('/api/v1/keys')).body.key as string
    const { identity_assertion, access_token: token } = await agentToken(chain)
    const narrow = (await postExchange(chain, identity_assertion, { scope: 'research.read' })).body.access_token as string
    const etag = (await request(chain).get('/api/v1/posts/hashing-rings')).headers.etag!
    await request(hot).get('/api/v1/posts/hashing-rings') // the same read on both budgets

    const cases: Array<[string, Record<string, string>]> = [
      ['/api/v1/posts', {}],
      ['/api/v1/posts?limit=2', {}],
      ['/api/v1/posts?limit=0', {}],
      ['/api/v1/posts/hashing-rings', {}],
      ['/api/v1/posts/hashing-rings', { Authorization: `Bearer ${key}` }],
      ['/api/v1/posts/hashing-rings', { Authorization: `Bearer ${token}` }],
      ['/api/v1/posts/hashing-rings', { Authorization: 'Bearer forged' }],
      ['/api/v1/posts/hashing-rings', { 'If-None-Match': etag }],
      ['/api/v1/posts/no-such-post', {}],
      ['/api/v1/posts/caf%C3%A9', {}],
      ['/api/v1/search?q=hashing', {}],
      ['/api/v1/search?q=hashing&limit=1', { Authorization: `Bearer ${token}` }],
      ['/api/v1/search?q=hashing', { Authorization: `Bearer ${narrow}` }],
      ['/api/v1/search?q=', {}],
      ['/api/v1/search?q=a&q=b', {}],
    ]
    for (const [path, headers] of cases) {
      const [a, b] = [await request(hot).get(path).set(headers), await request(chain).get(path).set(headers)]
      expect(a.status, path).toBe(b.status)
      expect(a.text, path).toBe(b.text)
      expect(headersOf(a), `${path} ${JSON.stringify(headers)}`).toEqual(headersOf(b))
    }
    const [headA, headB] = [await request(hot).head('/api/v1/posts/cafe-latency-notes'), await request(chain).head('/api/v1/posts/cafe-latency-notes')]
    expect(headersOf(headA)).toEqual(headersOf(headB))
  })

  it('logs and counts its answers like the chain', async () => {
    const { hot, chain, logs } = await pair()
    await request(hot).get('/api/v1/posts/hashing-rings?').set('X-Request-Id', 'same-id')
    await request(hot).get('/api/v1/posts/hashing-rings').set('X-Request-Id', 'same-id')
    await request(chain).get('/api/v1/posts/hashing-rings').set('X-Request-Id', 'same-id')
    const shape = (line: string) => {
      const { level, msg, req, res } = JSON.parse(line)
      return { level, msg, req: { ...req, remoteAddress: undefined }, res }
    }
    expect(shape(logs.hot.at(-1)!)).toEqual(shape(logs.chain.at(-1)!))
    const metrics = (await request(hot).get('/metrics')).text
    expect(metrics).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/posts\/:slug",status_code="200"\} 2/)
  })

  it('still honours a revocation at once', async () => {
    const { hot } = await pair()
    const { access_token: token } = await agentToken(hot)
    expect((await request(hot).get('/api/v1/posts/hashing-rings').set('Authorization', `Bearer ${token}`)).status).toBe(200)
    await request(hot).post('/oauth2/revoke').type('form').send({ token })
    expect((await request(hot).get('/api/v1/posts/hashing-rings').set('Authorization', `Bearer ${token}`)).status).toBe(401)
  })
})
