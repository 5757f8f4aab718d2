import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { createApp } from '../../auth-service/app.ts'
import { digest } from '../../auth-service/auth/secrets.ts'
import { JWT_BEARER, postExchange, registerAgent } from '../support/agent.ts'
import { BASE_URL, testDeps, testApp } from '../support/index.ts'
import { foreignAssertion } from '../support/forged-tokens.ts'

const CLAIM_GRANT = 'urn:agent-auth:grant-type:claim'
const RESOURCE = `${BASE_URL}/api/v1`
const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })

let clock = Date.now()
const deps = await testDeps({ now: () => clock })
const app = createApp(deps)

const register = () => registerAgent(app)
const exchange = (assertion: string, extra: Record<string, string> = {}) =>
  postExchange(app, assertion, { resource: RESOURCE, ...extra })
const read = (token: string, path = '/api/v1/posts') => request(app).get(path).set('Authorization', `Bearer ${token}`)

describe('POST /agent/identity', () => {
  it(
    'registers an anonymous identity: a signed ' + 'identity_assertion and a once-only claim_token stored hashed',
    async () => {
      const res = await request(app).post('/agent/identity').send({ type: 'anonymous' })
      expect(res.status).toBe(200)
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.body).toMatchObject({
        registration_id: expect.stringMatching(/^agt_/),
        registration_type: 'anonymous',
        identity_assertion: expect.any(String),
        claim_token: expect.stringMatching(/^lat_claim_/),
        scopes: ['research.read', 'research.search'],
        token_endpoint: `${BASE_URL}/oauth2/token`,
        resource: RESOURCE,
      })
      const header = decodeProtectedHeader(res.body.identity_assertion)
      expect(header).toMatchObject({ alg: 'ES256', typ: 'agent-identity+jwt', kid: deps.signingKey.kid })
      const claims = decodeJwt(res.body.identity_assertion)
      expect(claims).toMatchObject({ iss: BASE_URL, sub: res.body.registration_id, aud: BASE_URL })
      expect(claims.exp! - claims.iat!).toBe(30 * 24 * 3600)
      expect(await deps.store.get(`claim:${digest(res.body.claim_token)}`)).toEqual({
        identity: res.body.registration_id,
      })
      expect(await deps.store.get(`claim:${res.body.claim_token}`)).toBeUndefined()
    },
  )

  it.each([
    [
      { type: 'identity_assertion', assertion_type: 'urn:ietf:params:oauth:token-type:id-jag', assertion: 'eyJ.a.b' },
      'issuer_not_enabled',
    ],
    [{ type: 'service_auth', login_hint: 'someone@example.org' }, 'service_auth_not_enabled'],
    [{ type: 'identity_assertion', assertion_type: 'verified_email', assertion: 'x' }, 'invalid_request'],
    [{ type: 'identity_assertion' }, 'invalid_request'],
    [{ type: 'service_auth' }, 'invalid_request'],
    [{ type: 'password' }, 'invalid_request'],
    [{ type: 7 }, 'invalid_request'],
    [{}, 'invalid_request'],
    [[], 'invalid_request'],
  ])('answers %j with 400 %s', async (body, code) => {
    const res = await request(app)
      .post('/agent/identity')
      .send(body as object)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errorBody(code))
  })

  it('refuses malformed JSON, a form body and no body with invalid_request', async () => {
    for (const req of [
      request(app).post('/agent/identity').set('Content-Type', 'application/json').send('{"type":'),
      request(app).post('/agent/identity').type('form').send('type=anonymous'),
      request(app).post('/agent/identity'),
    ]) {
      const res = await req
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errorBody('invalid_request'))
    }
  })

  it('answers anonymous_not_enabled when anonymous registration is switched off', async () => {
    const off = await testApp({ anonymousRegistration: false })
    const res = await request(off).post('/agent/identity').send({ type: 'anonymous' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errorBody('anonymous_not_enabled'))
  })
})

describe('POST /agent/identity/claim', () => {
  it('answers claimed_or_in_flight for a real claim token, an unknown one, JSON or form', async () => {
    const { claim_token } = await register()
    for (const req of [
      request(app).post('/agent/identity/claim').send({ claim_token }),
      request(app).post('/agent/identity/claim').type('form').send({ claim_token: 'lat_claim_unknown' }),
      request(app).post('/agent/identity/claim').send({}),
    ]) {
      const res = await req
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errorBody('claimed_or_in_flight'))
    }
  })
})

