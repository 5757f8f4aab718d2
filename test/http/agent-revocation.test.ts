import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { SignJWT } from 'jose'
import { createApp } from '../../auth-service/app.ts'
import { postExchange, registerAgent } from '../support/agent.ts'
import { BASE_URL, testDeps } from '../support/index.ts'
import { b64, foreignAssertion } from '../support/forged-tokens.ts'

/* Revoking an agent's tokens, the bearer check that follows, and the Security Event Token receiver. */

const RESOURCE = `${BASE_URL}/api/v1`
const CHALLENGE = `Bearer error="invalid_token", resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource"`
const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })

let clock = Date.now()
const deps = await testDeps({ now: () => clock })
const app = createApp(deps)

const register = () => registerAgent(app)
const exchange = (assertion: string, extra: Record<string, string> = {}) =>
  postExchange(app, assertion, { resource: RESOURCE, ...extra })
const read = (token: string, path = '/api/v1/posts') => request(app).get(path).set('Authorization', `Bearer ${token}`)

describe('POST /oauth2/revoke and the bearer check', () => {
  it('revokes an access token at once, idempotently; the assertion still exchanges for a fresh one', async () => {
    const { identity_assertion } = await register()
    const token = (await exchange(identity_assertion)).body.access_token
    expect((await read(token)).status).toBe(200)
    for (let i = 0; i < 2; i++) {
      const res = await request(app)
        .post('/oauth2/revoke')
        .type('form')
        .send({ token, token_type_hint: 'access_token' })
      expect(res.status).toBe(200)
      expect(res.headers['cache-control']).toBe('no-store')
    }
    const refused = await read(token)
    expect(refused.status).toBe(401)
    expect(refused.headers['www-authenticate']).toBe(CHALLENGE)
    const fresh = (await exchange(identity_assertion)).body.access_token
    expect((await read(fresh)).status).toBe(200)
  })

  it('answers 200 for unknown tokens and any hint, 400 only without a token', async () => {
    for (const form of [
      { token: 'garbage' },
      { token: 'a.b.c', token_type_hint: 'refresh_token' },
      { token: 'lat_live_x' },
    ]) {
      expect((await request(app).post('/oauth2/revoke').type('form').send(form)).status).toBe(200)
    }
    const missing = await request(app).post('/oauth2/revoke').type('form').send({})
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual(errorBody('invalid_request'))
  })

  it('refuses an identity_assertion, an expired token and a token for another audience as bearers', async () => {
    const { identity_assertion } = await register()
    const asBearer = await read(identity_assertion)
    expect(asBearer.status).toBe(401)
    expect(asBearer.headers['www-authenticate']).toBe(CHALLENGE)

    const token = (await exchange(identity_assertion)).body.access_token
    clock += 3600 * 1000 + 31_000
    try {
      expect((await read(token)).status).toBe(401)
    } finally {
      clock = Date.now()
    }

    const otherAudience = await new SignJWT({ scope: 'research.read', client_id: 'x' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: deps.signingKey.kid })
      .setIssuer(BASE_URL)
      .setSubject('agt_x')
      .setAudience('https://elsewhere.example/api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .setJti('j1')
      .sign(deps.signingKey.privateKey)
    expect((await read(otherAudience)).status).toBe(401)
  })

  it('refuses alg "none" and a tampered payload', async () => {
    const token = (await exchange((await register()).identity_assertion)).body.access_token as string
    const [h, p, s] = token.split('.')
    const none = `${b64({ alg: 'none', typ: 'at+jwt' })}.${p}.`
    expect((await read(none)).status).toBe(401)
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString())
    const tampered = `${h}.${b64({ ...claims, scope: 'research.read research.search admin' })}.${s}`
    expect((await read(tampered)).status).toBe(401)
  })
})

describe('POST /agent/event/notify (RFC 8935)', () => {
  it('refuses every SET, since no issuer is trusted, with the RFC 8935 error shape', async () => {
    const set = await foreignAssertion()
    const res = await request(app).post('/agent/event/notify').set('Content-Type', 'application/secevent+jwt').send(set)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ err: 'invalid_issuer', description: expect.any(String) })
  })

  it.each([
    ['application/json', '{"a":1}'],
    ['text/plain', 'eyJ.eyJ.x'],
    ['application/secevent+jwt', 'not a jwt'],
    ['application/secevent+jwt', ''],
    ['application/secevent+jwt', '!!!.???.x'],
  ])('answers %s %j with invalid_request', async (type, body) => {
    const res = await request(app).post('/agent/event/notify').set('Content-Type', type).send(body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ err: 'invalid_request', description: expect.any(String) })
  })
})
