import { request as httpRequest } from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import { ANSWER_HEADERS } from '../support/nginx.ts'
import { fromEdge, useProxy } from '../support/nginx-proxy.ts'
import { freePort, waitFor, type Running } from '../support/processes.ts'

/*
 * Anonymous reads answered from nginx's cache: what it stores, for how long, for whom, and within
 * which budget.
 */
describe('the production proxy: real nginx, two replicas, real Redis', () => {
  const proxy = useProxy()
  const { startEdge, stopEdge, issueKey } = proxy
  let origin: string
  let direct: string[]
  let replicas: Running[]
  beforeAll(() => {
    ;({ origin, direct, replicas } = proxy)
  })
  const cached = (path: string, init: RequestInit = {}) => fromEdge(origin, path, init)

  describe('anonymous reads from the edge cache', () => {
    const CACHED = [
      '/api/v1',
      '/api/v1/posts?limit=2',
      '/api/v1/posts/hashing-rings?from=cache', // with a query: from the cache, not the build's file
      '/api/v1/search?q=hashing',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/api/v1',
      '/.well-known/oauth-authorization-server',
      '/.well-known/jwks.json',
      '/openapi.json',
      '/.well-known/api-catalog',
    ]
    /** Headers that differ per response or per hop, whatever the cache does. */
    // Lattice-Build is for the edge alone, which does not pass it on.
    const PER_RESPONSE = new Set([
      'date',
      'connection',
      'keep-alive',
      'x-request-id',
      'ratelimit',
      'last-modified',
      'lattice-build',
    ])

    it.each(CACHED)("GET and HEAD %s from the cache carry the replica's status, body and headers", async (path) => {
      for (const method of ['GET', 'HEAD']) {
        const res = await cached(path, { method })
        const [a, b] = await Promise.all(direct.map((base) => fetch(`${base}${path}`, { method })))
        expect(res.status).toBe(a!.status)
        const body = await res.text()
        expect(body).toBe(await a!.text())
        expect(body).toBe(await b!.text())
        for (const [name, value] of a!.headers)
          if (!PER_RESPONSE.has(name)) expect(res.headers.get(name), `${method} ${name}`).toBe(value)
        // Each replica stamps its discovery documents with its own start time.
        expect([a!.headers.get('last-modified'), b!.headers.get('last-modified')]).toContain(
          res.headers.get('last-modified'),
        )
        // A content hash, or for an article the file's mtime and size (see edge-files.ts).
        expect(res.headers.get('etag')).toMatch(/^"([\w-]{27}|[0-9a-f]+-[0-9a-f]+)"$/)
        expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+/)
        expect(res.headers.get('vary')).toBe('Authorization')
        expect(res.headers.get('access-control-allow-origin')).toBe('*')
        // Another reader's remaining budget is not passed on; the request id is this request's.
        expect(res.headers.get('ratelimit')).toBeNull()
        expect(res.headers.get('lattice-build')).toBeNull()
        expect(res.headers.get('x-request-id')).toMatch(/^[\w.-]+$/)
      }
      const traced = await cached(path, { headers: { 'X-Request-Id': 'edge-trace-7' } })
      expect(traced.headers.get('x-request-id')).toBe('edge-trace-7')
    })

    it('sends every request with Authorization to a replica, and stores none of them', async () => {
      const path = '/api/v1/posts/hashing-rings'
      const anonymous = await (await cached(path)).text()

      const bad = await fetch(`${origin}${path}`, { headers: { Authorization: 'Bearer not-a-valid-credential' } })
      expect(bad.status).toBe(401)
      expect(bad.headers.get('x-cache-status')).toBe('BYPASS')
      expect(bad.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource"`,
      )
      expect(bad.headers.get('cache-control')).toBe('no-store')

      const key = await issueKey('198.51.100.90')
      const auth = { Authorization: `Bearer ${key}` }
      const good = await fetch(`${origin}${path}`, { headers: auth })
      expect(good.status).toBe(200)
      expect(good.headers.get('x-cache-status')).toBe('BYPASS')
      expect(good.headers.get('cache-control')).toBe('private, no-cache') // no shared cache may keep it
      expect(good.headers.get('ratelimit-policy')).toContain('q=1000000') // the identified budget
      expect(good.headers.get('ratelimit')).toMatch(/^"reads"; r=\d+; t=\d+$/)
      expect(await good.text()).toBe(anonymous)
      const conditional = await fetch(`${origin}${path}`, {
        headers: { ...auth, 'If-None-Match': good.headers.get('etag')! },
      })
      expect(conditional.status).toBe(304)
      expect(conditional.headers.get('x-cache-status')).toBe('BYPASS')

      // The revocation is refused at once through the edge, though the URL is cached.
      expect(
        (await fetch(`${origin}/oauth2/revoke`, { method: 'POST', body: new URLSearchParams({ token: key }) })).status,
      ).toBe(200)
      const revoked = await fetch(`${origin}${path}`, { headers: auth })
      expect(revoked.status).toBe(401)
      expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"')
      // None of it was stored: anonymous readers still get the article from the cache.
      const after = await cached(path)
      expect(after.status).toBe(200)
      expect(await after.text()).toBe(anonymous)
    })

    it('never stores an error: 404 and 400 reach a replica each time', async () => {
      for (const [path, status] of [
        ['/api/v1/posts/no-such-post', 404],
        ['/api/v1/search', 400],
        ['/api/v1/posts?limit=0', 400],
        ['/api/v1/nope', 404],
      ] as const) {
        for (let i = 0; i < 3; i++) {
          const res = await fetch(`${origin}${path}`)
          expect(res.status, path).toBe(status)
          expect(res.headers.get('cache-control')).toBe('no-store')
          expect(res.headers.get('x-cache-status'), path).toBe('MISS')
          expect((await res.json()).error).toBeTypeOf('string')
        }
      }
    })

    /** Requests a replica logged for this exact URL, both replicas together. */
    const replicaHits = (path: string) =>
      replicas.reduce(
        (n, r) =>
          n +
          r
            .output()
            .split('\n')
            .filter((line) => line.includes(`"url":"${path}"`)).length,
        0,
      )

    /** 40 readers at once; the cache statuses they were answered with. */
    async function herd(path: string, check: (body: string) => void): Promise<Array<string | null>> {
      const answers = await Promise.all(Array.from({ length: 40 }, () => fetch(`${origin}${path}`)))
      for (const res of answers) {
        expect(res.status).toBe(200)
        check(await res.text())
      }
      return answers.map((res) => res.headers.get('x-cache-status'))
    }

    it('lets a herd of anonymous readers reach a replica once for a new URL', async () => {
      const path = '/api/v1/posts?limit=3' // asked for by no other case
      const first = await herd(path, (body) => expect(JSON.parse(body).posts).toHaveLength(3))
      expect(first.filter((s) => s === 'MISS')).toHaveLength(1)
      expect(first.filter((s) => s !== 'MISS').every((s) => s === 'HIT')).toBe(true)
      await waitFor(async () => (replicaHits(path) === 1 ? true : undefined), 2000, 'the replica log line')
    })

    it("keeps a build's answers until the next build: a steadily read article reaches a replica once", async () => {
      const path = '/api/v1/posts?limit=4' // asked for by no other case
      const started = Date.now()
      const statuses: string[] = []
      while (Date.now() - started < 3000) {
        const res = await fetch(`${origin}${path}`)
        expect(res.status).toBe(200)
        await res.arrayBuffer()
        statuses.push(res.headers.get('x-cache-status')!)
        await new Promise((r) => setTimeout(r, 50))
      }
      await new Promise((r) => setTimeout(r, 300)) // a stray refresh's log line
      expect(replicaHits(path)).toBe(1)
      expect(statuses.slice(1).every((s) => s === 'HIT')).toBe(true)
    })

    it('refreshes a document once a second when read steadily, one reader for a herd when expired', async () => {
      // A document is keyed by its path and asked for without its query (which it does not take):
      // this query shares the entry the cases above filled, and the replicas see the bare path.
      const path = '/.well-known/jwks.json'
      const asked = `${path}?steady=1`
      const jwks = (body: string) => expect(JSON.parse(body).keys).toHaveLength(1)
      // Past its validity, one reader refreshes the answer and the others are served meanwhile.
      await new Promise((r) => setTimeout(r, 2500))
      const before = replicaHits(path)
      const second = await herd(asked, jwks)
      expect(second.filter((s) => s === 'STALE' || s === 'EXPIRED' || s === 'MISS')).toHaveLength(1)
      expect(second.filter((s) => s === 'HIT' || s === 'UPDATING')).toHaveLength(39)
      await waitFor(
        async () => (replicaHits(path) === before + 1 ? true : undefined),
        2000,
        'the refresh to reach a replica',
      )
      // Read steadily, it is refreshed at most about once a second.
      const started = Date.now()
      while (Date.now() - started < 3000) {
        await (await fetch(`${origin}${asked}`)).arrayBuffer()
        await new Promise((r) => setTimeout(r, 50))
      }
      await new Promise((r) => setTimeout(r, 300))
      expect(replicaHits(path)).toBeLessThanOrEqual(before + 1 + 4)
      expect(replicaHits(asked)).toBe(0)
    })

    it("holds the anonymous read budget at the edge, cached or not, with the service's 429", async () => {
      const port = await freePort()
      const strict = await startEdge('nginx-strict', port, 5)
      try {
        const get = (localAddress: string, path: string, headers: Record<string, string> = {}) =>
          new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
            (resolve, reject) => {
              const req = httpRequest({ host: '127.0.0.1', port, path, localAddress, headers }, (res) => {
                let body = ''
                res.setEncoding('utf8')
                res.on('data', (d) => (body += d))
                res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
              })
              req.on('error', reject)
              req.end()
            },
          )
        // A burst of the budget (and the one the budget refills with), then 429, on a cached URL.
        const statuses = []
        for (let i = 0; i < 8; i++) statuses.push((await get('127.0.0.7', '/api/v1/posts/hashing-rings')).status)
        expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429])
        const refused = await get('127.0.0.7', '/api/v1/posts?limit=1')
        // Discovery is outside nginx's anonymous zone (the service budgets it), as is a request with a credential.
        expect((await get('127.0.0.7', '/.well-known/oauth-authorization-server')).status).toBe(200)
        expect(
          (await get('127.0.0.7', '/api/v1/posts/hashing-rings', { Authorization: 'Bearer not-valid' })).status,
        ).toBe(401)
        // Each address has its own budget.
        expect((await get('127.0.0.8', '/api/v1/posts/hashing-rings')).status).toBe(200)

        // The service's own 429, from a replica's key budget (5 an hour here).
        let service: Response | undefined
        for (let i = 0; i < 6; i++)
          service = await fetch(`${direct[0]}/api/v1/keys`, {
            method: 'POST',
            headers: { 'X-Forwarded-For': '198.51.100.91' },
          })
        expect(service!.status).toBe(429)
        expect(refused.status).toBe(429)
        expect(refused.body).toBe(await service!.text())
        for (const name of ANSWER_HEADERS) expect(refused.headers[name], name).toBe(service!.headers.get(name))
        // An answer for programs: the headers that only guide a page's rendering are in neither.
        for (const name of ['referrer-policy', 'cross-origin-opener-policy', 'x-xss-protection']) {
          expect(refused.headers[name], name).toBeUndefined()
          expect(service!.headers.get(name), name).toBeNull()
        }
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
        expect(refused.headers['ratelimit-policy']).toBe('"reads"; q=5; w=60')
      } finally {
        await stopEdge(strict)
      }
    })
  })
})
