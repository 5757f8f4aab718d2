/**
 * Codes and refresh tokens are single use under concurrency, on every store (RFC 6749 §4.1.2,
 * RFC 9700 §4.14.2): of twenty concurrent uses one wins, and the replay revokes every token of the
 * grant, the winner's included, even those issued after the replay was seen. A bad refresh request
 * leaves the grant as it was; revoking an identity_assertion revokes what was exchanged from it;
 * a signature's high-S twin is refused.
 */
import { createServer } from 'node:http'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import { openStore } from '../../auth-service/store/open-store.ts'
import type { Store } from '../../auth-service/store/store.ts'
import { isHighS, respelled, withS } from '../support/ecdsa.ts'
import { BASE_URL, REDIS_URL, testDeps } from '../support/index.ts'
import { tempDir } from '../support/temp.ts'
import {
  CONCURRENCY,
  codeFor,
  form,
  json,
  raceCodeRedemption,
  raceRefresh,
  read,
  replicas,
  token,
} from '../support/grant-races.ts'

const MCP = `${BASE_URL}/mcp`
const ROUNDS = 25

const redisPrefixes: string[] = []
/** For each store, a way to open it again and again on the same data, as replicas do. */
const STORES: Array<[string, () => () => Promise<Store>]> = [
  [
    'sqlite',
    () => {
      const dataDir = tempDir('grants')
      return async () => openStore({ dataDir })
    },
  ],
  [
    'Redis',
    () => {
      const prefix = `test:${randomUUID()}:`
      redisPrefixes.push(prefix)
      return async () => createRedisStore(REDIS_URL, { keyPrefix: prefix })
    },
  ],
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
  it(
    `lets one of ${CONCURRENCY} concurrent redemptions of a code win, ` +
      `and the replay revokes the winner's tokens (${ROUNDS} rounds)`,
    async () => {
      const service = await replicas(opener())
      try {
        for (let round = 0; round < ROUNDS; round++) {
          await raceCodeRedemption(service, round)
        }
      } finally {
        await service.close()
      }
    },
  )

  it(
    `lets one of ${CONCURRENCY} concurrent refreshes win, and ` +
      `the reuse revokes every token of the grant (${ROUNDS} rounds)`,
    async () => {
      const service = await replicas(opener())
      try {
        for (let round = 0; round < ROUNDS; round++) {
          await raceRefresh(service, round)
        }
      } finally {
        await service.close()
      }
    },
  )

  it(
    'answers a refresh that asks for more than the grant with ' +
      'invalid_scope or invalid_target, and leaves the grant as it was',
    async () => {
      const service = await replicas(opener())
      try {
        const [origin] = service.origins as [string]
        const { fields } = await codeFor(origin, { scope: 'research.read' })
        const first = await json(await token(origin, fields))
        const rotate = {
          grant_type: 'refresh_token',
          refresh_token: first.body.refresh_token!,
          client_id: fields.client_id,
        }
        expect(await json(await token(origin, { ...rotate, scope: 'research.read research.search' }))).toMatchObject({
          status: 400,
          body: { error: 'invalid_scope' },
        })
        expect(await json(await token(origin, { ...rotate, resource: MCP }))).toMatchObject({
          status: 400,
          body: { error: 'invalid_target' },
        })
        expect(await json(await token(origin, { ...rotate, resource: 'https://elsewhere.example/api' }))).toMatchObject(
          {
            status: 400,
            body: { error: 'invalid_target' },
          },
        )
        // Nothing was revoked or used: the access token reads, and the same refresh token rotates.
        expect((await read(origin, first.body.access_token!)).status).toBe(200)
        const rotated = await json(await token(origin, rotate))
        expect(rotated.status).toBe(200)
        expect(rotated.body.scope).toBe('research.read')
        expect((await read(origin, first.body.access_token!)).status).toBe(200)
      } finally {
        await service.close()
      }
    },
  )

  it('revokes the access tokens exchanged from an identity_assertion when the assertion is revoked', async () => {
    const service = await replicas(opener())
    try {
      const [a, b] = service.origins as [string, string]
      const identity = (await (
        await fetch(`${a}/agent/identity`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"type":"anonymous"}',
        })
      ).json()) as { identity_assertion: string }
      const exchange = {
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: identity.identity_assertion,
      }
      const tokens = await Promise.all(
        [a, b, a].map(async (origin) => (await json(await token(origin, exchange))).body.access_token!),
      )
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
  it('refuses the high-S twin and a re-spelled copy of a valid token, and signs only low-S tokens', async () => {
    const app = createApp(await testDeps())
    const server = createServer(app)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
    try {
      const identity = (await (
        await fetch(`${origin}/agent/identity`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"type":"anonymous"}',
        })
      ).json()) as { identity_assertion: string }
      const exchange = {
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: identity.identity_assertion,
      }
      // Enough tokens that a signer which did not normalise would have made high-S ones (half do).
      const issued = await Promise.all(
        Array.from({ length: 16 }, async () => (await json(await token(origin, exchange))).body.access_token!),
      )
      expect(issued.filter(isHighS)).toEqual([])
      expect(isHighS(identity.identity_assertion)).toBe(false)
      for (const t of issued.slice(0, 4)) {
        expect((await read(origin, t)).status).toBe(200)
        for (const copy of [withS(t, 'high'), respelled(t)]) {
          expect(copy).not.toBe(t)
          const res = await read(origin, copy)
          expect(res.status).toBe(401)
          expect(((await res.json()) as { error: string }).error).toBe('invalid_token')
        }
      }
      const assertionTwin = withS(identity.identity_assertion, 'high')
      expect((await json(await token(origin, { ...exchange, assertion: assertionTwin }))).body.error).toBe(
        'invalid_grant',
      )
    } finally {
      await new Promise((r) => server.close(r))
    }
  })
})
