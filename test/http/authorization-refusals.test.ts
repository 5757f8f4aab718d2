import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { Redis } from 'ioredis'
import { createApp } from '../../auth-service/app.ts'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import { REDIS_URL, testDeps } from '../support/index.ts'
import { approve, decide, openConsent, pkce } from '../support/oauth-person.ts'
import { LOOPBACK, MCP, REDIRECT, codeFlow } from '../support/code-flow.ts'

/* The authorization code flow's refusals, and the flow across replicas sharing Redis. */

const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })

const deps = await testDeps()
const app = createApp(deps)
const { registerClient, requestFor, redeem, refresh, read, tokensFor } = codeFlow(app)

describe('code redemption refusals', () => {
  it('refuses a replayed code and revokes what its first use issued (RFC 6749 §4.1.2)', async () => {
    const { client_id } = await registerClient()
    const t = await tokensFor(client_id)
    const replay = await redeem({ code: t.code, code_verifier: t.verifier, redirect_uri: REDIRECT, client_id })
    expect(replay.status).toBe(400)
    expect(replay.body).toEqual(errorBody('invalid_grant'))
    expect((await read(t.access_token)).status).toBe(401)
    expect((await refresh({ refresh_token: t.refresh_token!, client_id })).body).toEqual(errorBody('invalid_grant'))
  })

  it('lets exactly one of many concurrent redemptions of a code win', async () => {
    const { client_id } = await registerClient()
    const { verifier, url } = requestFor(client_id)
    const code = (await approve(app, url)).searchParams.get('code')!
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => redeem({ code, code_verifier: verifier, redirect_uri: REDIRECT, client_id })),
    )
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
  })

  it.each([
    ['a wrong verifier', (f: Record<string, string>) => ({ ...f, code_verifier: pkce().verifier }), 'invalid_grant'],
    ['another redirect URI', (f: Record<string, string>) => ({ ...f, redirect_uri: LOOPBACK }), 'invalid_grant'],
    ['another resource', (f: Record<string, string>) => ({ ...f, resource: MCP }), 'invalid_target'],
    ['no verifier', ({ code_verifier: _, ...f }: Record<string, string>) => f, 'invalid_request'],
    ['no client_id', ({ client_id: _, ...f }: Record<string, string>) => f, 'invalid_request'],
    ['an unknown code', (f: Record<string, string>) => ({ ...f, code: 'x'.repeat(43) }), 'invalid_grant'],
    ['an oversized code', (f: Record<string, string>) => ({ ...f, code: 'x'.repeat(5000) }), 'invalid_request'],
  ])('refuses %s', async (_name, change, code) => {
    const { client_id } = await registerClient()
    const { verifier, url } = requestFor(client_id)
    const issued = (await approve(app, url)).searchParams.get('code')!
    const res = await redeem(change({ code: issued, code_verifier: verifier, redirect_uri: REDIRECT, client_id }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errorBody(code))
  })

  it('refuses a code presented by another client, and the code is then spent', async () => {
    const { client_id } = await registerClient()
    const other = await registerClient()
    const { verifier, url } = requestFor(client_id)
    const code = (await approve(app, url)).searchParams.get('code')!
    expect(
      (await redeem({ code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: other.client_id })).body,
    ).toEqual(errorBody('invalid_grant'))
    expect((await redeem({ code, code_verifier: verifier, redirect_uri: REDIRECT, client_id })).body).toEqual(
      errorBody('invalid_grant'),
    )
  })
})

describe('authorization request refusals', () => {
  it.each([
    ['no client_id', { client_id: undefined }],
    ['an unknown client', { client_id: 'lat_client_unknown' }],
    ['an oversized client_id', { client_id: 'x'.repeat(3000) }],
    ['an unregistered redirect URI', { redirect_uri: 'https://evil.example/callback' }],
    ['a redirect URI that extends a registered one', { redirect_uri: `${REDIRECT}/../evil` }],
    ['a redirect URI with a query added', { redirect_uri: `${REDIRECT}?next=https://evil.example` }],
    ['a look-alike host', { redirect_uri: 'https://app.example.evil.example/callback' }],
    ['a loopback look-alike', { redirect_uri: 'http://127.0.0.1.evil.example/callback' }],
    ['a loopback URI with another path', { redirect_uri: 'http://127.0.0.1:5000/elsewhere' }],
    ['no redirect URI', { redirect_uri: undefined }],
  ])('shows an error page, never a redirect, for %s', async (_name, overrides) => {
    const { client_id } = await registerClient()
    const res = await request(app).get(requestFor(client_id, overrides).url)
    expect(res.status).toBe(400)
    expect(res.headers.location).toBeUndefined()
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.text).toMatch(/invalid_request|invalid_client|invalid_redirect_uri/)
  })

  it('shows an error page for a repeated client_id', async () => {
    const { client_id } = await registerClient()
    const res = await request(app).get(`${requestFor(client_id).url}&client_id=${client_id}`)
    expect(res.status).toBe(400)
    expect(res.headers.location).toBeUndefined()
  })

  // Only the person's decision goes back to the client: a refusal before consent is shown here
  // (RFC 9700 §4.11.2), so a registered redirect URI cannot make this origin an open redirector.
  it.each([
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request'],
    ['no PKCE', { code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
    ['a short challenge', { code_challenge: 'abc' }, 'invalid_request'],
    ['the implicit grant', { response_type: 'token' }, 'unsupported_response_type'],
    ['no response_type', { response_type: undefined }, 'invalid_request'],
    ['an unknown scope', { scope: 'admin' }, 'invalid_scope'],
    ['a foreign resource', { resource: 'https://evil.example/api' }, 'invalid_target'],
    ['an oversized state', { state: 's'.repeat(2000) }, 'invalid_request'],
  ])('shows %s on an error page at the origin, never a redirect', async (_name, overrides, code) => {
    const { client_id } = await registerClient()
    const res = await request(app).get(requestFor(client_id, overrides).url)
    expect(res.status).toBe(400)
    expect(res.headers.location).toBeUndefined()
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.text).toContain(`<code>${code}</code>`)
    expect(res.text).not.toContain('s'.repeat(100))
  })
})

describe('across replicas sharing Redis', () => {
  it('continues a consent on another replica, and lets one of two replicas redeem a code', async () => {
    const prefix = `test:${randomUUID()}:`
    const stores = [
      createRedisStore(REDIS_URL, { keyPrefix: prefix }),
      createRedisStore(REDIS_URL, { keyPrefix: prefix }),
    ]
    try {
      const [a, b] = await Promise.all(stores.map(async (store) => createApp(await testDeps({ store }))))
      const registered = await request(a!)
        .post('/oauth2/register')
        .send({ redirect_uris: [REDIRECT] })
      const client_id = registered.body.client_id as string
      const { verifier, challenge } = pkce()
      const q = new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      })
      const page = await openConsent(a!, `/oauth2/authorize?${q}`)
      const { location } = await decide(b!, page)
      const code = new URL(location!).searchParams.get('code')!
      const fields = {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id,
      }
      const answers = await Promise.all(
        [a, b, a, b].map((app) => request(app!).post('/oauth2/token').type('form').send(fields)),
      )
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400, 400])
    } finally {
      const admin = new Redis(REDIS_URL)
      const keys = await admin.keys(`${prefix}*`)
      if (keys.length) await admin.del(...keys)
      await admin.quit()
      for (const store of stores) await store.close()
    }
  })
})
