import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import request from 'supertest'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../../auth-service/defaults.ts'
import { BatchedCounters } from '../../auth-service/http/rate-limits.ts'
import { openStore } from '../../auth-service/store/open-store.ts'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import type { Store } from '../../auth-service/store/store.ts'
import { postExchange, registerAgent } from '../support/agent.ts'
import { REDIS_URL, testDeps } from '../support/index.ts'
import { openConsent, pkce } from '../support/oauth-person.ts'
import { tempDir } from '../support/temp.ts'

const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })
const MCP_HEADERS = {
  Accept: 'application/json, text/event-stream',
  'Content-Type': 'application/json',
  'MCP-Protocol-Version': '2025-11-25',
}
const toolCall = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_post', arguments: { slug: 'hashing-rings' } },
})

/**
 * Credentials that fail the check in each way it can fail:
 * malformed, another scheme, an unknown key, a forged token.
 */
const BAD_BEARERS = [
  'Bearer not a token',
  'Basic dXNlcjpwYXNz',
  `Bearer lat_live_${'x'.repeat(43)}`,
  'Bearer eyJhbGciOiJFUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
]

/** Every store kind, each opened twice on the same data, as two replicas open it; closed and emptied after the file. */
const redisPrefixes: string[] = []
const opened: Store[] = []
async function storePair(kind: 'sqlite' | 'redis'): Promise<[Store, Store]> {
  let pair: [Store, Store]
  if (kind === 'sqlite') {
    const dataDir = tempDir('budgets')
    pair = [await openStore({ dataDir }), await openStore({ dataDir })]
  } else {
    const keyPrefix = `test:${randomUUID()}:`
    redisPrefixes.push(keyPrefix)
    pair = [createRedisStore(REDIS_URL, { keyPrefix }), createRedisStore(REDIS_URL, { keyPrefix })]
  }
  opened.push(...pair)
  return pair
}
afterAll(async () => {
  for (const store of opened) await store.close()
  const admin = new Redis(REDIS_URL)
  for (const prefix of redisPrefixes) {
    const keys = await admin.keys(`${prefix}*`)
    if (keys.length) await admin.del(...keys)
  }
  await admin.quit()
})

/** An app behind a trusted proxy (X-Forwarded-For names the client), with these budgets. */
async function appOn(store: Store, limits: Partial<RateLimits>) {
  return createApp({
    ...(await testDeps({ store })),
    trustProxy: 'loopback',
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...limits },
  })
}