describe('POST /oauth2/token', () => {
  it('exchanges an identity_assertion for an RFC 9068 access token, again and again', async () => {
    const { identity_assertion, registration_id } = await register()
    for (let i = 0; i < 2; i++) {
      const res = await exchange(identity_assertion, { client_id: 'ignored-client' })
      expect(res.status).toBe(200)
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.headers.pragma).toBe('no-cache')
      expect(res.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'research.read research.search',
      })
      expect(decodeProtectedHeader(res.body.access_token)).toMatchObject({
        alg: 'ES256',
        typ: 'at+jwt',
        kid: deps.signingKey.kid,
      })
      const claims = decodeJwt(res.body.access_token)
      expect(claims).toMatchObject({
        iss: BASE_URL,
        sub: registration_id,
        aud: RESOURCE,
        client_id: registration_id,
        scope: 'research.read research.search',
      })
      expect(claims.exp! - claims.iat!).toBe(3600)
      expect(claims.jti).toEqual(expect.any(String))
      expect((await read(res.body.access_token)).status).toBe(200)
    }
  })

  it('defaults the resource, and narrows scope on request', async () => {
    const { identity_assertion } = await register()
    const res = await postExchange(app, identity_assertion, { scope: 'research.read' })
    expect(res.status).toBe(200)
    expect(res.body.scope).toBe('research.read')
    expect((await read(res.body.access_token, '/api/v1/posts')).status).toBe(200)
    const search = await read(res.body.access_token, '/api/v1/search?q=rings')
    expect(search.status).toBe(403)
    expect(search.body).toEqual(errorBody('insufficient_scope'))
    expect(search.headers['www-authenticate']).toContain('error="insufficient_scope"')
  })

  it('binds a token to the resource asked for (RFC 8707): a token for /mcp is refused by /api/v1', async () => {
    const { identity_assertion } = await register()
    const res = await exchange(identity_assertion, { resource: `${BASE_URL}/mcp` })
    expect(res.status).toBe(200)
    expect(decodeJwt(res.body.access_token)).toMatchObject({ aud: `${BASE_URL}/mcp` })
    const refused = await read(res.body.access_token)
    expect(refused.status).toBe(401)
    expect(refused.headers['www-authenticate']).toContain('resource_metadata=')
  })

  it('refuses another resource with invalid_target and an unknown scope with invalid_scope', async () => {
    const { identity_assertion } = await register()
    const target = await exchange(identity_assertion, { resource: 'https://elsewhere.example/api' })
    expect(target.status).toBe(400)
    expect(target.body).toEqual(errorBody('invalid_target'))
    const scope = await exchange(identity_assertion, { scope: 'admin' })
    expect(scope.status).toBe(400)
    expect(scope.body).toEqual(errorBody('invalid_scope'))
  })

  it.each([
    ['a garbage assertion', 'not-a-jwt'],
    ['an assertion signed by another key', 'FOREIGN'],
    ['an access token used as an assertion', 'ACCESS'],
  ])('answers invalid_grant for %s', async (_what, kind) => {
    let assertion = kind
    if (kind === 'FOREIGN') assertion = await foreignAssertion()
    if (kind === 'ACCESS') assertion = (await exchange((await register()).identity_assertion)).body.access_token
    const res = await exchange(assertion)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errorBody('invalid_grant'))
    expect(res.headers['cache-control']).toBe('no-store')
  })

  it('answers invalid_grant once the identity is removed or the assertion expired', async () => {
    const a = await register()
    expect((await request(app).post('/oauth2/revoke').type('form').send({ token: a.identity_assertion })).status).toBe(
      200,
    )
    expect((await exchange(a.identity_assertion)).body).toEqual(errorBody('invalid_grant'))

    const b = await register()
    clock += 31 * 24 * 3600 * 1000
    try {
      expect((await exchange(b.identity_assertion)).body).toEqual(errorBody('invalid_grant'))
    } finally {
      clock = Date.now()
    }
  })

  it('answers the claim grant with authorization_pending, or invalid_grant for an unknown claim token', async () => {
    const { claim_token } = await register()
    const pending = await request(app).post('/oauth2/token').type('form').send({ grant_type: CLAIM_GRANT, claim_token })
    expect(pending.status).toBe(400)
    expect(pending.body).toEqual(errorBody('authorization_pending'))
    const unknown = await request(app)
      .post('/oauth2/token')
      .type('form')
      .send({ grant_type: CLAIM_GRANT, claim_token: 'lat_claim_nope' })
    expect(unknown.body).toEqual(errorBody('invalid_grant'))
  })

  it.each([
    [{ grant_type: 'client_credentials' }, 'unsupported_grant_type'],
    [{ grant_type: 'toString' }, 'unsupported_grant_type'],
    [{ grant_type: '__proto__' }, 'unsupported_grant_type'],
    [{}, 'invalid_request'],
    [{ grant_type: JWT_BEARER }, 'invalid_request'],
    [{ grant_type: CLAIM_GRANT }, 'invalid_request'],
  ])('answers %j with %s', async (form, code) => {
    const res = await request(app).post('/oauth2/token').type('form').send(form)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errorBody(code))
  })

  it('refuses JSON bodies and repeated parameters with invalid_request', async () => {
    const json = await request(app).post('/oauth2/token').send({ grant_type: JWT_BEARER, assertion: 'x' })
    expect(json.body).toEqual(errorBody('invalid_request'))
    const repeated = await request(app).post('/oauth2/token').type('form').send('grant_type=a&grant_type=b')
    expect(repeated.body).toEqual(errorBody('invalid_request'))
  })
})
