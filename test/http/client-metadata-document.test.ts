import { afterAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import { decodeJwt } from 'jose'
import type { ServerResponse } from 'node:http'
import { createApp } from '../../auth-service/app.ts'
import { isBlockedAddress } from '../../auth-service/auth/client-metadata-fetch.ts'
import { testDeps } from '../support/index.ts'
import { approve, openConsent, pkce } from '../support/oauth-person.ts'
import { selfSignedCertificate, serveHttps } from '../support/tls.ts'

const REDIRECT = 'http://127.0.0.1/callback'
const tls = selfSignedCertificate()
const hits = new Map<string, number>()
let origin = ''

const json = (res: ServerResponse, body: object, headers: Record<string, string> = {}) => {
  res.writeHead(200, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body))
}
const doc = (path: string, extra: object = {}) => ({
  client_id: `${origin}${path}`,
  client_name: 'Doc Client',
  redirect_uris: [REDIRECT],
  ...extra,
})

// The client's side: documents good and hostile, each counting how often it was fetched.
const documents = await serveHttps(tls, (req, res) => {
  const path = req.url!
  hits.set(path, (hits.get(path) ?? 0) + 1)
  switch (path) {
    case '/client.json':
      return json(res, doc(path, { grant_types: ['authorization_code', 'refresh_token'] }), {
        'Cache-Control': 'max-age=600',
      })
    case '/redirect.json':
      return res.writeHead(302, { Location: '/client.json' }).end()
    case '/big.json':
      return json(res, doc(path, { padding: 'x'.repeat(6000) }))
    case '/trickle.json': {
      // No Content-Length: the cap must hold while streaming.
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.write(`{"client_id":"${origin}${path}","padding":"`)
      for (let i = 0; i < 10; i++) res.write('y'.repeat(1000))
      return res.end('"}')
    }
    case '/slow.json':
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.write('{')
      return // never finishes
    case '/html.json':
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(JSON.stringify(doc(path)))
      return
    case '/mismatch.json':
      return json(res, doc(path, { client_id: `${origin}/client.json` }))
    case '/bad-redirect.json':
      return json(res, doc(path, { redirect_uris: ['http://evil.example/callback'] }))
    case '/secret.json':
      return json(res, doc(path, { token_endpoint_auth_method: 'private_key_jwt' }))
    case '/broken.json':
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"client_id": ')
      return
    default:
      res.writeHead(404).end()
  }
})
origin = documents.origin

// The service allows this local origin explicitly, as CLIENT_METADATA_DEV_ORIGINS would, and trusts its certificate.
const devDeps = await testDeps()
const devApp = createApp({ ...devDeps, clientMetadata: { devOrigins: [origin], ca: tls.cert } })
// The production configuration: no development origin.
const prodDeps = await testDeps()
const prodApp = createApp({ ...prodDeps, clientMetadata: { ca: tls.cert } })

afterAll(async () => {
  await documents.close()
  await devDeps.store.close()
  await prodDeps.store.close()
})

function authorizeUrl(clientId: string, challenge = pkce().challenge): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:61000/callback',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 's',
  })
  return `/oauth2/authorize?${q}`
}

describe('clients identified by a client ID metadata document', () => {
  it(
    'fetches the document, names its host on the consent ' + 'page, and issues tokens to the URL as client_id',
    async () => {
      const clientId = `${origin}/client.json`
      const page = await openConsent(devApp, authorizeUrl(clientId))
      expect(page.status, page.html).toBe(200)
      expect(page.html).toContain('Doc Client')
      expect(page.html).toContain(new URL(origin).host)
      expect(page.html).toContain('metadata document')

      const { verifier, challenge } = pkce()
      const back = await approve(devApp, authorizeUrl(clientId, challenge))
      const res = await request(devApp)
        .post('/oauth2/token')
        .type('form')
        .send({
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          code_verifier: verifier,
          redirect_uri: 'http://127.0.0.1:61000/callback',
          client_id: clientId,
        })
      expect(res.status, res.text).toBe(200)
      expect(decodeJwt(res.body.access_token).client_id).toBe(clientId)
      expect(res.body.refresh_token).toMatch(/^lat_rt_/)
      // Cached by its max-age: two authorizations, one fetch.
      expect(hits.get('/client.json')).toBe(1)
    },
  )

  it.each([
    ['a redirect', '/redirect.json', /redirects/],
    ['a document over 5 KB', '/big.json', /larger than 5120 bytes/],
    ['a document that grows past 5 KB without Content-Length', '/trickle.json', /larger than 5120 bytes/],
    ['a content type other than JSON', '/html.json', /content type/],
    ['a client_id that is not the document’s URL', '/mismatch.json', /client_id/],
    ['a redirect URI that is neither https nor loopback', '/bad-redirect.json', /redirect URI/],
    ['a confidential client', '/secret.json', /public clients/],
    ['malformed JSON', '/broken.json', /not valid JSON/],
    ['a missing document', '/missing.json', /HTTP 404/],
  ])('refuses %s on an error page', async (_name, path, why) => {
    const res = await request(devApp).get(authorizeUrl(`${origin}${path}`))
    expect(res.status).toBe(400)
    expect(res.headers.location).toBeUndefined()
    expect(res.text).toContain('invalid_client')
    expect(res.text).toMatch(why)
  })

  it('gives up on a document that does not arrive within 5 s', async () => {
    const started = Date.now()
    const res = await request(devApp).get(authorizeUrl(`${origin}/slow.json`))
    expect(res.status).toBe(400)
    expect(res.text).toMatch(/within 5 s/)
    expect(Date.now() - started).toBeLessThan(9000)
  })

  it('remembers a refusal for a while instead of fetching again', async () => {
    const before = hits.get('/mismatch.json') ?? 0
    await request(devApp).get(authorizeUrl(`${origin}/mismatch.json`))
    await request(devApp).get(authorizeUrl(`${origin}/mismatch.json`))
    expect(hits.get('/mismatch.json')).toBe(Math.max(before, 1))
  })

  it.each([
    ['a loopback address', () => `${origin}/client.json`, /does not resolve to public addresses only/],
    [
      'a name that resolves to loopback',
      () => `${origin.replace('127.0.0.1', 'localhost')}/client.json`,
      /does not resolve to public addresses only/,
    ],
    ['plain http', () => `${origin.replace('https:', 'http:')}/client.json`, /https/],
    [
      'the cloud metadata address',
      () => 'https://169.254.169.254/latest/meta-data.json',
      /does not resolve to public addresses only/,
    ],
    ['a private network', () => 'https://10.0.0.7/client.json', /does not resolve to public addresses only/],
    [
      'an IPv4-mapped IPv6 loopback',
      () => 'https://[::ffff:7f00:1]/client.json',
      /does not resolve to public addresses only/,
    ],
    ['a URL without a path', () => 'https://client.example', /with a path/],
  ])('refuses, without a development origin, %s', async (_name, clientId, why) => {
    const before = hits.get('/client.json') ?? 0
    const res = await request(prodApp).get(authorizeUrl(clientId()))
    expect(res.status).toBe(400)
    expect(res.headers.location).toBeUndefined()
    expect(res.text).toMatch(why)
    expect(hits.get('/client.json') ?? 0).toBe(before)
  })
})

describe('the address check', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['::1', true],
    ['::', true],
    ['fd00:ec2::254', true],
    ['fe80::1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['not-an-address', true],
    ['93.184.215.14', false],
    ['2606:4700::6810:85e5', false],
    ['::ffff:93.184.215.14', false],
  ])('%s blocked: %s', (address, blocked) => {
    expect(isBlockedAddress(address)).toBe(blocked)
  })
})