describe.each(['sqlite', 'redis'] as const)('refused credentials draw on a per-address budget (%s)', (kind) => {
  it('ends a flood of bad bearers on /api/v1 and /mcp with 429, and starves nobody else', async () => {
    const [store] = await storePair(kind)
    const app = await appOn(store, { badCredentialsPerMinute: 6 })
    const flooder = '203.0.113.50'
    const get = (authorization: string, from = flooder) =>
      request(app).get('/api/v1/posts/hashing-rings').set('X-Forwarded-For', from).set('Authorization', authorization)
    const mcp = (authorization: string, from = flooder) =>
      request(app)
        .post('/mcp')
        .set(MCP_HEADERS)
        .set('X-Forwarded-For', from)
        .set('Authorization', authorization)
        .send(toolCall)

    // A valid key, issued before the flood to the same address.
    const key = (await request(app).post('/api/v1/keys').set('X-Forwarded-For', flooder)).body.key as string

    // Within the budget each is refused with its 401 and challenge, and names the budget.
    for (const [i, bad] of BAD_BEARERS.entries()) {
      const res = await get(bad)
      expect(res.status, bad).toBe(401)
      expect(res.body).toEqual(errorBody('invalid_token'))
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"')
      expect(res.headers['ratelimit-policy']).toBe('"bad_credentials"; q=6; w=60')
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"bad_credentials"; r=${5 - i}; t=\\d+$`))
    }
    expect((await mcp(BAD_BEARERS[0]!)).status).toBe(401)
    expect((await mcp(BAD_BEARERS[2]!)).status).toBe(401)

    // Past it, on either resource: the service's 429, in place of the 401.
    for (const res of [await get(BAD_BEARERS[3]!), await mcp(BAD_BEARERS[1]!), await get(BAD_BEARERS[0]!)]) {
      expect(res.status).toBe(429)
      expect(res.body).toEqual(errorBody('rate_limited'))
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      expect(res.headers['ratelimit-policy']).toBe('"bad_credentials"; q=6; w=60')
      expect(res.headers.ratelimit).toMatch(/^"bad_credentials"; r=0; t=\d+$/)
      expect(res.headers['cache-control']).toBe('no-store')
    }

    // A valid credential and anonymous reads from the same address are not refused;
    // another address keeps its own budget.
    expect((await get(`Bearer ${key}`)).status).toBe(200)
    expect((await mcp(`Bearer ${key}`)).status).toBe(200)
    expect((await request(app).get('/api/v1/posts/hashing-rings').set('X-Forwarded-For', flooder)).status).toBe(200)
    expect((await get(BAD_BEARERS[0]!, '198.51.100.50')).status).toBe(401)
  })

  it('lets exactly the budget through as 401s when the bad bearers arrive together', async () => {
    const [store] = await storePair(kind)
    const app = await appOn(store, { badCredentialsPerMinute: 7 })
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        request(app)
          .get('/api/v1/posts?limit=1')
          .set('X-Forwarded-For', '203.0.113.51')
          .set('Authorization', BAD_BEARERS[i % BAD_BEARERS.length]!),
      ),
    )
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(7)
    expect(statuses.filter((s) => s === 429)).toHaveLength(23)
  })
})

describe('the consent page', () => {
  it('spends the identity budget on an approval only: denials leave it whole', async () => {
    const app = await appOn((await storePair('sqlite'))[0], { identitiesPerHour: 1 })
    const from = '203.0.113.60'
    const redirect = 'https://app.example/cb'
    const client = await request(app)
      .post('/oauth2/register')
      .set('X-Forwarded-For', from)
      .send({ redirect_uris: [redirect] })
    expect(client.status).toBe(201)
    const consent = async (decision: 'approve' | 'deny') => {
      const q = new URLSearchParams({
        response_type: 'code',
        client_id: client.body.client_id,
        redirect_uri: redirect,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        state: 's',
      })
      const page = await openConsent(app, `/oauth2/authorize?${q}`)
      expect(page.status).toBe(200)
      const res = await request(app)
        .post('/oauth2/authorize')
        .set('X-Forwarded-For', from)
        .set('Cookie', page.cookie)
        .type('form')
        .send({ transaction: page.transaction, decision })
      return {
        status: res.status,
        location: res.headers.location as string | undefined,
        policy: res.headers['ratelimit-policy'] as string | undefined,
      }
    }
    for (let i = 0; i < 3; i++) {
      const denied = await consent('deny')
      expect(denied.status).toBe(303)
      expect(new URL(denied.location!).searchParams.get('error')).toBe('access_denied')
    }
    // The whole budget (one identity) is still there for an approval, then it is spent.
    const approved = await consent('approve')
    expect(approved.status).toBe(303)
    expect(new URL(approved.location!).searchParams.get('code')).toBeTruthy()
    const over = await consent('approve')
    expect(over.status).toBe(429)
    expect(over.policy).toContain('"identities"; q=1; w=3600')
  })
})

describe.each(['sqlite', 'redis'] as const)('write budgets hold exactly under concurrency (%s)', (kind) => {
  it('lets exactly B of N concurrent revocations through, spread over two replicas', async () => {
    const stores = await storePair(kind)
    const replicas = await Promise.all(stores.map((store) => appOn(store, { writesPerMinute: 20 })))
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        request(replicas[i % 2]!)
          .post('/oauth2/revoke')
          .set('X-Forwarded-For', '203.0.113.70')
          .type('form')
          .send({ token: `unknown-token-${i}-${'x'.repeat(20)}` }),
      ),
    )
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(20)
    expect(statuses.filter((s) => s === 429)).toHaveLength(40)
    for (const refused of answers.filter((r) => r.status === 429)) {
      expect(refused.body).toEqual(errorBody('rate_limited'))
      expect(refused.headers['ratelimit-policy']).toMatch(/^"writes"; q=20; w=60/)
    }
    // Refused from then on, on either replica, and other clients are unaffected.
    expect(
      (
        await request(replicas[0]!)
          .post('/oauth2/revoke')
          .set('X-Forwarded-For', '203.0.113.70')
          .type('form')
          .send({ token: 'x' })
      ).status,
    ).toBe(429)
    expect(
      (
        await request(replicas[1]!)
          .post('/oauth2/revoke')
          .set('X-Forwarded-For', '198.51.100.70')
          .type('form')
          .send({ token: 'x' })
      ).status,
    ).toBe(200)
  })

  it('lets exactly B of N concurrent token exchanges through, spread over two replicas', async () => {
    const stores = await storePair(kind)
    const replicas = await Promise.all(
      stores.map((store) => appOn(store, { tokensPerMinute: 8, writesPerMinute: 1000 })),
    )
    const { identity_assertion } = await registerAgent(replicas[0]!, { 'X-Forwarded-For': '198.51.100.71' })
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        postExchange(replicas[i % 2]!, identity_assertion, {}, { 'X-Forwarded-For': '203.0.113.71' }),
      ),
    )
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(8)
    expect(statuses.filter((s) => s === 429)).toHaveLength(22)
  })
})

describe('batched read counters', () => {
  it('keep counting the hits being flushed while the store answers', async () => {
    const [store] = await storePair('redis')
    const counters = new BatchedCounters(store, 'flush-race', 60, 60_000)
    for (let i = 0; i < 5; i++) counters.increment('ip:x')
    const flushing = counters.flush()
    // The store has not answered yet: the 5 hits are on their way, and still count.
    expect(counters.increment('ip:x').totalHits).toBe(6)
    await flushing
    expect(counters.increment('ip:x').totalHits).toBe(7)
    await counters.flush()
    expect((await store.increment('rate:flush-race:ip:x', 60, 0)).count).toBe(7)
    counters.shutdown()
  })
})
