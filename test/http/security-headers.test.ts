import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { distOf, testDeps } from '../support/index.ts'

const app = createApp({
  ...(await testDeps({ baseUrl: 'http://localhost:4321' })),
  siteDir: join(distOf('fixture'), 'current', 'site'),
})

describe('security headers', () => {
  it.each(['/', '/posts/cafe-latency-notes', '/developers', '/claim', '/api/v1/posts', '/no-such-page'])(
    '%s carries the CSP and hardening headers',
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

  it('sends HSTS on an HTTPS origin', async () => {
    const https = createApp({ ...(await testDeps({ baseUrl: 'https://research.example.org' })) })
    expect((await request(https).get('/api/v1')).headers['strict-transport-security']).toBe(
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
