/**
 * An article at the model's limits must not take the deployment down: fifty authors with ORCID
 * iDs, the longest slug and a DOI whose resolver URL is several KB. Its page's headers are
 * bounded (the Link set moves to the linkset document, model/signposting.ts), nginx's buffers
 * hold the bound, and a Signposting subrequest that fails never marks a replica failed.
 */
import { createServer, type Server } from 'node:http'
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orcidChecksumHolds } from '../../model/research.ts'
import { SLUG_MAX_LENGTH } from '../../model/slug.ts'
import { ORIGIN_MAX_LENGTH } from '../../model/site-config.ts'
import { LINK_HEADER_BOUND, LINK_HEADER_MAX, pageLinkHeader } from '../../model/signposting.ts'
import { PAGE_HEADERS_BOUND } from '../../scripts/deploy/nginx-articles.ts'
import { edgeVars, startNginx, stopNginx } from '../support/nginx.ts'
import { ANONYMOUS_READS, useProxy } from '../support/nginx-proxy.ts'
import { freePort } from '../support/processes.ts'

const ROOT = join(import.meta.dirname, '..', '..')

/** A valid ORCID iD for n: fifteen digits and their ISO 7064 MOD 11-2 check character. */
function orcid(n: number): string {
  const digits = String(n * 7919).padStart(15, '0')
  const id = (c: string) => `${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8, 12)}-${digits.slice(12)}${c}`
  return id([...'0123456789X'].find((c) => orcidChecksumHolds(id(c)))!)
}

const AUTHORS = Array.from({ length: 50 }, (_, i) => ({ name: `Author Number ${i + 1}`, orcid: orcid(i + 1) }))
/** A DOI each of whose suffix characters is six bytes in its resolver URL (%C3%A9). */
const DOI = `10.5555/${'é'.repeat(1500)}`
const SLUG = `fifty-authors-${'x'.repeat(SLUG_MAX_LENGTH - 'fifty-authors-'.length)}`
const ARTICLE = `---
title: "Fifty authors"
description: "An article at the front matter's limits: fifty authors, each with an ORCID iD."
date: 2025-05-01
authors:
${AUTHORS.map((a) => `  - name: "${a.name}"\n    orcid: ${a.orcid}`).join('\n')}
license: CC-BY-NC-SA-4.0
doi: "${DOI}"
tags: [limits]
---

A body.
`

/** The raw header block of an answer (status line to the blank line), as nginx reads it from a replica. */
function rawHeaders(origin: string, path: string, headers: Record<string, string>): Promise<string> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let text = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      text += chunk
      const end = text.indexOf('\r\n\r\n')
      if (end >= 0) {
        socket.destroy()
        resolve(text.slice(0, end + 4))
      }
    })
    socket.on('error', reject)
    const lines = Object.entries({ Host: `${hostname}:${port}`, Accept: 'text/html', ...headers })
    socket.write(`HEAD ${path} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`)
  })
}

