import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { createApp } from '../../auth-service/app.ts'
import { digest } from '../../auth-service/auth/secrets.ts'
import { BASE_URL, testDeps } from '../support/index.ts'

const deps = await testDeps()
// The real store, watched: a refused request must write nothing.
const writes: string[] = []
const realPut = deps.store.put.bind(deps.store)
deps.store.put = (key, value, ttl) => {
  writes.push(key)
  return realPut(key, value, ttl)
}
const app = createApp(deps)
const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })
const CHALLENGE = `Bearer error="invalid_token", resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource"`

describe('POST /api/v1/keys', () => {
  it('issues a key with no body: 201 with every ApiKey field, shown once, stored only as a digest', async () => {
    const res = await request(app).post('/api/v1/keys')
    expect(res.status).toBe(201)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.body).toEqual({
      key: expect.stringMatching(/^lat_live_[A-Za-z0-9_-]{43}$/),
      prefix: expect.stringMatching(/^lat_live_/),
      token_type: 'Bearer',
      scopes: ['research.read', 'research.search'],
      expires_in: 90 * 24 * 3600,
      label: null,
    })
    expect(res.body.key.startsWith(res.body.prefix)).toBe(true)
    expect(await deps.store.get(`api-key:${digest(res.body.key)}`)).toMatchObject({
      prefix: res.body.prefix,
      label: null,
    })
    expect(await deps.store.get(`api-key:${res.body.key}`)).toBeUndefined()
  })

  it('issues a different key every time', async () => {
    const [a, b] = await Promise.all([request(app).post('/api/v1/keys'), request(app).post('/api/v1/keys')])
    expect(a.body.key).not.toBe(b.body.key)
  })

  it('echoes a label sent as JSON or as a form', async () => {
    const json = await request(app).post('/api/v1/keys').send({ label: 'nightly crawler' })
    expect(json.status).toBe(201)
    expect(json.body.label).toBe('nightly crawler')
    const form = await request(app).post('/api/v1/keys').type('form').send('label=r%C3%A9sum%C3%A9%20bot')
    expect(form.status).toBe(201)
    expect(form.body.label).toBe('résumé bot')
    const empty = await request(app).post('/api/v1/keys').send({})
    expect(empty.body.label).toBeNull()
  })

  it.each([
    ['a number', { label: 42 }],
    ['an object', { label: { a: 1 } }],
    ['an array', { label: ['a'] }],
    ['too long', { label: 'x'.repeat(101) }],
    ['control characters', { label: 'a\u0000b' }],
    ['a non-object body', ['label']],
  ])('refuses a label that is %s with 400 invalid_request and writes nothing', async (_what, body) => {
    const before = writes.length
    const res = await request(app).post('/api/v1/keys').send(body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errorBody('invalid_request'))
    expect(writes.length).toBe(before)
  })

  it('refuses a repeated form label, malformed JSON and unknown body types', async () => {
    expect((await request(app).post('/api/v1/keys').type('form').send('label=a&label=b')).status).toBe(400)
    const bad = await request(app).post('/api/v1/keys').set('Content-Type', 'application/json').send('{"label":')
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual(errorBody('invalid_request'))
    const xml = await request(app).post('/api/v1/keys').set('Content-Type', 'application/xml').send('<label/>')
    expect(xml.status).toBe(415)
    expect(xml.body).toEqual(errorBody('unsupported_media_type'))
  })

  it('refuses an oversized body with 413', async () => {
    const res = await request(app)
      .post('/api/v1/keys')
      .send({ label: 'x'.repeat(40_000) })
    expect(res.status).toBe(413)
    expect(res.body).toEqual(errorBody('payload_too_large'))
  })
})

describe('the bearer check on /api/v1', () => {
  it('reads with a valid API key, with no WWW-Authenticate', async () => {
    const { key } = (await request(app).post('/api/v1/keys')).body
    for (const path of ['/api/v1', '/api/v1/posts', '/api/v1/posts/hashing-rings', '/api/v1/search?q=rings']) {
      const res = await request(app).get(path).set('Authorization', `Bearer ${key}`)
      expect(res.status, path).toBe(200)
      expect(res.headers['www-authenticate']).toBeUndefined()
    }
  })

  it.each([
    ['an unknown key', 'Bearer lat_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['garbage', 'Bearer not-a-token'],
    ['a malformed JWT', 'Bearer aaa.bbb.ccc'],
    ['an empty bearer', 'Bearer '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['two tokens', 'Bearer a b'],
    ['an overlong value', `Bearer ${'a'.repeat(5000)}`],
  ])('answers %s with 401 invalid_token and the resource_metadata challenge', async (_what, header) => {
    const res = await request(app).get('/api/v1/posts').set('Authorization', header)
    expect(res.status).toBe(401)
    expect(res.headers['www-authenticate']).toBe(CHALLENGE)
    expect(res.body).toEqual(errorBody('invalid_token'))
  })

  it('refuses a revoked key at once', async () => {
    const { key } = (await request(app).post('/api/v1/keys')).body
    expect((await request(app).get('/api/v1/posts').set('Authorization', `Bearer ${key}`)).status).toBe(200)
    expect(
      (await request(app).post('/oauth2/revoke').type('form').send({ token: key, token_type_hint: 'access_token' }))
        .status,
    ).toBe(200)
    const res = await request(app).get('/api/v1/posts').set('Authorization', `Bearer ${key}`)
    expect(res.status).toBe(401)
    expect(res.headers['www-authenticate']).toBe(CHALLENGE)
  })

  it('checks the bearer on every /api/v1 call, POST and unknown paths included', async () => {
    for (const req of [
      request(app).post('/api/v1/keys'),
      request(app).get('/api/v1/nope'),
      request(app).get('/api/v1/search'),
    ]) {
      const res = await req.set('Authorization', 'Bearer nope')
      expect(res.status).toBe(401)
    }
  })
})
