import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { createLiveReload, type LiveReload } from '../../bin/dev/live-reload.ts'
import { previewListener } from '../../bin/dev/preview-listener.ts'
import { distOf, testDeps } from '../support/index.ts'

const PAGE = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }
const TAG = /<script src="\/__preview\/client\.js" data-build="build-1" data-page="[\w-]{27}" defer><\/script><\/head>/
const digestOf = (html: string) => /data-page="([^"]*)"/.exec(html)?.[1]

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('the preview in front of the service', () => {
  const siteDir = join(distOf('fixture'), 'current', 'site')
  let live: LiveReload
  let origin: string
  let plainOrigin: string
  const servers: Server[] = []

  beforeAll(async () => {
    const deps = await testDeps({ baseUrl: 'http://localhost:4321' })
    const app = createApp({ ...deps, siteDir })
    live = createLiveReload({ build: 'build-1', problems: [] })
    servers.push(
      createServer(previewListener(app, live, siteDir, { baseUrl: 'http://localhost:4321' })),
      createServer(app),
    )
    origin = await listen(servers[0]!)
    plainOrigin = await listen(servers[1]!)
  })
  afterAll(async () => {
    live.close()
    for (const s of servers) {
      s.closeAllConnections()
      await new Promise((r) => s.close(r))
    }
  })

  it('adds the client script to pages, with the site CSP kept and no validators to go stale', async () => {
    const res = await fetch(`${origin}/posts/cafe-latency-notes`, { headers: PAGE })
    const body = await res.text()
    expect(res.status).toBe(200)
    expect(body).toMatch(TAG)
    expect(body).toContain('Café Latency Notes')
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(body))
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('etag')).toBeNull()
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self' 'wasm-unsafe-eval'")
  })

  it('names each page by a digest of its content, so a page a build left alone need not reload', async () => {
    const get = async (path: string) => digestOf(await (await fetch(`${origin}${path}`, { headers: PAGE })).text())
    const a = await get('/posts/cafe-latency-notes')
    expect(a).toBe(await get('/posts/cafe-latency-notes'))
    expect(a).not.toBe(await get('/posts/hashing-rings'))
  })

  it('answers a conditional request with the page, never a 304 for a page without the script', async () => {
    const plain = await fetch(`${plainOrigin}/posts/cafe-latency-notes`)
    const etag = plain.headers.get('etag')!
    expect(etag).toBeTruthy()
    const res = await fetch(`${origin}/posts/cafe-latency-notes`, { headers: { ...PAGE, 'if-none-match': etag } })
    expect(res.status).toBe(200)
    expect(await res.text()).toMatch(TAG)
  })

  it('adds it to the not-found page too, keeping its status', async () => {
    const res = await fetch(`${origin}/no-such-page`, { headers: PAGE })
    expect(res.status).toBe(404)
    expect(await res.text()).toMatch(TAG)
  })

  it('leaves everything else as the service answers it: scripts fetching pages, the API, twins', async () => {
    for (const [path, headers] of [
      ['/posts/cafe-latency-notes', {}],
      ['/api/v1/posts/cafe-latency-notes', PAGE],
      ['/api/v1/posts', PAGE],
      ['/posts/cafe-latency-notes.md', PAGE],
    ] as const) {
      const [ours, theirs] = await Promise.all([
        fetch(`${origin}${path}`, { headers }),
        fetch(`${plainOrigin}${path}`, { headers }),
      ])
      expect(ours.status, path).toBe(theirs.status)
      expect(ours.headers.get('content-type'), path).toBe(theirs.headers.get('content-type'))
      expect(await ours.text(), path).toBe(await theirs.text())
    }
  })

  it('serves the client script from the same origin', async () => {
    const res = await fetch(`${origin}/__preview/client.js`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await res.text()).toContain("new EventSource('/__preview/events')")
  })

  it('streams the state on connect and each change after', async () => {
    const controller = new AbortController()
    const res = await fetch(`${origin}/__preview/events`, { signal: controller.signal })
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
    const events: unknown[] = []
    const nextEvent = async () => {
      let buffer = ''
      for (;;) {
        const at = buffer.indexOf('\n\n')
        const data = at >= 0 ? /^data: (.*)$/m.exec(buffer.slice(0, at)) : null
        if (data) return JSON.parse(data[1]!)
        if (at >= 0) buffer = buffer.slice(at + 2)
        else buffer += (await reader.read()).value ?? ''
      }
    }
    events.push(await nextEvent())
    const problems = [
      { file: 'content/x.md', field: 'tags.0', message: 'tags are lowercase words', fix: 'lowercase it' },
    ]
    live.publish({ build: 'build-1', problems })
    events.push(await nextEvent())
    live.publish({ build: 'build-2', problems: [] })
    events.push(await nextEvent())
    controller.abort()
    expect(events).toEqual([
      { build: 'build-1', problems: [] },
      { build: 'build-1', problems },
      { build: 'build-2', problems: [] },
    ])
    live.publish({ build: 'build-1', problems: [] })
  })

  it('shows a placeholder page that waits for the first good build when there is none', async () => {
    const deps = await testDeps({ baseUrl: 'http://localhost:4321' })
    const missing = join(siteDir, 'no-build-yet')
    const server = createServer(
      previewListener(createApp({ ...deps, siteDir: missing }), live, missing, { baseUrl: 'http://localhost:4321' }),
    )
    const at = await listen(server)
    try {
      const res = await fetch(`${at}/posts/cafe-latency-notes`, { headers: PAGE })
      expect(res.status).toBe(503)
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'")
      const body = await res.text()
      expect(body).toContain('Waiting for the first good build')
      expect(body).toContain('<script src="/__preview/client.js" data-build="build-1" data-page="" defer></script>')
    } finally {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    }
  })
})