describe('an article at the model limits behind real nginx', () => {
  const proxy = useProxy({ articles: { [`${SLUG}.md`]: ARTICLE } })

  it('bounds the Link header from the model: the worst set moves to the linkset', () => {
    const worst = { slug: 'a'.repeat(SLUG_MAX_LENGTH), doi: `10.5555/${'é'.repeat(2000)}`, authors: AUTHORS }
    const origin = `https://${'a'.repeat(ORIGIN_MAX_LENGTH - 'https://'.length)}`
    const header = pageLinkHeader({ ...worst, license: 'CC-BY-NC-SA-4.0' }, origin)
    expect(header).toMatch(/^<[^>]+\.linkset\.json>; rel="linkset"; type="application\/linkset\+json", <[^>]+>/)
    expect(Buffer.byteLength(header)).toBeLessThanOrEqual(LINK_HEADER_BOUND)
    // A typical article keeps its links inline.
    const typical = pageLinkHeader(
      { slug: 'a-b', doi: '10.5555/1', authors: AUTHORS.slice(0, 5) },
      'https://research.example.org',
    )
    expect(typical).toContain('rel="cite-as"')
    expect(Buffer.byteLength(typical)).toBeLessThanOrEqual(LINK_HEADER_MAX)
  })

  it("keeps the page's headers within the bound nginx's buffers are sized from", async () => {
    const block = await rawHeaders(proxy.direct[0]!, `/posts/${SLUG}`, { 'X-Request-Id': 'r'.repeat(100) })
    expect(block).toMatch(/^HTTP\/1\.1 200 /)
    expect(block).toContain(`X-Request-Id: ${'r'.repeat(100)}`)
    expect(Buffer.byteLength(block, 'latin1')).toBeLessThanOrEqual(PAGE_HEADERS_BOUND)
    const link = /\r\nLink: ([^\r]*)\r\n/.exec(block)![1]!
    expect(link).not.toContain('orcid.org')
    expect(link.match(/rel="linkset"/g)).toHaveLength(2)
    const template = readFileSync(join(ROOT, 'deploy', 'nginx', 'default.conf.template'), 'utf8')
    const kb = Number(/\n\s*proxy_buffer_size (\d+)k;/.exec(template)![1])
    expect(kb * 1024).toBeGreaterThanOrEqual(PAGE_HEADERS_BOUND)
    const linkset = await fetch(`${proxy.origin}/posts/${SLUG}.linkset.json`)
    expect(linkset.status).toBe(200)
    const page = (await linkset.json()).linkset[0]
    expect(page.author.map((a: { href: string }) => a.href)).toEqual(AUTHORS.map((a) => `https://orcid.org/${a.orcid}`))
    expect(page['cite-as'][0].href).toBe(`https://doi.org/10.5555/${'%C3%A9'.repeat(1500)}`)
  })

  it('reads the page again and again, and no proxied endpoint answers 502', async () => {
    const { origin } = proxy
    const endpoints: Array<[string, RequestInit?]> = [
      ['/oai?verb=Identify'],
      [
        '/mcp',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
        },
      ],
      ['/oauth2/token', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' }],
      ['/api/v1/search?q=authors'],
      ['/api/v1/posts?limit=2'],
      [`/api/v1/posts/${SLUG}`, { headers: { Authorization: 'Bearer lat_live_unknown' } }],
      [`/posts/${SLUG}`, { headers: { Accept: 'text/markdown' } }],
    ]
    for (let round = 0; round < 10; round++) {
      const page = await fetch(`${origin}/posts/${SLUG}`)
      expect(page.status).toBe(200)
      expect(page.headers.get('link')).toContain('rel="linkset"')
      await page.arrayBuffer()
      for (const [path, init] of endpoints) {
        const res = await fetch(`${origin}${path}`, init)
        await res.arrayBuffer()
        expect(res.status, `${path} after ${round + 1} reads`).toBeLessThan(500)
      }
    }
    const errors = readFileSync(join(proxy.dir, 'nginx', 'logs', 'error.log'), 'utf8')
    expect(errors).not.toMatch(/too big header|no live upstreams/)
  })

  describe("a failing Signposting subrequest and the other traffic's replicas", () => {
    let replica: Server
    let nginx: Awaited<ReturnType<typeof startNginx>>
    let origin: string

    beforeAll(async () => {
      // A replica whose answer to the page's subrequest (HEAD) is too big for any buffer, and whose
      // other answers are fine: nginx fails the subrequest every time.
      replica = createServer((req, res) => {
        if (req.method === 'HEAD' && req.url!.startsWith('/posts/')) res.setHeader('X-Padding', 'p'.repeat(64 * 1024))
        res.setHeader('Content-Type', 'text/plain')
        res.end('fine')
      })
      await new Promise<void>((r) => replica.listen(0, '127.0.0.1', r))
      const app = `127.0.0.1:${(replica.address() as AddressInfo).port}`
      const port = await freePort()
      origin = `http://127.0.0.1:${port}`
      const dir = join(proxy.dir, 'failing')
      nginx = await startNginx(
        dir,
        edgeVars({
          dir,
          port,
          distDir: proxy.distDir,
          replicas: [app, app],
          anonymousReadsPerMinute: ANONYMOUS_READS,
          credentialedPerMinute: ANONYMOUS_READS,
        }),
      )
    })

    afterAll(async () => {
      if (nginx) await stopNginx(nginx)
      await new Promise((r) => replica?.close(r))
    })

    it('serves the page without links, and the replica stays in service for everything else', async () => {
      const slug = 'hashing-rings'
      for (let i = 0; i < 4; i++) {
        const page = await fetch(`${origin}/posts/${slug}`)
        expect(page.status).toBe(200)
        expect(page.headers.get('link')).toBeNull()
        await page.arrayBuffer()
        // With max_fails=1 on the shared upstream, both peers would now be failed for 2 s: a 502.
        const oai = await fetch(`${origin}/oai?verb=Identify`)
        expect(oai.status).toBe(200)
        expect(await oai.text()).toBe('fine')
      }
    })
  })
})
