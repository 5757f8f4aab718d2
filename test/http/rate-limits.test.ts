import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { createApp } from '../../auth-service/app.ts'
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../../auth-service/defaults.ts'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import { postExchange, postRegistration } from '../support/agent.ts'
import { testDeps } from '../support/index.ts'

const limits: RateLimits = {
  ...DEFAULT_RATE_LIMITS,
  keysPerHour: 3,
  identitiesPerHour: 2,
  tokensPerMinute: 4,
  anonymousReadsPerMinute: 5,
  identifiedReadsPerMinute: 8,
}
const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })

/** Clients behind the proxy: X-Forwarded-For names each one, and only the loopback hop is trusted. */
async function proxiedApp(overrides: Partial<RateLimits> = {}) {
  const deps = await testDeps()
  return { deps, app: createApp({ ...deps, trustProxy: 'loopback', rateLimits: { ...limits, ...overrides } }) }
}

describe('rate limits', () => {
  it('throttles a flood of key requests from one address while other clients are unaffected', async () => {
    const { app } = await proxiedApp()
    const from = (ip: string) => request(app).post('/api/v1/keys').set('X-Forwarded-For', ip)
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7')).status).toBe(201)
    const refused = await from('203.0.113.7')
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual(errorBody('rate_limited'))
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.headers['ratelimit-policy']).toMatch(/"keys"; q=3; w=3600/)
    expect(refused.headers.ratelimit).toMatch(/"keys"; r=0; t=\d+/)
    expect((await from('198.51.100.20')).status).toBe(201)
  })

  it('does not let a client pick its address when the proxy is not trusted', async () => {
    const deps = await testDeps()
    const app = createApp({ ...deps, rateLimits: limits })
    for (let i = 0; i < 3; i++)
      expect((await request(app).post('/api/v1/keys').set('X-Forwarded-For', `10.0.0.${i}`)).status).toBe(201)
    expect((await request(app).post('/api/v1/keys').set('X-Forwarded-For', '10.0.0.99')).status).toBe(429)
  })

  it('limits registration and token exchange tightly', async () => {
    const { app } = await proxiedApp()
    const register = () => postRegistration(app, { 'X-Forwarded-For': '203.0.113.8' })
    const first = await register()
    expect(first.status).toBe(200)
    expect((await register()).status).toBe(200)
    expect((await register()).status).toBe(429)
    const exchange = () => postExchange(app, first.body.identity_assertion, {}, { 'X-Forwarded-For': '203.0.113.8' })
    for (let i = 0; i < 4; i++) expect((await exchange()).status).toBe(200)
    expect((await exchange()).status).toBe(429)
  })

  it('counts issued credentials only: malformed and refused requests leave the issuance budgets alone', async () => {
    const { app } = await proxiedApp({ writesPerMinute: 100 })
    const from = '203.0.113.10'
    for (let i = 0; i < 10; i++) {
      expect(
        (await request(app).post('/agent/identity').set('X-Forwarded-For', from).send({ type: 'nonsense' })).status,
      ).toBe(400)
      expect((await request(app).post('/api/v1/keys').set('X-Forwarded-For', from).send({ label: 42 })).status).toBe(
        400,
      )
      expect(
        (
          await request(app)
            .post('/oauth2/token')
            .set('X-Forwarded-For', from)
            .type('form')
            .send({ grant_type: 'password' })
        ).status,
      ).toBe(400)
    }
    // The whole budgets are still there: 2 registrations, 3 keys, 4 tokens, then 429.
    const register = () => request(app).post('/agent/identity').set('X-Forwarded-For', from).send({ type: 'anonymous' })
    const first = await register()
    expect(first.status).toBe(200)
    expect((await register()).status).toBe(200)
    expect((await register()).status).toBe(429)
    for (let i = 0; i < 3; i++)
      expect((await request(app).post('/api/v1/keys').set('X-Forwarded-For', from)).status).toBe(201)
    expect((await request(app).post('/api/v1/keys').set('X-Forwarded-For', from)).status).toBe(429)
    const exchange = () =>
      request(app)
        .post('/oauth2/token')
        .set('X-Forwarded-For', from)
        .type('form')
        .send({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: first.body.identity_assertion })
    for (let i = 0; i < 4; i++) expect((await exchange()).status).toBe(200)
    expect((await exchange()).status).toBe(429)
  })

  it('counts registered OAuth clients, and authorization pages as writes', async () => {
    const { app } = await proxiedApp({ clientsPerHour: 2, writesPerMinute: 12 })
    const from = '203.0.113.11'
    const registerClient = (body: object) =>
      request(app).post('/oauth2/register').set('X-Forwarded-For', from).send(body)
    expect((await registerClient({ redirect_uris: ['http://evil.example/cb'] })).status).toBe(400)
    const client = await registerClient({ redirect_uris: ['https://app.example/cb'] })
    expect(client.status).toBe(201)
    expect((await registerClient({ redirect_uris: ['https://app.example/cb'] })).status).toBe(201)
    const third = await registerClient({ redirect_uris: ['https://app.example/cb'] })
    expect(third.status).toBe(429)
    expect(third.headers['ratelimit-policy']).toMatch(/"clients"; q=2; w=3600/)

    const q = new URLSearchParams({
      response_type: 'code',
      client_id: client.body.client_id,
      redirect_uri: 'https://app.example/cb',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
    })
    const page = () => request(app).get(`/oauth2/authorize?${q}`).set('X-Forwarded-For', from)
    // 4 writes so far (the registrations, refused ones too); the pages take the rest of the 12, then 429.
    for (let i = 0; i < 8; i++) expect((await page()).status).toBe(200)
    expect((await page()).status).toBe(429)
  })

  it('counts an approved consent on the identity budget, as it registers an identity', async () => {
    const { app } = await proxiedApp({ writesPerMinute: 100 })
    const from = '203.0.113.12'
    const client = await request(app)
      .post('/oauth2/register')
      .set('X-Forwarded-For', from)
      .send({ redirect_uris: ['https://app.example/cb'] })
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: client.body.client_id,
      redirect_uri: 'https://app.example/cb',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
    })
    const consent = async () => {
      const page = await request(app).get(`/oauth2/authorize?${q}`).set('X-Forwarded-For', from)
      const transaction = /name="transaction" value="([^"]+)"/.exec(page.text)![1]!
      const cookie = String(page.headers['set-cookie']).split(';')[0]!
      return request(app)
        .post('/oauth2/authorize')
        .set('X-Forwarded-For', from)
        .set('Cookie', cookie)
        .type('form')
        .send({ transaction, decision: 'approve' })
    }
    expect((await postRegistration(app, { 'X-Forwarded-For': from })).status).toBe(200)
    expect((await consent()).status).toBe(303)
    const refused = await consent()
    expect(refused.status).toBe(429)
    expect(refused.headers['ratelimit-policy']).toMatch(/"identities"; q=2; w=3600/)
  })

  it('ends a flood of malformed writes with the general per-address budget', async () => {
    const { app } = await proxiedApp({ writesPerMinute: 6 })
    const bad = () =>
      request(app).post('/agent/identity').set('X-Forwarded-For', '203.0.113.11').send({ type: 'nonsense' })
    for (let i = 0; i < 6; i++) expect((await bad()).status).toBe(400)
    const refused = await bad()
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual(errorBody('rate_limited'))
    expect(refused.headers['ratelimit-policy']).toMatch(/"writes"; q=6; w=60/)
    // The flood is one address's: another client still registers.
    expect(
      (await request(app).post('/agent/identity').set('X-Forwarded-For', '198.51.100.21').send({ type: 'anonymous' }))
        .status,
    ).toBe(200)
  })

  it('gives identified readers their own, larger budget, per credential', async () => {
    const { app } = await proxiedApp({ keysPerHour: 10 })
    const ip = '203.0.113.9'
    const keys = [
      (await request(app).post('/api/v1/keys').set('X-Forwarded-For', ip)).body.key,
      (await request(app).post('/api/v1/keys').set('X-Forwarded-For', ip)).body.key,
    ]
    for (let i = 0; i < 5; i++)
      expect((await request(app).get('/api/v1/posts?limit=1').set('X-Forwarded-For', ip)).status).toBe(200)
    expect((await request(app).get('/api/v1/posts?limit=1').set('X-Forwarded-For', ip)).status).toBe(429)
    // The same address with a key is counted by the key, not the address.
    for (let i = 0; i < 8; i++)
      expect(
        (
          await request(app)
            .get('/api/v1/posts?limit=1')
            .set('X-Forwarded-For', ip)
            .set('Authorization', `Bearer ${keys[0]}`)
        ).status,
      ).toBe(200)
    expect(
      (
        await request(app)
          .get('/api/v1/posts?limit=1')
          .set('X-Forwarded-For', ip)
          .set('Authorization', `Bearer ${keys[0]}`)
      ).status,
    ).toBe(429)
    expect(
      (
        await request(app)
          .get('/api/v1/posts?limit=1')
          .set('X-Forwarded-For', ip)
          .set('Authorization', `Bearer ${keys[1]}`)
      ).status,
    ).toBe(200)
  })

  it('counts anonymous reads per client behind a trusted proxy, and per connection otherwise', async () => {
    // The pipeline answers reads without Express's request set-up: it must key the budget as req.ip does.
    const { app } = await proxiedApp()
    const read = (ip: string) => request(app).get('/api/v1/posts/hashing-rings').set('X-Forwarded-For', ip)
    for (let i = 0; i < 5; i++) expect((await read('198.51.100.7')).status).toBe(200)
    const refused = await read('198.51.100.7')
    expect([refused.status, refused.body]).toEqual([429, errorBody('rate_limited')])
    expect((await read('198.51.100.8')).status).toBe(200)

    const direct = createApp({ ...(await testDeps()), rateLimits: limits })
    for (let i = 0; i < 5; i++)
      expect(
        (await request(direct).get('/api/v1/posts/hashing-rings').set('X-Forwarded-For', `198.51.100.${i}`)).status,
      ).toBe(200)
    expect(
      (await request(direct).get('/api/v1/posts/hashing-rings').set('X-Forwarded-For', '198.51.100.99')).status,
    ).toBe(429)
  })

  it('shares one budget between replicas through the store', async () => {
    const { deps } = await proxiedApp()
    const [a, b] = [
      createApp({ ...deps, trustProxy: 'loopback', rateLimits: limits }),
      createApp({ ...deps, trustProxy: 'loopback', rateLimits: limits }),
    ]
    expect((await request(a).post('/api/v1/keys').set('X-Forwarded-For', '192.0.2.1')).status).toBe(201)
    expect((await request(b).post('/api/v1/keys').set('X-Forwarded-For', '192.0.2.1')).status).toBe(201)
    expect((await request(a).post('/api/v1/keys').set('X-Forwarded-For', '192.0.2.1')).status).toBe(201)
    expect((await request(b).post('/api/v1/keys').set('X-Forwarded-For', '192.0.2.1')).status).toBe(429)
  })

  it('keeps public reads answering when the store that counts them is down', async () => {
    const deps = await testDeps()
    const dead = createRedisStore('redis://127.0.0.1:1', { commandTimeoutMs: 300 })
    const app = createApp({ ...deps, store: dead, rateLimits: limits })
    expect((await request(app).get('/api/v1/posts?limit=1')).status).toBe(200)
    const key = await request(app).post('/api/v1/keys')
    expect(key.status).toBe(503)
    expect(key.headers['retry-after']).toBeTruthy()
    await dead.close()
  })
})

describe('batched read counters', () => {
  it('count locally, and share their counts through the store at each flush', async () => {
    const { BatchedCounters } = await import('../../auth-service/http/rate-limits.ts')
    const deps = await testDeps()
    const [a, b] = [
      new BatchedCounters(deps.store, 'test', 60, 60_000),
      new BatchedCounters(deps.store, 'test', 60, 60_000),
    ]
    for (let i = 0; i < 3; i++) a.increment('ip:x')
    expect(b.increment('ip:x').totalHits).toBe(1) // not flushed yet: b has seen only its own hit
    await a.flush()
    await b.flush()
    expect(b.increment('ip:x').totalHits).toBe(5) // 3 from a, 1 + 1 from b
    expect(a.increment('ip:x').totalHits).toBe(4) // a's 3 flushed + 1 pending: b's hits arrive at its next flush
    await a.flush()
    expect(a.increment('ip:x').totalHits).toBe(6) // the shared count (a's 4 + b's flushed 1) + 1 pending
    a.shutdown()
    b.shutdown()
  })
})
