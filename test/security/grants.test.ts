/**
 * Codes and refresh tokens are single use under concurrency, on every store (RFC 6749 §4.1.2,
 * RFC 9700 §4.14.2): of twenty concurrent uses one wins, and the replay revokes every token of the
 * grant, the winner's included, even those issued after the replay was seen. A bad refresh request
 * leaves the grant as it was; revoking an identity_assertion revokes what was exchanged from it;
 * a signature's high-S twin is refused.
 */
import { createServer, type Server } from 'node:http'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import { openStore } from '../../auth-service/store/open-store.ts'
import type { Store } from '../../auth-service/store/store.ts'
import { isHighS, withS } from '../support/ecdsa.ts'
import { BASE_URL, REDIS_URL, testDeps } from '../support/index.ts'
import { tempDir } from '../support/temp.ts'
import { approve, pkce } from '../support/oauth-person.ts'

const REDIRECT = 'https://app.example/callback'
const MCP = `${BASE_URL}/mcp`
const ROUNDS = 25
const CONCURRENCY = 20

/** Two replicas of the service on one store (two connections on Redis), each a real HTTP server. */
async function replicas(open: () => Promise<Store>) {
  const stores = [await open(), await open()]
  const servers: Server[] = []
  const origins: string[] = []
  for (const store of stores) {
    const server = createServer(createApp(await testDeps({ store })))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    servers.push(server)
    origins.push(`http://127.0.0.1:${(server.address() as { port: number }).port}`)
  }
  return {
    origins,
    /** The i-th request goes to the replica i mod 2. */
    at: (i: number) => origins[i % 2]!,
    async close() {
      for (const server of servers) await new Promise((r) => server.close(r))
      for (const store of stores) await store.close()
    },
  }
}

const form = (origin: string, path: string, fields: Record<string, string>) =>
  fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) })
const token = (origin: string, fields: Record<string, string>) => form(origin, '/oauth2/token', fields)
const read = (origin: string, accessToken: string) => fetch(`${origin}/api/v1/posts?limit=1`, { headers: { authorization: `Bearer ${accessToken}` } })

async function json(res: Response) {
  return { status: res.status, body: (await res.json()) as Record<string, string> }
}

