/**
 * The authorization endpoint under hostile requests: no open redirect (RFC 9700 §4.11.2), a
 * malformed redirect URI or client name is a 4xx before anything is written, and the consent page
 * never shows a name that reads differently from what was registered.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import type { Store } from '../../auth-service/store/store.ts'
import { testDeps } from '../support/index.ts'
import { openConsent, pkce } from '../support/oauth-person.ts'

const REDIRECT = 'https://attacker.example/landing'
const LOOPBACK = 'http://127.0.0.1/cb'

/** A store that records every key written, so a test can assert that a refusal wrote nothing. */
function recording(store: Store): { store: Store; written: string[] } {
  const written: string[] = []
  const wrapped: Store = {
    ...store,
    put: (key, value, ttl) => (written.push(key), store.put(key, value, ttl)),
    putIfAbsent: (key, value, ttl) => (written.push(key), store.putIfAbsent(key, value, ttl)),
  }
  return { store: wrapped, written }
}

const base = await testDeps()
const { store, written } = recording(base.store)
const app = createApp({ ...base, store })

async function register(metadata: object) {
  return request(app)
    .post('/oauth2/register')
    .send({ redirect_uris: [REDIRECT, LOOPBACK], ...metadata })
}

function authorizeQuery(clientId: string, overrides: Record<string, string | undefined>) {
  const { challenge } = pkce()
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'xyz',
    ...overrides,
  }
  return (
    `/oauth2/authorize` +
    `?${new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined))}`
  )
}

describe('no open redirect', () => {
  it.each([
    ['no response_type', { response_type: undefined }],
    ['response_type=token', { response_type: 'token' }],
    ['response_type=code id_token', { response_type: 'code id_token' }],
    ['no PKCE', { code_challenge: undefined }],
    ['PKCE plain', { code_challenge_method: 'plain' }],
    ['an unknown scope', { scope: 'admin' }],
    ['a foreign resource', { resource: 'https://evil.example/' }],
    ['a repeated state', { state: undefined }, '&state=a&state=b'],
  ])(
    'shows %s on a 400 page at the origin, even for a registered https redirect URI',
    async (_name, overrides, extra = '') => {
      const { client_id } = (await register({ client_name: 'Attacker' })).body as { client_id: string }
      written.length = 0
      const res = await request(app).get(authorizeQuery(client_id, overrides) + extra)
      expect(res.status).toBe(400)
      expect(res.headers.location).toBeUndefined()
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      expect(res.text).not.toContain('attacker.example')
      expect(written).toEqual([])
    },
  )
})

describe('malformed redirect URIs and client names', () => {
  it.each([
    'http://127.0.0.1:99999/cb',
    'http://[::1]:70000/cb',
    'http://localhost:65536/cb',
    'https://app.example:99999/cb',
    // Port 0 asks the system for any free port: no client listens at it.
    'http://127.0.0.1:0/cb',
    'http://[::1]:00/cb',
    'https://app.example:0/cb',
  ])('refuses %s at registration, and at authorization before anything is written', async (uri) => {
    const registered = await register({ redirect_uris: [uri] })
    expect(registered.status).toBe(400)
    expect(registered.body.error).toBe('invalid_redirect_uri')
    expect(registered.body.error_description).toMatch(/^Not a usable redirect URI: .+\.$/)
    const { client_id } = (await register({})).body as { client_id: string }
    written.length = 0
    const res = await request(app).get(authorizeQuery(client_id, { redirect_uri: uri }))
    expect(res.status).toBe(400)
    expect(res.headers.location).toBeUndefined()
    expect(res.text).toContain('invalid_redirect_uri')
    expect(written).toEqual([])
  })

  it.each([
    ['a right-to-left override', 'Good App\u202Egnp.exe'],
    ['a right-to-left isolate', 'Good\u2067 App'],
    ['NUL', 'Good\u0000App'],
    ['a line feed', 'Good App\nApproved by the site'],
    ['a carriage return', 'Good App\rX'],
    ['a line separator', 'Good\u2028App'],
    ['a zero-width joiner', 'Go\u200Dod'],
    ['a tab', 'Good\tApp'],
    ['DEL', 'Good\u007FApp'],
    ['a private-use character', 'Good\uE000App'],
  ])('refuses a client_name with %s (invalid_client_metadata)', async (_name, client_name) => {
    written.length = 0
    const res = await register({ client_name })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error: 'invalid_client_metadata',
      error_description: expect.stringContaining('client_name'),
    })
    expect(written.filter((k) => k.startsWith('client:'))).toEqual([])
  })

  it('refuses, at authorization, a client stored before names were checked', async () => {
    const { client_id } = (await register({ client_name: 'Plain' })).body as { client_id: string }
    const record = (await store.get<Record<string, unknown>>(`client:${client_id}`))!
    await store.put(`client:${client_id}`, { ...record, client_name: 'Good App\u202Egnp.exe' }, 3600)
    written.length = 0
    const res = await request(app).get(authorizeQuery(client_id, {}))
    expect(res.status).toBe(400)
    expect(res.text).toContain('invalid_client')
    expect(res.text).not.toContain('gnp.exe')
    expect(written).toEqual([])
  })

  it('shows a plain name exactly as registered, letters of any script included', async () => {
    const client_name = 'Ågent 研究 «Lattice» – ok'
    const { client_id } = (await register({ client_name })).body as { client_id: string }
    const page = await openConsent(app, authorizeQuery(client_id, {}))
    expect(page.status).toBe(200)
    expect(page.html).toContain(client_name)
  })
})

describe('HEAD of the authorization endpoint', () => {
  it('answers as GET would, but starts no consent and sets no cookie', async () => {
    const { client_id } = (await register({ client_name: 'Header App' })).body as { client_id: string }
    const query = authorizeQuery(client_id, {})
    written.length = 0
    const head = await request(app).head(query)
    expect(written).toEqual([])
    expect(head.headers['set-cookie']).toBeUndefined()
    const get = await request(app).get(query)
    expect(written.filter((k) => k.startsWith('consent:')).length).toBe(1)
    expect(get.headers['set-cookie']).toBeDefined()
    expect(head.status).toBe(get.status)
    expect(head.status).toBe(200)
    for (const name of [
      'content-type',
      'content-length',
      'cache-control',
      'content-security-policy',
      'x-frame-options',
    ])
      expect(head.headers[name], name).toBe(get.headers[name])
  })

  it('refuses a bad request as GET does, writing nothing', async () => {
    const { client_id } = (await register({})).body as { client_id: string }
    written.length = 0
    const head = await request(app).head(authorizeQuery(client_id, { code_challenge: undefined }))
    expect(head.status).toBe(400)
    expect(head.headers['set-cookie']).toBeUndefined()
    expect(written).toEqual([])
  })
})
