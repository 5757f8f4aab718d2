import fc from 'fast-check'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { DEFAULT_RATE_LIMITS } from '../../auth-service/defaults.ts'
import { postRegistration } from '../support/agent.ts'
import { testDeps } from '../support/index.ts'
import {
  CONTENT_TYPES,
  METHODS,
  PATHS,
  assertAnswer,
  authorization,
  body,
  credential,
  hiddenName,
  query,
} from '../support/hostile-input.ts'

const deps = await testDeps()
const app = createApp({
  ...deps,
  rateLimits: {
    ...DEFAULT_RATE_LIMITS,
    keysPerHour: 1e6,
    identitiesPerHour: 1e6,
    tokensPerMinute: 1e6,
    clientsPerHour: 1e6,
    anonymousReadsPerMinute: 1e6,
    writesPerMinute: 1e6,
    badCredentialsPerMinute: 1e6,
  },
})

describe('hostile input, generated', () => {
  it('never answers 5xx and always explains a refusal with a known code', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.constantFrom(...METHODS),
        query,
        fc.option(authorization),
        fc.option(fc.constantFrom(...CONTENT_TYPES)),
        body,
        async (path, method, q, auth, type, payload) => {
          let req = request(app)[method](path).query(q)
          if (auth !== null) req = req.set('Authorization', auth)
          if (type !== null && method !== 'get' && method !== 'head') req = req.set('Content-Type', type).send(payload)
          const res = await req
          if (method !== 'head') assertAnswer(path, res.status, res.headers['content-type'], res.body)
          else expect(res.status).toBeLessThan(500)
        },
      ),
      { numRuns: 400 },
    )
  })

  it('never answers 5xx to garbage tokens at the token and revocation endpoints', async () => {
    await fc.assert(
      fc.asyncProperty(
        credential,
        fc.constantFrom('urn:ietf:params:oauth:grant-type:jwt-bearer', 'urn:agent-auth:grant-type:claim', 'password'),
        async (token, grant) => {
          const exchange = await request(app)
            .post('/oauth2/token')
            .type('form')
            .send({ grant_type: grant, assertion: token, claim_token: token })
          assertAnswer('/oauth2/token', exchange.status, exchange.headers['content-type'], exchange.body)
          expect(exchange.status).not.toBe(200)
          const revoke = await request(app).post('/oauth2/revoke').type('form').send({ token })
          expect(revoke.status).toBe(token === '' ? 400 : 200)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('never answers 5xx nor redirects at the authorization endpoint, and never 5xx at registration', async () => {
    const { client_id } = (
      await request(app)
        .post('/oauth2/register')
        .send({ redirect_uris: ['https://app.example/cb', 'http://127.0.0.1/cb'] })
    ).body as { client_id: string }
    const loopback = fc
      .tuple(fc.constantFrom('127.0.0.1', '[::1]', 'localhost'), fc.integer({ min: 0, max: 1_000_000 }))
      .map(([host, port]) => `http://${host}:${port}/cb`)
    const param = fc.oneof(
      fc.string(),
      credential,
      loopback,
      fc.constantFrom(client_id, 'https://app.example/cb', 'S256', 'plain', 'code', 'https://127.0.0.1/c.json'),
    )
    const authorizeQuery = fc.dictionary(
      fc.constantFrom(
        'response_type',
        'client_id',
        'redirect_uri',
        'code_challenge',
        'code_challenge_method',
        'scope',
        'resource',
        'state',
        'client_id[]',
      ),
      param,
      { maxKeys: 9 },
    )
    const metadata = fc.oneof(
      fc.json(),
      fc
        .record(
          {
            redirect_uris: fc.oneof(fc.array(param), param),
            client_name: fc.oneof(fc.string(), fc.integer(), hiddenName),
            grant_types: fc.array(param),
          },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
    )
    await fc.assert(
      fc.asyncProperty(authorizeQuery, metadata, async (q, body) => {
        const page = await request(app).get('/oauth2/authorize').query(q)
        expect(page.status).toBeLessThan(500)
        // Only the person's decision is redirected (RFC 9700 §4.11.2): the request itself never is.
        expect(page.headers.location).toBeUndefined()
        if (page.status >= 400) expect(page.headers['content-type']).toMatch(/^text\/html/)
        const registered = await request(app)
          .post('/oauth2/register')
          .set('Content-Type', 'application/json')
          .send(body)
        if (registered.status !== 201)
          assertAnswer('/oauth2/register', registered.status, registered.headers['content-type'], registered.body)
      }),
      { numRuns: 150 },
    )
  })

  it('refuses every client name that hides characters, whatever surrounds them', async () => {
    await fc.assert(
      fc.asyncProperty(hiddenName, async (client_name) => {
        const res = await request(app)
          .post('/oauth2/register')
          .send({ client_name, redirect_uris: ['https://app.example/cb'] })
        expect(res.status).toBe(400)
        expect(res.body.error).toBe('invalid_client_metadata')
      }),
      { numRuns: 100 },
    )
  })

  it('answers malformed percent-encodings and other spellings of its paths with a coded 4xx, never 5xx', async () => {
    const percentEscape = fc.oneof(
      fc.constantFrom('%', '%f', '%zz', '%ff', '%c0%af', '%E0%A4%A', '%ED%A0%80', '%25', '%2F', '%00', '%2e%2e'),
      fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, '0')}`),
    )
    const spelled = fc
      .tuple(
        fc.constantFrom(...PATHS, '/mcp', '/posts/hashing-rings', '/tags', '/'),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
      )
      .map(([path, upper]) => [...path].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c)).join(''))
    const path = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('/', '/posts/', '/api/v1/posts/', '/api/v1/', '/mcp/', '/oauth2/', '/.well-known/'),
          fc.array(fc.oneof(percentEscape, fc.stringMatching(/^[a-z0-9-]{0,8}$/)), { minLength: 1, maxLength: 4 }),
        )
        .map(([prefix, parts]) => prefix + parts.join('')),
      spelled,
    )
    await fc.assert(
      fc.asyncProperty(path, fc.constantFrom('get', 'post', 'head'), async (p, method) => {
        const res = await request(app)[method](p)
        expect(res.status, `${method} ${p}`).toBeLessThan(500)
        if (method !== 'head' && res.status >= 400 && res.headers['content-type']?.startsWith('application/json'))
          assertAnswer(p, res.status, res.headers['content-type'], res.body)
        // Another spelling of an API path is never answered as the path itself.
        if (p !== p.toLowerCase() && PATHS.includes(p.toLowerCase()))
          expect([404, 405], `${method} ${p}`).toContain(res.status)
      }),
      { numRuns: 300 },
    )
  })

  it('never lets a generated bearer value read as anyone', async () => {
    await fc.assert(
      fc.asyncProperty(credential, async (token) => {
        const res = await request(app).get('/api/v1/posts?limit=1').set('Authorization', `Bearer ${token}`)
        expect(res.status).toBe(401)
        expect(res.body.error).toBe('invalid_token')
      }),
      { numRuns: 200 },
    )
  })

  it('still answers normally afterwards', async () => {
    expect((await request(app).get('/api/v1')).status).toBe(200)
    expect((await postRegistration(app)).status).toBe(200)
  })
})
