import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { request as httpRequest } from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import { postExchange, registerAgent } from '../support/agent.ts'
import { edgeVars, startNginx } from '../support/nginx.ts'
import { ANONYMOUS_READS, useProxy } from '../support/nginx-proxy.ts'
import { readOai, validateOai } from '../support/oai.ts'
import { securityHeaderList } from '../../auth-service/http/security-headers.ts'
import { articleBucket } from '../../model/article-bucket.ts'
import { freePort } from '../support/processes.ts'

/*
 * What nginx answers for the API, the pages and the build's files, compared with what a replica
 * answers: headers, bodies, budgets per client and keys shared by the replicas.
 */
describe('the production proxy: real nginx, two replicas, real Redis', () => {
  const proxy = useProxy()
  const { dir, content, distDir, stopEdge, normalise } = proxy
  let origin: string
  let direct: string[]
  beforeAll(() => {
    ;({ origin, direct } = proxy)
  })

  it('sends the FAIR Signposting Link headers a replica sends, for pages, metadata documents and twins', async () => {
    const slugs = readdirSync(content)
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.replace(/\.md$/, ''))
    // Twice: the second time from nginx's cache.
    for (const round of [1, 2])
      for (const slug of slugs)
        for (const form of ['', '.bib', '.csl.json', '.ris', '.md', '.linkset.json', '.linkset']) {
          const path = `/posts/${slug}${form}`
          const [edge, replica] = await Promise.all([fetch(origin + path), fetch(direct[0] + path)])
          expect(edge.status, path).toBe(200)
          const link = edge.headers.get('link')
          expect(link, `${path} (${round})`).toBe(replica.headers.get('link'))
          // The links back to the page are absolute, as the page's own are.
          const back = `<${origin}/posts/${slug}>; rel="${form === '.md' ? 'collection' : 'describes'}"; type="text/html"`
          if (form === '') expect(link, path).toMatch(/rel="cite-as".*rel="describedby".*rel="linkset"/)
          else if (form.startsWith('.linkset')) expect(link, path).toBeNull()
          else expect(link, path).toBe(back)
        }
    for (const path of ['/posts/no-such-article', '/posts/no-such-article.bib', '/posts/no-such-article.md']) {
      const missing = await fetch(`${origin}${path}`)
      expect(missing.status, path).toBe(404)
      expect(missing.headers.get('link'), path).toBeNull()
    }
  })

  it(
    'serves every file of an article at its address, from its bucket, with the bytes and type a ' +
      'replica sends, and no other file of the bucket',
    async () => {
      const slugs = readdirSync(content)
        .filter((f) => f.endsWith('.md'))
        .map((f) => f.replace(/\.md$/, ''))
      for (const slug of slugs) {
        const forms = ['', '.html', '.md', '.bib', '.csl.json', '.ris', '.linkset.json', '.linkset'].map(
          (form) => `/posts/${slug}${form}`,
        )
        for (const path of [...forms, `/api/v1/posts/${slug}`]) {
          const [edge, replica] = await Promise.all([fetch(origin + path), fetch(direct[0] + path)])
          expect([edge.status, replica.status], path).toEqual([200, 200])
          expect(edge.headers.get('content-type'), path).toBe(replica.headers.get('content-type'))
          expect(await edge.text(), path).toBe(await replica.text())
        }
        const bucket = articleBucket(slug)
        for (const path of [
          `/posts/${slug}.link`,
          `/posts/${slug}.json`,
          `/${bucket}/${slug}.html`,
          `/posts/${bucket}/${slug}.html`,
          `/edge/${bucket}/${slug}.html`,
        ]) {
          const [edge, replica] = await Promise.all([fetch(origin + path), fetch(direct[0] + path)])
          expect([edge.status, replica.status], path).toEqual([404, 404])
        }
      }
    },
  )

  it('serves an article page without its Link header when no replica answers', async () => {
    const [port, nobody] = [await freePort(), await freePort()]
    const lone = await startNginx(
      join(dir, 'lone'),
      edgeVars({
        dir: join(dir, 'lone'),
        port,
        distDir,
        replicas: [`127.0.0.1:${nobody}`, `127.0.0.1:${nobody}`],
        anonymousReadsPerMinute: ANONYMOUS_READS,
        credentialedPerMinute: ANONYMOUS_READS,
      }),
    )
    try {
      const slug = readdirSync(content)
        .filter((f) => f.endsWith('.md'))[0]!
        .replace(/\.md$/, '')
      const res = await fetch(`http://127.0.0.1:${port}/posts/${slug}`)
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('<h1 class="page-title"')
      expect(res.headers.get('link')).toBeNull()
    } finally {
      await stopEdge(lone)
    }
  })

  it.each([
    ['GET', '/api/v1'],
    ['GET', '/api/v1/posts?limit=2'],
    ['GET', '/api/v1/posts/hashing-rings'],
    ['GET', '/api/v1/posts/no-such-post'],
    ['GET', '/api/v1/search?q=hashing'],
    ['GET', '/api/v1/search'],
    ['GET', '/api/v1/nope'],
    ['GET', '/.well-known/oauth-protected-resource'],
    ['GET', '/.well-known/oauth-protected-resource/api/v1'],
    ['GET', '/.well-known/oauth-authorization-server'],
    ['GET', '/.well-known/jwks.json'],
    ['GET', '/openapi.json'],
    ['GET', '/.well-known/api-catalog'],
    ['GET', '/api/v1/posts?limit=1&tag=performance'],
    ['POST', '/api/v1/keys'],
    ['POST', '/agent/identity'],
    ['POST', '/agent/identity/claim'],
    ['POST', '/oauth2/token'],
    ['POST', '/oauth2/revoke'],
    ['POST', '/agent/event/notify'],
  ])('%s %s answers through nginx exactly as from a replica', async (method, path) => {
    const init = (): RequestInit => ({
      method,
      headers: path.startsWith('/agent/identity')
        ? { 'Content-Type': 'application/json' }
        : { 'Content-Type': 'application/x-www-form-urlencoded' },
      body:
        method === 'POST'
          ? path === '/agent/identity'
            ? '{"type":"anonymous"}'
            : path === '/agent/identity/claim'
              ? '{}'
              : 'token=x'
          : undefined,
    })
    const [viaProxy, viaReplica] = await Promise.all([
      fetch(`${origin}${path}`, init()),
      fetch(`${direct[0]}${path}`, init()),
    ])
    expect(viaProxy.status).toBe(viaReplica.status)
    expect(viaProxy.headers.get('content-type')).toBe(viaReplica.headers.get('content-type'))
    expect(normalise(await viaProxy.text())).toBe(normalise(await viaReplica.text()))
  })

  it('uses the public origin in absolute URLs and passes Authorization and the request id', async () => {
    const post = await (await fetch(`${origin}/api/v1/posts/hashing-rings`)).json()
    expect(post.url).toBe(`${origin}/posts/hashing-rings`)
    const res = await fetch(`${origin}/api/v1/posts`, {
      headers: { Authorization: 'Bearer not-valid', 'X-Request-Id': 'proxy-trace-1' },
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource"`,
    )
    expect(res.headers.get('x-request-id')).toBe('proxy-trace-1')
  })

  it('proxies OAI-PMH to the replicas, by GET and by a POSTed form, uncached and valid', async () => {
    const host = new URL(origin).hostname
    const get = await fetch(`${origin}/oai?verb=ListRecords&metadataPrefix=oai_dc`)
    const post = await fetch(`${origin}/oai`, {
      method: 'POST',
      body: new URLSearchParams({ verb: 'ListIdentifiers', metadataPrefix: 'oai_dc' }),
    })
    for (const res of [get, post]) {
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8')
      expect(res.headers.get('cache-control')).toBe('no-store')
      const xml = await res.text()
      await validateOai(xml)
      expect(readOai(xml).identifiers).toContain(`oai:${host}:hashing-rings`)
    }
    const identify = await (await fetch(`${origin}/oai?verb=Identify`)).text()
    expect(identify).toContain(`<baseURL>${origin}/oai</baseURL>`)
    const refused = await (await fetch(`${origin}/oai?verb=ListRecords&resumptionToken=forged`)).text()
    expect(readOai(refused).error).toBe('badResumptionToken')
  })

  it('honours a key issued by one replica on the other, and a revocation on one at the other', async () => {
    const { key } = await (await fetch(`${direct[0]}/api/v1/keys`, { method: 'POST' })).json()
    expect(
      (await fetch(`${direct[1]}/api/v1/posts?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).status,
    ).toBe(200)

    const { identity_assertion } = await registerAgent(direct[1]!)
    const { access_token } = (await postExchange(direct[0]!, identity_assertion)).body
    const form = (fields: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams(fields) })
    expect(
      (await fetch(`${direct[1]}/api/v1/posts?limit=1`, { headers: { Authorization: `Bearer ${access_token}` } }))
        .status,
    ).toBe(200)
    expect((await fetch(`${direct[1]}/oauth2/revoke`, form({ token: access_token }))).status).toBe(200)
    for (const base of [...direct, origin]) {
      const res = await fetch(`${base}/api/v1/posts?limit=1`, { headers: { Authorization: `Bearer ${access_token}` } })
      expect(res.status, base).toBe(401)
    }
  })

  /** A POST from a given loopback address (all of 127/8 reaches this host), through nginx. */
  function postFrom(localAddress: string, path: string, headers: Record<string, string> = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      const url = new URL(path, origin)
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, headers },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode!))
        },
      )
      req.on('error', reject)
      req.end()
    })
  }

  it('gives each client behind nginx its own budget, and ignores forged X-Forwarded-For', async () => {
    for (let i = 0; i < 5; i++) expect(await postFrom('127.0.0.2', '/api/v1/keys')).toBe(201)
    expect(await postFrom('127.0.0.2', '/api/v1/keys')).toBe(429)
    expect(await postFrom('127.0.0.3', '/api/v1/keys')).toBe(201)
    const forged = []
    for (let i = 0; i < 6; i++)
      forged.push(await postFrom('127.0.0.4', '/api/v1/keys', { 'X-Forwarded-For': `198.51.100.${i}` }))
    expect(forged).toEqual([201, 201, 201, 201, 201, 429])
  })

  it('serves static files from nginx itself, with their cache headers', async () => {
    const page = await fetch(`${origin}/posts/cafe-latency-notes`)
    expect(page.status).toBe(200)
    expect(page.headers.get('x-request-id')).toBeNull() // never reached a replica
    expect(page.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate')
    const html = await page.text()
    expect(html).toContain('Café Latency Notes')
    const css = html.match(/href="(\/_astro\/[^"]+\.css)"/)![1]
    const asset = await fetch(`${origin}${css}`)
    expect(asset.status).toBe(200)
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    // The search index's files named by their content, and those a build rewrites.
    const { shards, stats, groups } = await (await fetch(`${origin}/pagefind/shards.json`)).json()
    const cacheOf = async (path: string) => {
      const answer = await fetch(`${origin}${path}`)
      expect(answer.status, path).toBe(200)
      return answer.headers.get('cache-control')
    }
    expect(await cacheOf(`/pagefind/${shards[0]}/places/${stats[shards[0]].places}/0.pf_places`)).toBe(
      'public, max-age=31536000, immutable',
    )
    expect(await cacheOf(`/pagefind/${groups[0].name}/${groups[0].files[0]}.pf_group`)).toBe(
      'public, max-age=31536000, immutable',
    )
    expect(await cacheOf('/pagefind/shards.json')).not.toContain('immutable')
    const md = await fetch(`${origin}/posts/cafe-latency-notes.md`)
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(await md.text()).toContain('# Café Latency Notes')
    const auth = await fetch(`${origin}/auth.md`)
    expect(auth.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect((await fetch(`${origin}/tags`)).status).toBe(200)
    // An author's page beside the folder of its feed and later pages, as tags.html beside tags/.
    for (const path of ['/authors', '/authors/lea-fontaine', '/developers', '/developers/reference/articles']) {
      const page = await fetch(`${origin}${path}`)
      expect(page.status, path).toBe(200)
      expect(page.headers.get('content-type'), path).toMatch(/^text\/html/)
    }
    const missing = await fetch(`${origin}/no-such-page`)
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('Page not found')
    // nginx sends every security header the service sends with the files it serves.
    const fromService = await fetch(`${direct[1]}/posts/cafe-latency-notes`)
    const names = securityHeaderList({ https: false }).filter((_, i) => i % 2 === 0)
    expect(names).toContain('origin-agent-cluster')
    for (const name of names) expect(page.headers.get(name), name).toBe(fromService.headers.get(name))
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    // Operational endpoints stay inside: nginx does not proxy them.
    expect((await fetch(`${origin}/metrics`)).status).toBe(404)
  })

  it(
    'answers an article’s address with its twin when Accept prefers ' +
      'markdown, varying by Accept, and opens the files for programs',
    async () => {
      const twin = await (await fetch(`${origin}/posts/cafe-latency-notes.md`)).text()
      const cases: Array<[string | undefined, 'markdown' | 'html']> = [
        ['text/markdown', 'markdown'],
        ['text/html;q=0.5, text/markdown', 'markdown'],
        ['text/markdown;q=0.1, text/html', 'html'],
        ['text/markdown;q=0', 'html'],
        ['text/html,application/xhtml+xml,*/*;q=0.8', 'html'],
        [undefined, 'html'],
      ]
      for (const [accept, kind] of cases) {
        const res = await fetch(`${origin}/posts/cafe-latency-notes`, { headers: accept ? { Accept: accept } : {} })
        const label = `Accept: ${accept}`
        expect(res.status, label).toBe(200)
        expect(res.headers.get('vary'), label).toMatch(/\bAccept\b/)
        expect(res.headers.get('cache-control'), label).toBe('public, max-age=0, must-revalidate')
        expect(res.headers.get('x-content-type-options'), label).toBe('nosniff')
        if (kind === 'markdown') {
          expect(res.headers.get('content-type'), label).toBe('text/markdown; charset=utf-8')
          expect(res.headers.get('access-control-allow-origin'), label).toBe('*')
          expect(await res.text(), label).toBe(twin)
        } else {
          expect(res.headers.get('content-type'), label).toBe('text/html; charset=utf-8')
          expect(await res.text(), label).toContain('Café Latency Notes')
        }
      }
      for (const accept of ['text/markdown', 'text/html']) {
        const missing = await fetch(`${origin}/posts/no-such-post`, { headers: { Accept: accept } })
        expect(missing.status, accept).toBe(404)
        expect(await missing.text(), accept).toContain('Page not found')
      }
      // Files for programs carry the API's CORS headers, as the service sends them.
      for (const path of [
        '/posts/cafe-latency-notes.md',
        '/posts/cafe-latency-notes.bib',
        '/posts/cafe-latency-notes.csl.json',
        '/posts/cafe-latency-notes.ris',
        '/auth.md',
        '/llms.txt',
        '/llms-full.txt',
        '/rss.xml',
        '/atom.xml',
        '/sitemap-index.xml',
      ]) {
        const [viaNginx, viaReplica] = [await fetch(`${origin}${path}`), await fetch(`${direct[0]}${path}`)]
        expect(viaNginx.status, path).toBe(200)
        for (const name of ['access-control-allow-origin', 'access-control-expose-headers'])
          expect(viaNginx.headers.get(name), `${path} ${name}`).toBe(viaReplica.headers.get(name))
        expect(viaNginx.headers.get('access-control-allow-origin'), path).toBe('*')
      }
      expect((await fetch(`${origin}/`)).headers.get('access-control-allow-origin')).toBeNull()
    },
  )

  it('serves the citation twins and the feeds in the types the service gives them', async () => {
    const expected: Record<string, string> = {
      '/posts/cafe-latency-notes.bib': 'application/x-bibtex; charset=utf-8',
      '/posts/cafe-latency-notes.csl.json': 'application/vnd.citationstyles.csl+json; charset=utf-8',
      '/posts/cafe-latency-notes.ris': 'application/x-research-info-systems; charset=utf-8',
      '/posts/cafe-latency-notes.jats.xml': 'application/xml; charset=utf-8',
      '/posts/hashing-rings.crossref.xml': 'application/vnd.crossref.deposit+xml; charset=utf-8',
      '/atom.xml': 'application/atom+xml; charset=utf-8',
      '/authors/lea-fontaine/atom.xml': 'application/atom+xml; charset=utf-8',
      '/rss.xml': 'application/rss+xml; charset=utf-8',
    }
    for (const [path, type] of Object.entries(expected)) {
      const [edge, replica] = await Promise.all([fetch(`${origin}${path}`), fetch(`${direct[1]}${path}`)])
      expect(edge.status, path).toBe(200)
      expect(edge.headers.get('content-type'), path).toBe(type)
      expect(replica.headers.get('content-type'), path).toBe(type)
      expect(await edge.text(), path).toBe(await replica.text())
    }
  })
})
