import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { distOf, testDeps } from '../support/index.ts'
import { edgeVars, startNginx, stopNginx } from '../support/nginx.ts'
import { freePort } from '../support/processes.ts'
import { tempDir } from '../support/temp.ts'

/** Pasted addresses and where each must lead: 308, the query kept. */
const REDIRECTS: ReadonlyArray<readonly [from: string, to: string]> = [
  ['/posts/cafe-latency-notes/', '/posts/cafe-latency-notes'],
  ['/posts/cafe-latency-notes/?utm_source=feed&x=%20', '/posts/cafe-latency-notes?utm_source=feed&x=%20'],
  ['/posts/cafe-latency-notes//', '/posts/cafe-latency-notes'],
  ['/tags/', '/tags'],
  ['/tags/performance/', '/tags/performance'],
  ['/tags/performance/page/1', '/tags/performance'],
  ['/tags/performance/page/2/', '/tags/performance/page/2'],
  ['/page/1', '/'],
  ['/page/1/', '/'],
  ['/page/1?ref=hugo', '/?ref=hugo'],
  ['/search/?q=latency', '/search?q=latency'],
  // An encoded line break stays encoded: it never splits the Location header.
  ['/posts/a%0d%0aSet-Cookie:x/', '/posts/a%0d%0aSet-Cookie:x'],
]
/** Redirected, but to an address the fixture corpus has no page for. */
const NO_PAGE = new Set(['/tags/performance/page/2', '/posts/a%0d%0aSet-Cookie:x'])

/** Addresses that are canonical, or not the site's to forgive, and are not redirected. */
const LEFT = ['/', '/page/10', '/posts/cafe-latency-notes', '/api/v1/posts/', '/mcp/']

/*
 * The same answers from the service (npm start) and from the deployment's nginx, which serves the
 * site's files itself: a pasted address is redirected to the canonical one, and /favicon.ico is
 * the site's icon.
 */
describe('addresses people paste, in the service and through nginx', () => {
  const siteDir = join(distOf('fixture'), 'current', 'site')
  let app: ReturnType<typeof createApp>
  let nginx: ChildProcess
  let origin: string
  beforeAll(async () => {
    app = createApp({ ...(await testDeps()), siteDir })
    const dir = tempDir('nginx-addresses')
    const port = await freePort()
    // No replica answers: what is tested here is nginx's own.
    const replicas = [`127.0.0.1:${await freePort()}`, `127.0.0.1:${await freePort()}`]
    nginx = await startNginx(
      dir,
      edgeVars({
        dir,
        port,
        distDir: distOf('fixture'),
        replicas,
        anonymousReadsPerMinute: 1000,
        credentialedPerMinute: 1000,
      }),
    )
    origin = `http://127.0.0.1:${port}`
  })
  afterAll(async () => {
    if (nginx) await stopNginx(nginx)
  })

  it.each(REDIRECTS)('redirects %s to %s with 308', async (from, to) => {
    const service = await request(app).get(from)
    expect(service.status).toBe(308)
    expect(service.headers.location).toBe(to)
    const edge = await fetch(`${origin}${from}`, { redirect: 'manual' })
    expect(edge.status).toBe(308)
    expect(edge.headers.get('location')).toBe(to)
    expect(edge.headers.get('set-cookie')).toBeNull()
    // And the address it leads to is the page.
    if (!NO_PAGE.has(to)) expect((await request(app).get(to)).status).toBe(200)
  })

  it('leaves canonical addresses and the API alone', async () => {
    for (const path of LEFT) {
      const service = await request(app).get(path)
      expect(service.status, path).not.toBe(308)
      const edge = await fetch(`${origin}${path}`, { redirect: 'manual' })
      expect(edge.status, path).not.toBe(308)
    }
  })

  it('answers /favicon.ico with the site’s icon', async () => {
    const icon = readFileSync(join(siteDir, 'favicon.ico'))
    // An ICO directory (reserved 0, type 1) of the icon drawn from favicon.svg.
    expect(icon.readUInt16LE(0)).toBe(0)
    expect(icon.readUInt16LE(2)).toBe(1)
    const service = await request(app).get('/favicon.ico').buffer(true)
    expect(service.status).toBe(200)
    expect(service.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)$/)
    expect(Buffer.compare(service.body as Buffer, icon)).toBe(0)
    const edge = await fetch(`${origin}/favicon.ico`)
    expect(edge.status).toBe(200)
    expect(edge.headers.get('content-type')).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)$/)
    expect(Buffer.compare(Buffer.from(await edge.arrayBuffer()), icon)).toBe(0)
  })
})
