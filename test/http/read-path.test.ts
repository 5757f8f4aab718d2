import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { agentToken, postExchange, registerAgent } from '../support/agent.ts'
import { fastPathPair, headersOf } from '../support/fast-path-pair.ts'
import { testDeps } from '../support/index.ts'
import { createApp } from '../../auth-service/app.ts'

const pair = fastPathPair

describe('the read fast path', () => {
  it('answers exactly as the middleware chain, and answers every success itself', async () => {
    const { fast, chain, reachedChain } = await pair()
    const key = (await request(chain).post('/api/v1/keys')).body.key as string
    const reg = await registerAgent(chain)
    const exchange = (scope?: string) => postExchange(chain, reg.identity_assertion, scope ? { scope } : {})
    const token = (await exchange()).body.access_token as string
    const narrow = (await exchange('research.read')).body.access_token as string
    const etag = (await request(chain).get('/api/v1/posts/hashing-rings')).headers.etag!
    await request(fast).get('/api/v1/posts/hashing-rings') // the same read on both budgets
    const listCursor = (await request(chain).get('/api/v1/posts?limit=1')).body.next_cursor as string
    const searchCursor = (await request(chain).get('/api/v1/search?q=hashing&limit=1')).body.next_cursor as string

    // [path, headers, who answers on the fast app]
    const cases: Array<[string, Record<string, string>, 'fast' | 'chain']> = [
      ['/api/v1', {}, 'fast'],
      ['/api/v1/posts', {}, 'fast'],
      ['/api/v1/posts/', {}, 'chain'], // strict routing: a 404 from the chain
      ['/api/V1/posts', {}, 'chain'], // case-sensitive: a 404 too
      ['/api/v1/posts?limit=2', {}, 'fast'],
      ['/api/v1/posts?limit=2&other=1', {}, 'chain'],
      ['/api/v1/posts?limit=1', {}, 'fast'], // a page with a Link to the next
      [`/api/v1/posts?limit=1&cursor=${listCursor}`, {}, 'fast'],
      ['/api/v1/posts?tag=performance&author=L%C3%A9a%20Fontaine&updated_since=2025-01-01', {}, 'fast'],
      [`/api/v1/posts?tag=performance&cursor=${listCursor}`, {}, 'chain'],
      ['/api/v1/posts?cursor=not-a-cursor', {}, 'chain'],
      ['/api/v1/posts?updated_since=yesterday', {}, 'chain'],
      ['/api/v1/posts?offset=50', {}, 'chain'],
      ['/api/v1/posts?limit=0', {}, 'chain'],
      ['/api/v1/posts?limit=1&limit=2', {}, 'chain'],
      ['/api/v1/posts/hashing-rings', {}, 'fast'],
      ['/api/v1/posts/hashing-rings', { Authorization: `Bearer ${key}` }, 'fast'],
      ['/api/v1/posts/hashing-rings', { Authorization: `Bearer ${token}` }, 'fast'],
      ['/api/v1/posts/hashing-rings', { Authorization: 'Bearer forged' }, 'chain'],
      ['/api/v1/posts/hashing-rings', { Authorization: 'Basic eDp5' }, 'chain'],
      ['/api/v1/posts/hashing-rings', { 'If-None-Match': etag }, 'fast'],
      ['/api/v1/posts/hashing-rings', { 'If-None-Match': `W/${etag}, "other"` }, 'fast'],
      // fetch() sends Cache-Control: no-cache with every If-None-Match; the origin still answers 304.
      [
        '/api/v1/posts/hashing-rings',
        { 'If-None-Match': etag, 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
        'fast',
      ],
      ['/api/v1/posts/hashing-rings', { 'If-Modified-Since': new Date(Date.now() + 86_400_000).toUTCString() }, 'fast'],
      ['/api/v1/posts/no-such-post', {}, 'chain'],
      ['/api/v1/posts/caf%C3%A9', {}, 'chain'],
      ['/api/v1/posts/%E0%A4%A', {}, 'chain'],
      ['/api/v1/search?q=hashing', {}, 'fast'],
      ['/api/v1/search?q=hashing&limit=1', { Authorization: `Bearer ${token}` }, 'fast'],
      ['/api/v1/search?q=hashing', { Authorization: `Bearer ${narrow}` }, 'chain'],
      [`/api/v1/search?q=hashing&limit=1&cursor=${searchCursor}`, {}, 'fast'],
      [`/api/v1/search?q=rings&limit=1&cursor=${searchCursor}`, {}, 'chain'],
      ['/api/v1/search?q=', {}, 'chain'],
      ['/api/v1/search?q=a&q=b', {}, 'chain'],
      ['/api/v1/nothing-here', {}, 'chain'],
    ]
    expect(listCursor).toEqual(expect.any(String))
    expect(searchCursor).toEqual(expect.any(String))
    for (const [path, headers, answerer] of cases) {
      const before = reachedChain.length
      const [a, b] = [await request(fast).get(path).set(headers), await request(chain).get(path).set(headers)]
      const label = `${path} ${JSON.stringify(headers)}`
      expect(a.status, label).toBe(b.status)
      expect(a.text, label).toBe(b.text)
      expect(headersOf(a), label).toEqual(headersOf(b))
      expect(reachedChain.length > before ? 'chain' : 'fast', label).toBe(answerer)
    }
    const revalidated = await request(fast)
      .get('/api/v1/posts/hashing-rings')
      .set({ 'If-None-Match': etag, 'Cache-Control': 'no-cache' })
    expect(revalidated.status).toBe(304)
    const [headA, headB] = [
      await request(fast).head('/api/v1/posts/cafe-latency-notes'),
      await request(chain).head('/api/v1/posts/cafe-latency-notes'),
    ]
    expect(headersOf(headA)).toEqual(headersOf(headB))
  })

  it('logs and counts its answers like the chain', async () => {
    const { fast, chain, logs, reachedChain } = await pair()
    await request(fast).get('/api/v1/posts/hashing-rings?').set('X-Request-Id', 'same-id')
    await request(fast).get('/api/v1/posts/hashing-rings').set('X-Request-Id', 'same-id')
    await request(chain).get('/api/v1/posts/hashing-rings').set('X-Request-Id', 'same-id')
    expect(reachedChain).toEqual([])
    const shape = (line: string) => {
      const { level, msg, req, res } = JSON.parse(line)
      return { level, msg, req: { ...req, remoteAddress: undefined }, res }
    }
    expect(shape(logs.fast.at(-1)!)).toEqual(shape(logs.chain.at(-1)!))
    const metrics = (await request(fast).get('/metrics')).text
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/posts\/:slug",status_code="200"\} 2/,
    )
  })

  it('still honours a revocation at once', async () => {
    const { fast } = await pair()
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

  it('hands an answer it cannot send to the chain, which answers 500, instead of ending the process', async () => {
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
})
