/**
 * Hostile paths: malformed percent-encoding is a 400 with a code (never a 500, never a stack in the
 * log), and paths are case-sensitive and strict, so that `/API/V1/POSTS` cannot walk around the
 * per-path rules of the proxy (limits, caching). Every path goes through the one pipeline.
 */
import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { distOf, testDeps } from '../support/index.ts'

const siteDir = join(distOf('fixture'), 'current', 'site')
const SLUG = 'cafe-latency-notes'

const deps = await testDeps()

describe('paths', () => {
  const logged: unknown[] = []
  const app = createApp({ ...deps, siteDir, logError: (err) => void logged.push(err) })

  it.each([
    '/%',
    '/%zz',
    '/posts/%ff',
    '/posts/%E0%A4%A',
    '/tags/%c0%af',
    `/posts/${SLUG}%`,
    '/api/v1/posts/%ff',
    '/api/v1/posts/%',
    '/api/v1/posts/%E0%A4%A',
    '/api/v1/search/%ff',
    '/mcp/%ff',
    '/oauth2/%',
    '/.well-known/%ff',
  ])('answers GET %s with 400 invalid_request and logs no error', async (path) => {
    for (const method of ['get', 'head', 'post'] as const) {
      const res = await request(app)[method](path)
      expect(res.status, `${method} ${path}`).toBe(400)
      if (method !== 'head')
        expect(res.body, `${method} ${path}`).toEqual({
          error: 'invalid_request',
          error_description: expect.stringContaining('percent-encoding'),
        })
    }
    expect(logged).toEqual([])
  })

  it('answers a malformed query string with 400, not 500', async () => {
    const res = await request(app).get('/api/v1/search?q=%ff%fe')
    expect(res.status).toBeLessThan(500)
    expect(logged).toEqual([])
  })

  it.each([
    '/API/V1/POSTS',
    '/api/V1/posts',
    '/Api/v1/posts',
    `/api/v1/POSTS/${SLUG}`,
    '/api/v1/Search?q=cafe',
    '/MCP',
    '/OAuth2/token',
    '/.WELL-KNOWN/jwks.json',
    `/Posts/${SLUG}`,
    '/OPENAPI.JSON',
  ])('does not answer %s as its lower-case form', async (path) => {
    const res = await request(app).get(path)
    expect(res.status, path).toBe(404)
    const post = await request(app).post(path).type('form').send({ grant_type: 'x' })
    expect(post.status, path).toBe(404)
  })

  it.each([
    '/api/v1/posts/',
    `/api/v1/posts/${SLUG}/`,
    '/api/v1/search/?q=cafe',
    '/oauth2/token/',
    '/.well-known/oauth-authorization-server/',
  ])('answers %s (a trailing slash) with 404, strict routing', async (path) => {
    const res = await request(app).get(path)
    expect(res.status, path).toBe(404)
  })

  it('still answers the exact paths', async () => {
    expect((await request(app).get('/api/v1/posts')).status).toBe(200)
    expect((await request(app).get(`/api/v1/posts/${SLUG}`)).status).toBe(200)
    expect((await request(app).get(`/posts/${SLUG}`)).status).toBe(200)
    expect((await request(app).get('/.well-known/oauth-authorization-server')).status).toBe(200)
  })
})
