import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { decodeJwt } from 'jose'
import { Redis } from 'ioredis'
import { createApp } from '../../auth-service/app.ts'
import { digest } from '../../auth-service/auth/secrets.ts'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import { BASE_URL, REDIS_URL, testDeps } from '../support/index.ts'
import { approve, decide, openConsent, pkce } from '../support/oauth-person.ts'

const RESOURCE = `${BASE_URL}/api/v1`
const MCP = `${BASE_URL}/mcp`
const REDIRECT = 'https://app.example/callback'
const LOOPBACK = 'http://127.0.0.1/callback'
const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })

const deps = await testDeps()
const app = createApp(deps)

async function registerClient(metadata: object = {}) {
  const res = await request(app)
    .post('/oauth2/register')
    .send({
      client_name: 'Test client',
      redirect_uris: [REDIRECT, LOOPBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      ...metadata,
    })
  expect(res.status, res.text).toBe(201)
  return res.body as { client_id: string }
}

function authorizeUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined))
  return `/oauth2/authorize?${query}`
}

/** A full authorization request's parameters for a client, with a fresh PKCE pair. */
function requestFor(clientId: string, overrides: Record<string, string | undefined> = {}) {
  const { verifier, challenge } = pkce()
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-123',
    resource: RESOURCE,
    ...overrides,
  }
  return { verifier, params, url: authorizeUrl(params) }
}

const redeem = (fields: Record<string, string>) =>
  request(app)
    .post('/oauth2/token')
    .type('form')
    .send({ grant_type: 'authorization_code', ...fields })
const refresh = (fields: Record<string, string>) =>
  request(app)
    .post('/oauth2/token')
    .type('form')
    .send({ grant_type: 'refresh_token', ...fields })
const read = (token: string) => request(app).get('/api/v1/posts').set('Authorization', `Bearer ${token}`)

/** Walks consent and code exchange; returns the token response. */
async function tokensFor(clientId: string, overrides: Record<string, string | undefined> = {}) {
  const { verifier, params, url } = requestFor(clientId, overrides)
  const back = await approve(app, url)
  const code = back.searchParams.get('code')!
  const res = await redeem({ code, code_verifier: verifier, redirect_uri: params.redirect_uri!, client_id: clientId })
  expect(res.status, res.text).toBe(200)
  return { ...(res.body as { access_token: string; refresh_token?: string; scope: string }), code, verifier, params }
}

