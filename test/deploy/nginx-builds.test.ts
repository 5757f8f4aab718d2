import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { request as httpRequest } from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import { ANSWER_HEADERS } from '../support/nginx.ts'
import { fromEdge, useProxy } from '../support/nginx-proxy.ts'
import { waitFor, type Running } from '../support/processes.ts'

/*
 * The build's files answered at the edge, a rebuild swapped in under load, and a replica's drain
 * under load: the cases that change the build or the replicas come last.
 */
describe('the production proxy: real nginx, two replicas, real Redis', () => {
  const proxy = useProxy()
  const { content, issueKey, rebuild } = proxy
  let origin: string
  let direct: string[]
  let replicas: Running[]
  beforeAll(() => {
    ;({ origin, direct, replicas } = proxy)
  })
  const cached = (path: string, init: RequestInit = {}) => fromEdge(origin, path, init)

  describe('anonymous reads from the edge cache', () => {
    it(
      'answers an article by slug from the file the build wrote: the ' +
        "replica's status, body and every header, validators included",
      async () => {
        const path = '/api/v1/posts/hashing-rings'
        const perHop = new Set(['date', 'connection', 'keep-alive', 'x-request-id', 'ratelimit', 'lattice-build'])
        for (const method of ['GET', 'HEAD']) {
          const res = await fetch(`${origin}${path}`, { method })
          expect(res.headers.get('x-cache-status')).toBe('STATIC') // the first request too: nothing to fill
          const [a, b] = await Promise.all(direct.map((base) => fetch(`${base}${path}`, { method })))
          expect(res.status).toBe(200)
          const body = await res.text()
          expect(body).toBe(await a!.text())
          expect(body).toBe(await b!.text())
          for (const [name, value] of a!.headers)
            if (!perHop.has(name)) expect(res.headers.get(name), `${method} ${name}`).toBe(value)
          // Both replicas give the file's validators, in nginx's form.
          expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/)
          expect([b!.headers.get('etag'), b!.headers.get('last-modified')]).toEqual([
            res.headers.get('etag'),
            res.headers.get('last-modified'),
          ])
          expect(res.headers.get('accept-ranges')).toBeNull()
          expect(res.headers.get('ratelimit')).toBeNull()
          expect(res.headers.get('lattice-build')).toBeNull()
        }
        const traced = await fetch(`${origin}${path}`, { headers: { 'X-Request-Id': 'edge-trace-8' } })
        expect(traced.headers.get('x-request-id')).toBe('edge-trace-8')
        // A query, a method other than GET and HEAD, or a credential reach the proxy instead.
        expect((await fetch(`${origin}${path}?fields=all`)).headers.get('x-cache-status')).toMatch(/^(MISS|HIT)$/)
        const posted = await fetch(`${origin}${path}`, { method: 'POST' })
        expect([posted.status, posted.headers.get('x-cache-status')]).toEqual([
          (await fetch(`${direct[0]}${path}`, { method: 'POST' })).status,
          null,
        ])
      },
    )

    it(
      "serves no other file under the edge's root: every other " +
        'path below /api/v1/posts/ reaches a replica or is refused',
      async () => {
        const raw = (path: string) =>
          new Promise<{ status: number; cache: string | undefined; body: string }>((resolve, reject) => {
            // node:http sends the path as written (fetch would resolve the dot segments first).
            const req = httpRequest({ host: '127.0.0.1', port: Number(new URL(origin).port), path }, (res) => {
              let body = ''
              res.on('data', (d) => (body += d))
              res.on('end', () =>
                resolve({ status: res.statusCode!, cache: res.headers['x-cache-status'] as string | undefined, body }),
              )
            })
            req.on('error', reject)
            req.end()
          })
        const cases: Array<[string, number]> = [
          ['/api/v1/posts/hashing-rings.json', 404],
          ['/api/v1/posts/hashing-rings/', 404], // strict routing: the service's own 404, not the article
          ['/api/v1/posts/', 404], // likewise, not the list
          ['/API/V1/POSTS/hashing-rings', 404], // case-sensitive: nothing walks around the /api/v1/ rules
          ['/api/v1/posts/%ff', 400], // malformed percent-encoding: the service's 400
          ['/api/v1/posts/.json', 404],
          ['/api/v1/posts/../../../build.json', 404],
          ['/api/v1/posts/..%2f..%2f..%2fbuild.json', 404],
          ['/api/v1/posts/%2e%2e/%2e%2e/%2e%2e/state.json', 404],
          ['/api/v1/posts/hashing-rings%00', 400],
        ]
        for (const [path, status] of cases) {
          const res = await raw(path)
          expect(res.cache, path).not.toBe('STATIC')
          expect(res.status, path).toBe(status)
          expect(res.body, path).not.toContain('"configKey"')
          if (status !== 200) expect(res.body, path).not.toContain('"markdown"')
        }
      },
    )

    it("answers conditional requests from the build's file with 304, as a replica does", async () => {
      const path = '/api/v1/posts/hashing-rings'
      const full = await cached(path)
      const etag = full.headers.get('etag')!
      const lastModified = full.headers.get('last-modified')!
      const cases: Array<[Record<string, string>, number]> = [
        [{ 'If-None-Match': etag }, 304],
        [{ 'If-None-Match': `W/${etag}` }, 304],
        [{ 'If-None-Match': `"other", ${etag}` }, 304],
        [{ 'If-None-Match': '"other"' }, 200],
        [{ 'If-Modified-Since': lastModified }, 304],
        [{ 'If-Modified-Since': new Date(Date.parse(lastModified) + 86_400_000).toUTCString() }, 304],
        [{ 'If-Modified-Since': new Date(Date.parse(lastModified) - 1000).toUTCString() }, 200],
      ]
      for (const [headers, status] of cases) {
        const res = await cached(path, { headers })
        const replica = await fetch(`${direct[0]}${path}`, { headers })
        expect(res.status, JSON.stringify(headers)).toBe(status)
        expect(replica.status, JSON.stringify(headers)).toBe(status)
        expect(res.headers.get('etag')).toBe(etag)
        if (status === 304) expect(await res.text()).toBe('')
      }
    })

    it(
      'refuses a read whose If-Match or If-Unmodified-Since ' +
        "fails with the service's 412, from a file or the cache",
      async () => {
        for (const path of ['/api/v1/posts/hashing-rings', '/api/v1/posts?limit=2']) {
          const full = await cached(path)
          const etag = full.headers.get('etag')!
          const lastModified = full.headers.get('last-modified')!
          const cases: Array<[Record<string, string>, number]> = [
            [{ 'If-Match': '"other"' }, 412],
            [{ 'If-Match': `W/${etag}` }, 412], // compared strongly
            [{ 'If-Match': `"other", ${etag}` }, 200],
            [{ 'If-Match': '*' }, 200],
            [{ 'If-Unmodified-Since': lastModified }, 200],
            [{ 'If-Unmodified-Since': new Date(Date.parse(lastModified) - 1000).toUTCString() }, 412],
          ]
          for (const [headers, status] of cases) {
            const [edge, replica] = await Promise.all([
              fetch(`${origin}${path}`, { headers }),
              fetch(`${direct[0]}${path}`, { headers }),
            ])
            const what = `${path} ${JSON.stringify(headers)}`
            expect([edge.status, replica.status], what).toEqual([status, status])
            if (status === 200) continue
            expect(await edge.text(), what).toBe(await replica.text())
            for (const name of ANSWER_HEADERS)
              expect(edge.headers.get(name), `${what} ${name}`).toBe(replica.headers.get(name))
          }
        }
      },
    )
  })

  it('swaps in a rebuild on nginx and both replicas without ' +
    'failing a request, and shows it through the cache', async () => {
    const fresh = '/api/v1/posts/fresh-findings'
    // Not found yet, and that answer is not kept: it must not outlive the rebuild.
    for (let i = 0; i < 2; i++) expect((await fetch(`${origin}${fresh}`)).status).toBe(404)
    writeFileSync(
      join(content, 'fresh-findings.md'),
      '---\ntitle: "Fresh Findings"\ndescription: "Published under load."\n' +
        'date: 2026-06-01\nauthor: "Ada Byrne"\ntags: [methodology]\n---\n\nNew results.\n',
    )
    // And an edit of a published article, read from its file at the edge.
    const edited = '/api/v1/posts/cafe-latency-notes'
    const before = await fetch(`${origin}${edited}`)
    expect(before.headers.get('x-cache-status')).toBe('STATIC')
    await before.arrayBuffer()
    const source = join(content, 'cafe-latency-notes.md')
    writeFileSync(source, `${readFileSync(source, 'utf8')}\nA paragraph added under load.\n`)
    const key = await issueKey('198.51.100.92')
    const failures: string[] = []
    let requests = 0
    let running = true
    const worker = async (path: string, headers: Record<string, string> = {}) => {
      while (running) {
        const res = await fetch(`${origin}${path}`, { headers, signal: AbortSignal.timeout(5000) }).catch(
          (e: Error) => e,
        )
        requests++
        if (res instanceof Error) failures.push(`${path}: ${res.message}`)
        else if (res.status !== 200) failures.push(`${path}: ${res.status}`)
        else await res.arrayBuffer()
        // A steady load, not a flood: the build shares the machine with it.
        await new Promise((r) => setTimeout(r, 10))
      }
    }
    const workers = [
      ...['/api/v1/posts?limit=5', edited, '/posts/hashing-rings', '/api/v1/search?q=rings', '/'].flatMap((p) => [
        worker(p),
        worker(p),
      ]),
      worker('/api/v1/posts/hashing-rings', { Authorization: `Bearer ${key}` }), // always a replica
    ]
    await rebuild()
    const newest = async (base: string) => (await (await fetch(`${base}/api/v1/posts?limit=5`)).json()).posts[0].slug
    for (const base of direct)
      await waitFor(
        async () => ((await newest(base)) === 'fresh-findings' ? true : undefined),
        5000,
        `${base} to load the new index`,
      )

    // Through the edge, as soon as both replicas have it: the missing article (its 404 was not
    // kept), and the list, whose cache key names the new build. Answers that a replica still on
    // the old build gave meanwhile were passed on but not stored under the new build.
    const article = await fetch(`${origin}${fresh}`)
    expect([article.status, article.headers.get('x-cache-status')]).toEqual([200, 'STATIC'])
    // The edited article's file, within a second of the swap (nginx checks open files' names
    // each second), with new validators, the ones the replicas now send.
    const after = await waitFor(
      async () => {
        const res = await fetch(`${origin}${edited}`)
        return (await res.text()).includes('A paragraph added under load.') ? res : undefined
      },
      2500,
      'the edited article at the edge',
    )
    expect(after.headers.get('x-cache-status')).toBe('STATIC')
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    for (const base of direct)
      expect((await fetch(`${base}${edited}`)).headers.get('etag')).toBe(after.headers.get('etag'))
    expect(await newest(origin)).toBe('fresh-findings')
    // And the new build's answers are kept: once the replicas name the build nginx serves (the
    // search index lands in a later swap of the same build), reads come from the cache again.
    await waitFor(
      async () => {
        const res = await fetch(`${origin}/api/v1/posts?limit=5`)
        await res.arrayBuffer()
        return res.headers.get('x-cache-status') === 'HIT' ? true : undefined
      },
      5000,
      'the rebuilt list to come from the cache',
    )
    running = false
    await Promise.all(workers)
    expect(requests).toBeGreaterThan(100)
    expect(failures).toEqual([])
    expect((await fetch(`${origin}/posts/fresh-findings`)).status).toBe(200)
  }, 180_000) // a whole build, on a machine busy with the load

  it('loses no request while a replica shuts down under load', async () => {
    // With a key, so that every request reaches a replica rather than the cache.
    const headers = { Authorization: `Bearer ${await issueKey('198.51.100.93')}` }
    const outcomes: string[] = []
    let running = true
    const worker = async () => {
      while (running) {
        try {
          const res = await fetch(`${origin}/api/v1/posts/hashing-rings`, {
            headers,
            signal: AbortSignal.timeout(5000),
          })
          const body = await res.json()
          outcomes.push(res.status === 200 && body.slug === 'hashing-rings' ? 'ok' : `status ${res.status}`)
        } catch (e) {
          outcomes.push(`error ${(e as Error).message}`)
        }
      }
    }
    const workers = Array.from({ length: 16 }, worker)
    // Load before, during and after the drain, counted in requests rather than milliseconds.
    await waitFor(async () => (outcomes.length >= 100 ? true : undefined), 15_000, 'load to build up')
    await replicas[0]!.stop() // SIGTERM: drain, then exit
    const atExit = outcomes.length
    await waitFor(async () => (outcomes.length >= atExit + 100 ? true : undefined), 15_000, 'load after the exit')
    running = false
    await Promise.all(workers)
    expect(replicas[0]!.output()).toContain('"msg":"stopped"')
    expect(outcomes.filter((o) => o !== 'ok')).toEqual([])
  })
})
