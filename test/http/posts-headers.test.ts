import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { createApp } from '../../auth-service/app.ts'
import { builtIndex, testApp, testDeps } from '../support/index.ts'

/* The read API's conditional requests and caching headers, CORS, and its unknown paths and methods. */

const deps = await testDeps()
const app = createApp(deps)
const index = builtIndex()
const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })

describe('conditional requests and caching', () => {
  it.each(['/api/v1', '/api/v1/posts', '/api/v1/posts/hashing-rings', '/api/v1/search?q=rings'])(
    '%s answers 304 to its own ETag',
    async (path) => {
      const first = await request(app).get(path)
      expect(first.headers.etag).toMatch(/^"[\w-]+"$/)
      expect(first.headers['last-modified']).toBeTruthy()
      expect(first.headers['cache-control']).toContain('max-age=')
      const again = await request(app).get(path).set('If-None-Match', first.headers.etag!)
      expect(again.status).toBe(304)
      expect(again.text).toBeFalsy()
      const weak = await request(app).get(path).set('If-None-Match', `"other", W/${first.headers.etag}`)
      expect(weak.status).toBe(304)
    },
  )

  it('answers 200 to a stale ETag and 304 to a current If-Modified-Since', async () => {
    const first = await request(app).get('/api/v1/posts/hashing-rings')
    expect((await request(app).get('/api/v1/posts/hashing-rings').set('If-None-Match', '"stale"')).status).toBe(200)
    const ims = await request(app)
      .get('/api/v1/posts/hashing-rings')
      .set('If-Modified-Since', first.headers['last-modified']!)
    expect(ims.status).toBe(304)
    const older = await request(app)
      .get('/api/v1/posts/hashing-rings')
      .set('If-Modified-Since', 'Mon, 01 Jan 2024 00:00:00 GMT')
    expect(older.status).toBe(200)
    const garbage = await request(app).get('/api/v1/posts/hashing-rings').set('If-Modified-Since', 'not a date')
    expect(garbage.status).toBe(200)
  })

  it('refuses a read whose If-Match or If-Unmodified-Since fails with 412 precondition_failed', async () => {
    const path = '/api/v1/posts/hashing-rings'
    const first = await request(app).get(path)
    const { etag, 'last-modified': lastModified } = first.headers as Record<string, string>
    const cases: Array<[Record<string, string>, number]> = [
      [{ 'If-Match': '"other"' }, 412],
      [{ 'If-Match': `W/${etag}` }, 412], // strong comparison (RFC 9110 §13.1.1)
      [{ 'If-Match': `"other", ${etag}` }, 200],
      [{ 'If-Match': '*' }, 200],
      [{ 'If-Unmodified-Since': lastModified! }, 200],
      [{ 'If-Unmodified-Since': new Date(Date.parse(lastModified!) - 1000).toUTCString() }, 412],
      [{ 'If-Unmodified-Since': 'not a date' }, 200], // ignored
      [{ 'If-Match': etag!, 'If-Unmodified-Since': 'Mon, 01 Jan 2024 00:00:00 GMT' }, 200], // If-Match decides
    ]
    for (const [headers, status] of cases) {
      const res = await request(app).get(path).set(headers)
      expect(res.status, JSON.stringify(headers)).toBe(status)
      if (status === 412) {
        expect(res.body).toEqual(errorBody('precondition_failed'))
        expect(res.headers['cache-control']).toBe('no-store')
      }
    }
  })

  it('answers HEAD with headers and no body', async () => {
    const res = await request(app).head('/api/v1/posts/hashing-rings')
    expect(res.status).toBe(200)
    expect(Number(res.headers['content-length'])).toBeGreaterThan(100)
    expect(res.text).toBeFalsy()
  })
})

describe('CORS, unknown paths and methods', () => {
  it('allows any origin to read, and answers preflights for Authorization', async () => {
    const res = await request(app).get('/api/v1/posts').set('Origin', 'https://elsewhere.example')
    expect(res.headers['access-control-allow-origin']).toBe('*')
    const pre = await request(app)
      .options('/api/v1/posts')
      .set('Origin', 'https://elsewhere.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization')
    expect(pre.status).toBe(204)
    expect(pre.headers['access-control-allow-headers']).toMatch(/Authorization/i)
    expect(pre.headers['access-control-allow-methods']).toContain('GET')
  })

  it.each(['/api/v1/nope', '/api/v1/posts/a/b', '/api/v1/search/x', '/api/v10'])(
    'answers %s with a JSON 404',
    async (path) => {
      const res = await request(app).get(path)
      expect(res.status).toBe(404)
      expect(res.headers['content-type']).toMatch(/^application\/json/)
      expect(res.body).toEqual(errorBody('not_found'))
    },
  )

  it.each([
    ['delete', '/api/v1/posts/hashing-rings'],
    ['put', '/api/v1/posts'],
    ['post', '/api/v1/search'],
    ['patch', '/api/v1'],
  ] as const)('answers %s %s with 405 and Allow', async (method, path) => {
    const res = await request(app)[method](path)
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
    expect(res.body).toEqual(errorBody('method_not_allowed'))
  })

  it('answers 503 with Retry-After while no index is loaded', async () => {
    const res = await request(await testApp({ posts: () => undefined })).get('/api/v1/posts')
    expect(res.status).toBe(503)
    expect(res.headers['retry-after']).toBeTruthy()
    expect(res.body).toEqual(errorBody('temporarily_unavailable'))
  })

  it('never leaks a stack trace on an unexpected failure', async () => {
    const broken = createApp({
      ...deps,
      posts: () => ({
        ...index,
        listPage: () => {
          throw new Error('secret internals')
        },
      }),
      logError: () => {},
    })
    const res = await request(broken).get('/api/v1/posts')
    expect(res.status).toBe(500)
    expect(res.body).toEqual(errorBody('server_error'))
    expect(res.text).not.toContain('secret internals')
  })
})