describe('POST /oauth2/register (RFC 7591)', () => {
  it('registers a public client and stores it', async () => {
    const res = await request(app)
      .post('/oauth2/register')
      .send({ client_name: 'Claude', redirect_uris: [LOOPBACK], token_endpoint_auth_method: 'none' })
    expect(res.status).toBe(201)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.body).toEqual({
      client_id: expect.stringMatching(/^lat_client_/),
      client_id_issued_at: expect.any(Number),
      client_name: 'Claude',
      redirect_uris: [LOOPBACK],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    })
    expect(res.body).not.toHaveProperty('client_secret')
    expect(await deps.store.get(`client:${res.body.client_id}`)).toMatchObject({
      redirect_uris: [LOOPBACK],
      kind: 'registered',
    })
  })

  it.each([
    [{ redirect_uris: ['http://app.example/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['myapp://callback'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://app.example/cb#frag'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://user:pw@app.example/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['http://127.0.0.1.evil.example/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: [] }, 'invalid_redirect_uri'],
    [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/${i}`) }, 'invalid_redirect_uri'],
    [{ redirect_uris: [`https://app.example/${'x'.repeat(2100)}`] }, 'invalid_redirect_uri'],
    [{}, 'invalid_redirect_uri'],
    [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
    [{ redirect_uris: [REDIRECT], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
    [{ redirect_uris: [REDIRECT], response_types: ['token'] }, 'invalid_client_metadata'],
    [{ redirect_uris: [REDIRECT], client_name: 'x'.repeat(201) }, 'invalid_client_metadata'],
  ])('refuses %j with %s', async (body, code) => {
    const res = await request(app).post('/oauth2/register').send(body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errorBody(code))
  })

  it('refuses a body that is not JSON, and one over 8 KB', async () => {
    const form = await request(app).post('/oauth2/register').type('form').send({ redirect_uris: REDIRECT })
    expect(form.status).toBe(400)
    expect(form.body).toEqual(errorBody('invalid_request'))
    const big = await request(app)
      .post('/oauth2/register')
      .send({ redirect_uris: [REDIRECT], padding: 'x'.repeat(9000) })
    expect(big.status).toBe(413)
    expect(big.body).toEqual(errorBody('payload_too_large'))
  })
})

describe('the authorization code flow with PKCE', () => {
  it('shows a consent page that names the client, redirect host, scopes and resource, is never framed nor cached', async () => {
    const { client_id } = await registerClient({ client_name: '<b>Evil & Co</b>' })
    const page = await openConsent(app, requestFor(client_id).url)
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(page.headers['content-security-policy']).toContain("form-action 'self' https://app.example")
    expect(page.headers['x-frame-options']).toBe('DENY')
    expect(page.cookie).toMatch(/^lattice_consent=/)
    expect(page.headers['set-cookie']![0]).toMatch(/HttpOnly; SameSite=Strict; Secure/)
    expect(page.html).toContain('&lt;b&gt;Evil &amp; Co&lt;/b&gt;')
    expect(page.html).not.toContain('<b>Evil')
    expect(page.html).toContain('app.example')
    expect(page.html).toContain('research.search')
    expect(page.html).toContain(RESOURCE)
    expect(page.html).toContain(client_id)
    // The transaction is kept hashed.
    expect(await deps.store.get(`consent:${page.transaction}`)).toBeUndefined()
    expect(await deps.store.get(`consent:${digest(page.transaction)}`)).toBeDefined()
  })

  it('approves: an anonymous identity, a code back with state and iss, then tokens bound to client and resource', async () => {
    const { client_id } = await registerClient()
    const { verifier, url } = requestFor(client_id)
    const back = await approve(app, url)
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT)
    expect(back.searchParams.get('state')).toBe('st-123')
    expect(back.searchParams.get('iss')).toBe(BASE_URL)
    const code = back.searchParams.get('code')!
    // `<grant id>.<secret>`: the grant id tags every key of the grant (one Redis Cluster slot).
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/)
    expect(await deps.store.get(`code:${code}`)).toBeUndefined()

    const res = await redeem({ code, code_verifier: verifier, redirect_uri: REDIRECT, client_id })
    expect(res.status).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'research.read research.search',
      refresh_token: expect.stringMatching(/^lat_rt_/),
    })
    const claims = decodeJwt(res.body.access_token)
    expect(claims).toMatchObject({ aud: RESOURCE, client_id, scope: 'research.read research.search' })
    expect(await deps.store.get(`identity:${claims.sub}`)).toMatchObject({ kind: 'anonymous' })
    expect((await read(res.body.access_token)).status).toBe(200)
  })

  it('denies: access_denied with state and iss, and no identity or code', async () => {
    const { client_id } = await registerClient()
    const page = await openConsent(app, requestFor(client_id).url)
    const { status, location } = await decide(app, page, 'deny')
    expect(status).toBe(303)
    const back = new URL(location!)
    expect(Object.fromEntries(back.searchParams)).toEqual({
      error: 'access_denied',
      error_description: expect.any(String),
      state: 'st-123',
      iss: BASE_URL,
    })
  })

  it('takes a consent once, and only from the browser it was shown in', async () => {
    const { client_id } = await registerClient()
    const page = await openConsent(app, requestFor(client_id).url)
    const forged = await decide(app, { transaction: page.transaction, cookie: '' })
    expect(forged.status).toBe(400)
    expect(forged.location).toBeUndefined()
    expect(forged.text).toContain('invalid_request')
    // The forged post used the transaction up: the real browser must start again.
    expect((await decide(app, page)).status).toBe(400)
    const again = await openConsent(app, requestFor(client_id).url)
    expect((await decide(app, again)).status).toBe(303)
    const replay = await decide(app, again)
    expect(replay.status).toBe(400)
    expect(replay.location).toBeUndefined()
  })

  it('gives a loopback redirect URI any port, and issues tokens for the MCP endpoint that /api/v1 refuses', async () => {
    const { client_id } = await registerClient()
    const redirect = 'http://127.0.0.1:49152/callback'
    const { access_token } = await tokensFor(client_id, { redirect_uri: redirect, resource: MCP })
    expect(decodeJwt(access_token).aud).toBe(MCP)
    const refused = await read(access_token)
    expect(refused.status).toBe(401)
  })

  it('rotates refresh tokens; a reused one revokes its whole family', async () => {
    const { client_id } = await registerClient()
    const first = await tokensFor(client_id)
    const second = await refresh({ refresh_token: first.refresh_token!, client_id })
    expect(second.status).toBe(200)
    expect(second.body.refresh_token).toMatch(/^lat_rt_/)
    expect(second.body.refresh_token).not.toBe(first.refresh_token)
    expect((await read(second.body.access_token)).status).toBe(200)

    const reuse = await refresh({ refresh_token: first.refresh_token!, client_id })
    expect(reuse.status).toBe(400)
    expect(reuse.body).toEqual(errorBody('invalid_grant'))
    // The family is gone: the newest refresh token and its access token stop working.
    expect((await refresh({ refresh_token: second.body.refresh_token, client_id })).body).toEqual(
      errorBody('invalid_grant'),
    )
    expect((await read(second.body.access_token)).status).toBe(401)
  })

  it('refuses a refresh by another client, and for another resource or a wider scope', async () => {
    const { client_id } = await registerClient()
    const other = await registerClient()
    const narrow = await tokensFor(client_id, { scope: 'research.read' })
    expect(narrow.scope).toBe('research.read')
    expect(
      (await refresh({ refresh_token: narrow.refresh_token!, client_id, scope: 'research.read research.search' })).body,
    ).toEqual(errorBody('invalid_scope'))
    const t = await tokensFor(client_id)
    expect((await refresh({ refresh_token: t.refresh_token!, client_id, resource: MCP })).body).toEqual(
      errorBody('invalid_target'),
    )
    const t2 = await tokensFor(client_id)
    expect((await refresh({ refresh_token: t2.refresh_token!, client_id: other.client_id })).body).toEqual(
      errorBody('invalid_grant'),
    )
  })

  it('issues no refresh token to a client not registered for it', async () => {
    const { client_id } = await registerClient({ grant_types: ['authorization_code'] })
    const t = await tokensFor(client_id)
    expect(t).not.toHaveProperty('refresh_token')
  })

  it('revokes a refresh token at /oauth2/revoke, with the access token issued beside it', async () => {
    const { client_id } = await registerClient()
    const t = await tokensFor(client_id)
    const res = await request(app)
      .post('/oauth2/revoke')
      .type('form')
      .send({ token: t.refresh_token!, token_type_hint: 'refresh_token' })
    expect(res.status).toBe(200)
    expect((await refresh({ refresh_token: t.refresh_token!, client_id })).body).toEqual(errorBody('invalid_grant'))
    expect((await read(t.access_token)).status).toBe(401)
  })
})

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
