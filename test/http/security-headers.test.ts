import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { apiSecurityHeaderList, securityHeaderList } from '../../auth-service/http/security-headers.ts'
import { distOf, testDeps } from '../support/index.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const app = createApp({
  ...(await testDeps({ baseUrl: 'http://localhost:4321' })),
  siteDir: join(distOf('fixture'), 'current', 'site'),
})

describe('security headers', () => {
  it.each(['/', '/posts/cafe-latency-notes', '/developers', '/claim', '/no-such-page'])(
    'the page %s carries the CSP and hardening headers',
    async (path) => {
      const res = await request(app).get(path)
      const csp = res.headers['content-security-policy']
      expect(csp).toContain("default-src 'self'")
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'")
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
      expect(csp).toContain("object-src 'none'")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['x-frame-options']).toBe('DENY')
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
      expect(res.headers['strict-transport-security']).toBeUndefined() // plain-HTTP origin in tests
    },
  )

  it("gives the consent page the pages' policy, with its own Referrer-Policy", async () => {
    const res = await request(app).get('/oauth2/authorize')
    expect(res.headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'")
    expect(res.headers['x-frame-options']).toBe('DENY')
    // The page's address carries the request's state: it is never sent on (RFC 6749 §10.12).
    expect(res.headers['referrer-policy']).toBe('no-referrer')
  })

  it.each([
    '/api/v1/posts',
    '/api/v1/posts/cafe-latency-notes',
    '/api/v1/posts/no-such-article',
    '/api/v1/nothing-here',
    '/.well-known/oauth-authorization-server',
    '/openapi.json',
    '/mcp',
  ])('the answer for programs %s carries the REST set: nothing loads, frames or sniffs it', async (path) => {
    const res = await request(app).get(path)
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['x-frame-options']).toBe('DENY')
    // What only guides a browser rendering a page is left out.
    for (const name of ['x-xss-protection', 'x-dns-prefetch-control', 'origin-agent-cluster', 'referrer-policy'])
      expect(res.headers[name], name).toBeUndefined()
  })

  it('sends the same security headers from nginx as from the service', () => {
    const named = (pairs: string[]) => Object.fromEntries(pairs.flatMap((v, i) => (i % 2 ? [] : [[v, pairs[i + 1]]])))
    const conf = (name: string) =>
      named(
        [
          ...readFileSync(join(ROOT, 'deploy', 'nginx', name), 'utf8').matchAll(/^add_header (\S+) "(.*)" always;$/gm),
        ].flatMap(([, header, value]) => [header!.toLowerCase(), value!]),
      )
    expect(conf('api-security-headers.conf')).toEqual(named(apiSecurityHeaderList({ https: false })))
    expect(conf('security-headers.conf')).toEqual(named(securityHeaderList({ https: false })))
  })

  it('sends HSTS on an HTTPS origin', async () => {
    const https = createApp({ ...(await testDeps({ baseUrl: 'https://research.example.org' })) })
    for (const path of ['/api/v1', '/developers'])
      expect((await request(https).get(path)).headers['strict-transport-security'], path).toBe(
        'max-age=31536000; includeSubDomains',
      )
  })

  it('serves markdown twins as text/markdown with nosniff, so raw HTML in them never renders', async () => {
    const res = await request(app).get('/posts/hashing-rings.md')
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.text).toContain("<script>alert('x')</script>") // the source, as written
    const page = await request(app).get('/posts/hashing-rings')
    expect(page.text).not.toContain("alert('x')") // the page, sanitised
  })
})

describe('CORS, exactly as documented', () => {
  it('opens the API, discovery and tokens to every origin, without credentials', async () => {
    for (const path of ['/api/v1', '/.well-known/oauth-authorization-server', '/openapi.json']) {
      const res = await request(app).get(path).set('Origin', 'https://tool.example')
      expect(res.headers['access-control-allow-origin'], path).toBe('*')
      expect(res.headers['access-control-allow-credentials'], path).toBeUndefined()
    }
    const token = await request(app)
      .options('/oauth2/token')
      .set('Origin', 'https://tool.example')
      .set('Access-Control-Request-Method', 'POST')
    expect(token.status).toBe(204)
    expect(token.headers['access-control-allow-methods']).toContain('POST')
  })

  it('leaves the pages without CORS headers', async () => {
    const res = await request(app).get('/developers').set('Origin', 'https://tool.example')
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })
})
