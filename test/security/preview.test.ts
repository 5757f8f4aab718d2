/**
 * The live preview (`npm run dev`) against a page of another origin that resolves to this machine
 * (DNS rebinding): it answers only to the loopback names on its port and to BASE_URL's host, and
 * caps its live-reload event streams. The preview's own listener, in front of the service, on a
 * real port.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { createLimitedServer } from '../../auth-service/http/server-limits.ts'
import { createLiveReload, EVENTS_PATH, MAX_STREAMS, type LiveReload } from '../../bin/dev/live-reload.ts'
import { previewListener } from '../../bin/dev/preview-listener.ts'
import { distOf, testDeps } from '../support/index.ts'
import { send } from '../support/loopback-request.ts'
import { sendRaw } from '../support/raw-http.ts'

const BASE_URL = 'http://localhost:4321'
const PATHS = ['/', '/posts/hashing-rings', '/api/v1/posts', EVENTS_PATH, '/__preview/client.js', '/mcp']

describe('the preview against other origins', () => {
  const servers: Server[] = []
  let live: LiveReload
  let port: number
  let proxiedPort: number

  async function listen(baseUrl: string): Promise<number> {
    const siteDir = join(distOf('fixture'), 'current', 'site')
    const app = createApp({ ...(await testDeps({ baseUrl })), siteDir })
    const server = createLimitedServer(previewListener(app, live, siteDir, { baseUrl }))
    servers.push(server)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    return (server.address() as AddressInfo).port
  }
  const get = (at: number, path: string, host: string) => send(at, '127.0.0.1', path, { headers: { Host: host } })

  beforeAll(async () => {
    live = createLiveReload({ build: 'build-1', problems: [] })
    port = await listen(BASE_URL)
    // Behind a proxy that passes the public name on: BASE_URL's host is what the browser sent.
    proxiedPort = await listen('https://preview.example.org')
  })
  afterAll(async () => {
    live.close()
    for (const s of servers) {
      s.closeAllConnections()
      await new Promise((r) => s.close(r))
    }
  })

  it('refuses every other Host with 421 and says which names it answers to', async () => {
    const hosts = [
      'evil.example',
      `evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.2:${port}`,
      `localhost:${port + 1}`,
      'localhost',
      '[::1]',
      `[::ffff:127.0.0.1]:${port}`,
      'preview.example.org',
    ]
    for (const host of hosts)
      for (const path of PATHS) {
        const res = await get(port, path, host)
        expect(res.status, `${host} ${path}`).toBe(421)
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
        const body = JSON.parse(res.body)
        expect(body).toEqual({ error: 'misdirected_request', error_description: expect.any(String) })
        expect(body.error_description).toContain('localhost, 127.0.0.1 and [::1] on its port')
        expect(body.error_description).toContain(BASE_URL)
      }
    // HTTP/1.0 may leave Host out: a request that names nothing is refused too.
    const anonymous = await sendRaw(port, 'GET /api/v1/posts HTTP/1.0')
    expect(anonymous.status).toBe(421)
  })

  it('answers the loopback names on its port and BASE_URL’s host, in any case', async () => {
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `LocalHost:${port}`,
      'localhost:4321',
    ]) {
      const res = await get(port, '/api/v1/posts', host)
      expect(res.status, host).toBe(200)
    }
    expect((await get(proxiedPort, '/api/v1/posts', 'preview.example.org')).status).toBe(200)
    expect((await get(proxiedPort, '/__preview/client.js', 'Preview.Example.Org')).status).toBe(200)
    expect((await get(proxiedPort, '/api/v1/posts', `preview.example.org:${proxiedPort}`)).status).toBe(421)
  })

  it(`serves at most ${MAX_STREAMS} event streams at once, refusing more with 503 and Retry-After`, async () => {
    const open: ClientRequest[] = []
    const openStream = () =>
      new Promise<IncomingMessage>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: EVENTS_PATH, headers: { Host: `localhost:${port}` } })
        req.on('response', resolve).on('error', reject).end()
        open.push(req)
      })
    try {
      for (let i = 0; i < MAX_STREAMS; i++) {
        const stream = await openStream()
        expect(stream.statusCode).toBe(200)
        expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8')
      }
      const refused = await get(port, EVENTS_PATH, `localhost:${port}`)
      expect(refused.status).toBe(503)
      expect(refused.headers['retry-after']).toBe('5')
      expect(JSON.parse(refused.body)).toEqual({
        error: 'temporarily_unavailable',
        error_description: expect.stringContaining(`${MAX_STREAMS} live-reload streams`),
      })
      // The streams open keep theirs, and the rest of the preview still answers.
      expect((await get(port, '/api/v1/posts', `localhost:${port}`)).status).toBe(200)
      // One closed makes room for one more.
      open.shift()!.destroy()
      const again = await waitForStream(openStream)
      expect(again.statusCode).toBe(200)
    } finally {
      for (const req of open) req.destroy()
    }
  })
})

/** Opens a stream once the server has seen a closed one go (its close event comes a moment later). */
async function waitForStream(open: () => Promise<IncomingMessage>): Promise<IncomingMessage> {
  for (let i = 0; i < 50; i++) {
    const res = await open()
    if (res.statusCode === 200) return res
    res.resume()
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('no stream was let in after one closed')
}
