import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { decodeJwt } from 'jose'
import { createApp } from '../../auth-service/app.ts'
import { digest } from '../../auth-service/auth/secrets.ts'
import { BASE_URL, testDeps } from '../support/index.ts'
import { approve, decide, openConsent } from '../support/oauth-person.ts'
import { LOOPBACK, MCP, REDIRECT, RESOURCE, codeFlow } from '../support/code-flow.ts'

const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })

const deps = await testDeps()
const app = createApp(deps)
const { registerClient, requestFor, redeem, refresh, read, tokensFor } = codeFlow(app)

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
  it(
    'shows a consent page that names the client, redirect ' + 'host, scopes and resource, is never framed nor cached',
    async () => {
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
    },
  )

  it(
    'approves: an anonymous identity, a code back with ' + 'state and iss, then tokens bound to client and resource',
    async () => {
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
    },
  )

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

  it(
    'gives a loopback redirect URI any port, and issues ' + 'tokens for the MCP endpoint that /api/v1 refuses',
    async () => {
      const { client_id } = await registerClient()
      const redirect = 'http://127.0.0.1:49152/callback'
      const { access_token } = await tokensFor(client_id, { redirect_uri: redirect, resource: MCP })
      expect(decodeJwt(access_token).aud).toBe(MCP)
      const refused = await read(access_token)
      expect(refused.status).toBe(401)
    },
  )

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
