import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { agentToken, postExchange, registerAgent } from '../support/agent.ts'
import { expectFrame, loggedApp } from '../support/logged-app.ts'
import { testDeps } from '../support/index.ts'
import { createApp } from '../../auth-service/app.ts'
import { pipeline } from '../../auth-service/http/pipeline.ts'

describe('the pipeline, on the reads of the API', () => {
  it('answers every read in full, success or refusal, with the same frame', async () => {
    const { app } = await loggedApp()
    const key = (await request(app).post('/api/v1/keys')).body.key as string
    const reg = await registerAgent(app)
    const exchange = (scope?: string) => postExchange(app, reg.identity_assertion, scope ? { scope } : {})
    const token = (await exchange()).body.access_token as string
    const narrow = (await exchange('research.read')).body.access_token as string
    const etag = (await request(app).get('/api/v1/posts/hashing-rings')).headers.etag!
    const listCursor = (await request(app).get('/api/v1/posts?limit=1')).body.next_cursor as string
    const searchCursor = (await request(app).get('/api/v1/search?q=hashing&limit=1')).body.next_cursor as string
    expect(listCursor).toEqual(expect.any(String))
    expect(searchCursor).toEqual(expect.any(String))

    // [path, headers, status]
    const cases: Array<[string, Record<string, string>, number]> = [
      ['/api/v1', {}, 200],
      ['/api/v1/posts', {}, 200],
      ['/api/v1/posts/', {}, 404], // strict routing
      ['/api/V1/posts', {}, 404], // case-sensitive
      ['/api/v1/posts?limit=2', {}, 200],
      ['/api/v1/posts?limit=2&other=1', {}, 400],
      ['/api/v1/posts?limit=1', {}, 200], // a page with a Link to the next
      [`/api/v1/posts?limit=1&cursor=${listCursor}`, {}, 200],
      ['/api/v1/posts?tag=performance&author=L%C3%A9a%20Fontaine&updated_since=2025-01-01', {}, 200],
      [`/api/v1/posts?tag=performance&cursor=${listCursor}`, {}, 400], // a cursor of another filter
      ['/api/v1/posts?cursor=not-a-cursor', {}, 400],
      ['/api/v1/posts?updated_since=yesterday', {}, 400],
      ['/api/v1/posts?offset=50', {}, 400],
      ['/api/v1/posts?limit=0', {}, 400],
      ['/api/v1/posts?limit=1&limit=2', {}, 400],
      ['/api/v1/posts/hashing-rings', {}, 200],
      ['/api/v1/posts/hashing-rings', { Authorization: `Bearer ${key}` }, 200],
      ['/api/v1/posts/hashing-rings', { Authorization: `Bearer ${token}` }, 200],
      ['/api/v1/posts/hashing-rings', { Authorization: 'Bearer forged' }, 401],
      ['/api/v1/posts/hashing-rings', { Authorization: 'Basic eDp5' }, 401],
      ['/api/v1/posts/hashing-rings', { 'If-None-Match': etag }, 304],
      ['/api/v1/posts/hashing-rings', { 'If-None-Match': `W/${etag}, "other"` }, 304],
      // fetch() sends Cache-Control: no-cache with every If-None-Match; the origin still answers 304.
      ['/api/v1/posts/hashing-rings', { 'If-None-Match': etag, 'Cache-Control': 'no-cache', Pragma: 'no-cache' }, 304],
      ['/api/v1/posts/hashing-rings', { 'If-Modified-Since': new Date(Date.now() + 86_400_000).toUTCString() }, 304],
      ['/api/v1/posts/hashing-rings', { 'If-Match': '"other"' }, 412],
      ['/api/v1/posts/no-such-post', {}, 404],
      ['/api/v1/posts/caf%C3%A9', {}, 404],
      ['/api/v1/posts/%E0%A4%A', {}, 400],
      ['/api/v1/search?q=hashing', {}, 200],
      ['/api/v1/search?q=hashing&limit=1', { Authorization: `Bearer ${token}` }, 200],
      ['/api/v1/search?q=hashing', { Authorization: `Bearer ${narrow}` }, 403],
      [`/api/v1/search?q=hashing&limit=1&cursor=${searchCursor}`, {}, 200],
      [`/api/v1/search?q=rings&limit=1&cursor=${searchCursor}`, {}, 400],
      ['/api/v1/search?q=', {}, 400],
      ['/api/v1/search?q=a&q=b', {}, 400],
      ['/api/v1/nothing-here', {}, 404],
      ['/api/v1/nothing-here', { Authorization: 'Bearer forged' }, 401], // every call to the resource is bearer-checked
    ]
    for (const [path, headers, status] of cases) {
      const label = `${path} ${JSON.stringify(headers)}`
      const res = await request(app).get(path).set(headers).set('X-Request-Id', 'case-id')
      expect(res.status, label).toBe(status)
      expectFrame(res, label, 'case-id', !path.includes('%E0%A4%A'))
      // A read that reached its row's budget names it, whatever the answer.
      if ([200, 304, 412].includes(status) || path.includes('no-such-post'))
        expect(res.headers['ratelimit-policy'], label).toMatch(/^"reads"/)
      if (status === 200) expect(res.headers.etag, label).toBeDefined()
      else if (status >= 400) {
        expect(res.headers['cache-control'], label).toBe('no-store')
        expect(res.body.error, label).toEqual(expect.any(String))
      }
    }
    const head = await request(app).head('/api/v1/posts/cafe-latency-notes')
    const get = await request(app).get('/api/v1/posts/cafe-latency-notes')
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe(get.headers['content-length'])
    expect(head.headers.etag).toBe(get.headers.etag)
  })

  it('logs and counts every answer once, a success as a refusal', async () => {
    const { app, logs } = await loggedApp()
    await request(app).get('/api/v1/posts/hashing-rings?').set('X-Request-Id', 'same-id')
    await request(app).get('/api/v1/posts/hashing-rings').set('X-Request-Id', 'same-id')
    await request(app).get('/api/v1/posts/no-such-post').set('X-Request-Id', 'other-id')
    expect(logs).toHaveLength(3)
    const { level, msg, req, res } = JSON.parse(logs[1]!)
    expect({ level, msg, id: req.id, method: req.method, url: req.url, status: res.statusCode }).toEqual({
      level: 30,
      msg: 'request completed',
      id: 'same-id',
      method: 'GET',
      url: '/api/v1/posts/hashing-rings',
      status: 200,
    })
    expect(JSON.parse(logs[2]!).res.statusCode).toBe(404)
    const metrics = (await request(app).get('/metrics')).text
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/posts\/:slug",status_code="200"\} 2/,
    )
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/posts\/:slug",status_code="404"\} 1/,
    )
  })

  it('still honours a revocation at once', async () => {
    const { app: fast } = await loggedApp()
    const { access_token: token } = await agentToken(fast)
    const key = (await request(fast).post('/api/v1/keys')).body.key
    expect((await request(fast).get('/api/v1/posts/hashing-rings')).headers['cache-control']).toMatch(/^public/)
    for (const credential of [token, key]) {
      const read = await request(fast).get('/api/v1/posts/hashing-rings').set('Authorization', `Bearer ${credential}`)
      expect(read.status).toBe(200)
      // No shared cache may keep an answer to a credential and serve it after the revocation.
      expect(read.headers['cache-control']).toBe('private, no-cache')
      await request(fast).post('/oauth2/revoke').type('form').send({ token: credential })
      expect(
        (await request(fast).get('/api/v1/posts/hashing-rings').set('Authorization', `Bearer ${credential}`)).status,
      ).toBe(401)
    }
  })

  it('answers 500 to an answer it cannot send, instead of ending the process', async () => {
    const deps = await testDeps()
    const index = deps.posts()!
    // A prepared answer whose header Node refuses to write: sending it throws, on both paths.
    const broken = { ...index, detail: (slug: string) => ({ ...index.detail(slug)!, etag: '"bad\nvalue"' }) }
    const logged: unknown[] = []
    const app = createApp({ ...deps, posts: () => broken, logError: (err) => logged.push(err) })
    for (const auth of [undefined, `Bearer ${(await request(app).post('/api/v1/keys')).body.key}`]) {
      const res = auth
        ? await request(app).get('/api/v1/posts/hashing-rings').set('Authorization', auth)
        : await request(app).get('/api/v1/posts/hashing-rings')
      expect(res.status).toBe(500)
      expect(res.body.error).toBe('server_error')
    }
    expect(logged.length).toBeGreaterThanOrEqual(2)
  })

  it('answers a throw in a request’s handling as a 500 for that request, and goes on serving', async () => {
    const logged: unknown[] = []
    const listener = pipeline({
      rows: [
        {
          method: 'GET',
          path: '/api/v1/boom',
          answer() {
            throw new Error('a bug reached by a request')
          },
        },
      ],
      constantHeaders: [],
      apiHeaders: [],
      logError: (err) => logged.push(err),
      rest: (_req, res) => res.end('the site'),
    })
    const res = await request(listener).get('/api/v1/boom')
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ error: 'server_error', error_description: expect.any(String) })
    expect(JSON.stringify(res.body)).not.toContain('a bug')
    expect(logged).toHaveLength(1)
    expect((await request(listener).get('/')).text).toBe('the site')
  })
})