/** A client, a consent approved on the first replica, and the code it sent back. */
async function codeFor(origin: string, extra: Record<string, string> = {}) {
  const registered = await fetch(`${origin}/oauth2/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Race client', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'] }),
  })
  const { client_id } = (await registered.json()) as { client_id: string }
  const { verifier, challenge } = pkce()
  const query = new URLSearchParams({
    response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', ...extra,
  })
  const back = await approve(origin, `/oauth2/authorize?${query}`)
  const fields = { grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT, client_id }
  return { client_id, fields }
}

const redisPrefixes: string[] = []
/** For each store, a way to open it again and again on the same data, as replicas do. */
const STORES: Array<[string, () => () => Promise<Store>]> = [
  ['sqlite', () => {
    const dataDir = tempDir('grants')
    return async () => openStore({ dataDir })
  }],
  ['Redis', () => {
    const prefix = `test:${randomUUID()}:`
    redisPrefixes.push(prefix)
    return async () => createRedisStore(REDIS_URL, { keyPrefix: prefix })
  }],
]

afterAll(async () => {
  const admin = new Redis(REDIS_URL)
  for (const prefix of redisPrefixes) {
    const keys = await admin.keys(`${prefix}*`)
    if (keys.length) await admin.del(...keys)
  }
  await admin.quit()
})

describe.each(STORES)('grants on %s', (_name, opener) => {
  it(`lets one of ${CONCURRENCY} concurrent redemptions of a code win, and the replay revokes the winner's tokens (${ROUNDS} rounds)`, async () => {
    const service = await replicas(opener())
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const { fields } = await codeFor(service.origins[0]!)
        const answers = await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => token(service.at(i), fields).then(json)))
        const won = answers.filter((a) => a.status === 200)
        expect(won, `round ${round}`).toHaveLength(1)
        for (const lost of answers.filter((a) => a.status !== 200)) expect(lost).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.any(String) } })
        // Reuse was seen (the code came twenty times): everything the winner holds is revoked.
        const { access_token, refresh_token } = won[0]!.body
        for (const origin of service.origins) expect((await read(origin, access_token!)).status, `round ${round}`).toBe(401)
        const again = await json(await token(service.origins[1]!, { grant_type: 'refresh_token', refresh_token: refresh_token!, client_id: fields.client_id }))
        expect(again.body.error).toBe('invalid_grant')
      }
    } finally {
      await service.close()
    }
  })

  it(`lets one of ${CONCURRENCY} concurrent refreshes win, and the reuse revokes every token of the grant (${ROUNDS} rounds)`, async () => {
    const service = await replicas(opener())
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const { fields } = await codeFor(service.origins[0]!)
        const first = await json(await token(service.origins[0]!, fields))
        expect(first.status).toBe(200)
        const rotate = { grant_type: 'refresh_token', refresh_token: first.body.refresh_token!, client_id: fields.client_id }
        const answers = await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => token(service.at(i), rotate).then(json)))
        const won = answers.filter((a) => a.status === 200)
        expect(won, `round ${round}`).toHaveLength(1)
        for (const lost of answers.filter((a) => a.status !== 200)) expect(lost.body.error).toBe('invalid_grant')
        // The first access token, the winner's, and the winner's next refresh token: all revoked.
        for (const access of [first.body.access_token!, won[0]!.body.access_token!]) expect((await read(service.at(round), access)).status).toBe(401)
        const next = await json(await token(service.origins[0]!, { ...rotate, refresh_token: won[0]!.body.refresh_token! }))
        expect(next.body.error).toBe('invalid_grant')
      }
    } finally {
      await service.close()
    }
  })

  it('answers a refresh that asks for more than the grant with invalid_scope or invalid_target, and leaves the grant as it was', async () => {
    const service = await replicas(opener())
    try {
      const [origin] = service.origins as [string]
      const { fields } = await codeFor(origin, { scope: 'research.read' })
      const first = await json(await token(origin, fields))
      const rotate = { grant_type: 'refresh_token', refresh_token: first.body.refresh_token!, client_id: fields.client_id }
      expect(await json(await token(origin, { ...rotate, scope: 'research.read research.search' }))).toMatchObject({ status: 400, body: { error: 'invalid_scope' } })
      expect(await json(await token(origin, { ...rotate, resource: MCP }))).toMatchObject({ status: 400, body: { error: 'invalid_target' } })
      expect(await json(await token(origin, { ...rotate, resource: 'https://elsewhere.example/api' }))).toMatchObject({ status: 400, body: { error: 'invalid_target' } })
      // Nothing was revoked or used: the access token reads, and the same refresh token rotates.
      expect((await read(origin, first.body.access_token!)).status).toBe(200)
      const rotated = await json(await token(origin, rotate))
      expect(rotated.status).toBe(200)
      expect(rotated.body.scope).toBe('research.read')
      expect((await read(origin, first.body.access_token!)).status).toBe(200)
    } finally {
      await service.close()
    }
  })

  it('revokes the access tokens exchanged from an identity_assertion when the assertion is revoked', async () => {
    const service = await replicas(opener())
    try {
      const [a, b] = service.origins as [string, string]
      const identity = (await (await fetch(`${a}/agent/identity`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":"anonymous"}' })).json()) as { identity_assertion: string }
      const exchange = { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: identity.identity_assertion }
      const tokens = await Promise.all([a, b, a].map(async (origin) => (await json(await token(origin, exchange))).body.access_token!))
      for (const t of tokens) expect((await read(b, t)).status).toBe(200)
      expect((await form(b, '/oauth2/revoke', { token: identity.identity_assertion })).status).toBe(200)
      for (const t of tokens) for (const origin of [a, b]) expect((await read(origin, t)).status).toBe(401)
      expect((await json(await token(a, exchange))).body.error).toBe('invalid_grant')
    } finally {
      await service.close()
    }
  })
})

describe('ECDSA signatures', () => {
  it('refuses the high-S twin of a valid token, and signs only low-S tokens', async () => {
    const app = createApp(await testDeps())
    const server = createServer(app)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
    try {
      const identity = (await (await fetch(`${origin}/agent/identity`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":"anonymous"}' })).json()) as { identity_assertion: string }
      const exchange = { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: identity.identity_assertion }
      // Enough tokens that a signer which did not normalise would have made high-S ones (half do).
      const issued = await Promise.all(Array.from({ length: 16 }, async () => (await json(await token(origin, exchange))).body.access_token!))
      expect(issued.filter(isHighS)).toEqual([])
      expect(isHighS(identity.identity_assertion)).toBe(false)
      for (const t of issued.slice(0, 4)) {
        expect((await read(origin, t)).status).toBe(200)
        const twin = withS(t, 'high')
        expect(twin).not.toBe(t)
        const res = await read(origin, twin)
        expect(res.status).toBe(401)
        expect(((await res.json()) as { error: string }).error).toBe('invalid_token')
      }
      const assertionTwin = withS(identity.identity_assertion, 'high')
      expect((await json(await token(origin, { ...exchange, assertion: assertionTwin }))).body.error).toBe('invalid_grant')
    } finally {
      await new Promise((r) => server.close(r))
    }
  })
})
