import { randomUUID } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn, type ChildProcess } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { Redis } from 'ioredis'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client'
import { discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { build } from '../../scripts/build.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { postExchange, registerAgent } from '../support/agent.ts'
import { decide, openConsent, pkce } from '../support/oauth-person.ts'
import { REDIS_URL } from '../support/index.ts'
import { edgeVars, startNginx } from '../support/nginx.ts'
import { readOai, validateOai } from '../support/oai.ts'
import { securityHeaderList } from '../../auth-service/http/security-headers.ts'
import { freePort, startProcess, waitFor, type Running } from '../support/processes.ts'

const ROOT = join(import.meta.dirname, '..', '..')
/** Far above what the load below sends; one case starts an edge with a small budget. */
const ANONYMOUS_READS = 1_000_000

/**
 * `npm run build` in a process of its own, as the compose builder runs it. build() waits for
 * Astro synchronously, so called in this process it would stall the load generator below for the
 * whole build, and every request in flight would then be counted as timed out.
 */
let building: ChildProcess | undefined
function buildInOwnProcess(env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    // Its own process group, so that a test that gives up can stop it and the Astro it runs.
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'build.ts')], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    building = child
    let output = ''
    child.stdout!.on('data', (d) => (output += d))
    child.stderr!.on('data', (d) => (output += d))
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build exited with ${code}:\n${output}`))))
  })
}

describe('the production proxy: real nginx, two replicas, real Redis', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lattice-nginx-'))
  const prefix = `test:${randomUUID()}:`
  let nginx: ChildProcess
  let replicas: Running[] = []
  let origin: string
  let direct: string[]
  // A build of its own, since one test rebuilds it under load.
  const content = join(dir, 'content')
  const distDir = join(dir, 'dist')

  beforeAll(async () => {
    const [nginxPort, a, b] = [await freePort(), await freePort(), await freePort()]
    origin = `http://127.0.0.1:${nginxPort}`
    direct = [`http://127.0.0.1:${a}`, `http://127.0.0.1:${b}`]
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    await build({ ...process.env, CONTENT_DIR: content, DIST_DIR: distDir, BASE_URL: origin })
    const env = {
      ...process.env,
      BASE_URL: origin,
      DIST_DIR: distDir,
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      SIGNING_KEY_SECRET: 'proxy-test-secret-of-at-least-32-characters',
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_KEYS_PER_HOUR: '5',
      RATE_LIMIT_ANONYMOUS_READS_PER_MINUTE: String(ANONYMOUS_READS),
      RATE_LIMIT_IDENTIFIED_READS_PER_MINUTE: '1000000',
    }
    // Both replicas start together: they must agree on one signing key through Redis.
    replicas = await Promise.all(
      [a, b].map((port) =>
        startProcess(process.execPath, [join(ROOT, 'auth-service', 'server.ts')], {
          cwd: ROOT,
          env: { ...env, PORT: String(port), DATA_DIR: join(dir, `data-${port}`), LOG_LEVEL: 'info' },
          ready: /listening on/,
        }),
      ),
    )
    nginx = await startEdge('nginx', nginxPort, ANONYMOUS_READS)
  })

  /** nginx with the deployment's config in front of both replicas. */
  function startEdge(name: string, port: number, anonymousReadsPerMinute: number): Promise<ChildProcess> {
    const replicas = direct.map((u) => u.replace('http://', ''))
    return startNginx(
      join(dir, name),
      edgeVars({
        dir: join(dir, name),
        port,
        distDir,
        replicas,
        anonymousReadsPerMinute,
        credentialedPerMinute: ANONYMOUS_READS,
      }),
    )
  }
  async function stopEdge(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null) return
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGQUIT')
    await exited
  }

  afterAll(async () => {
    if (building && building.exitCode === null && building.signalCode === null) {
      const exited = new Promise((r) => building!.once('exit', r))
      process.kill(-building.pid!, 'SIGKILL')
      await exited
    }
    if (nginx) await stopEdge(nginx)
    await Promise.all(replicas.map((r) => r.stop()))
    const redis = new Redis(REDIS_URL)
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
    rmSync(dir, { recursive: true, force: true })
  })

  const normalise = (text: string) =>
    text
      .replace(
        /"(identity_assertion|claim_token|access_token|key|prefix|registration_id|claim_url)":"[^"]*"/g,
        '"$1":"…"',
      )
      .replace(/"(assertion_expires|claim_token_expires)":"[^"]*"/g, '"$1":"…"')
      .replaceAll(direct[0]!, origin)

  it('sends the FAIR Signposting Link headers a replica sends, for pages and their metadata documents', async () => {
    const slugs = readdirSync(content).map((f) => f.replace(/\.md$/, ''))
    // Twice: the second time from nginx's cache.
    for (const round of [1, 2])
      for (const slug of slugs)
        for (const path of [`/posts/${slug}`, `/posts/${slug}.bib`, `/posts/${slug}.csl.json`, `/posts/${slug}.ris`]) {
          const [edge, replica] = await Promise.all([fetch(origin + path), fetch(direct[0] + path)])
          expect(edge.status, path).toBe(200)
          const link = edge.headers.get('link')
          expect(link, `${path} (${round})`).toBe(replica.headers.get('link'))
          expect(link, path).toMatch(path.endsWith(slug) ? /rel="cite-as".*rel="describedby"/ : /rel="describes"/)
        }
    const missing = await fetch(`${origin}/posts/no-such-article`)
    expect(missing.status).toBe(404)
    expect(missing.headers.get('link')).toBeNull()
  })

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
      const slug = readdirSync(content)[0]!.replace(/\.md$/, '')
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

  it('serves an MCP client through nginx from both replicas alternately, with a key, a token and the /mcp challenge', async () => {
    const mcpLines = () =>
      replicas.map(
        (r) =>
          r
            .output()
            .split('\n')
            .filter((l) => l.includes('"url":"/mcp"')).length,
      )
    const before = mcpLines()
    const connect = async (headers: Record<string, string> = {}) => {
      const client = new Client({ name: 'edge-test', version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers } }))
      return client
    }
    const anonymous = await connect()
    const rest = await (await fetch(`${origin}/api/v1/posts/hashing-rings`)).json()
    for (let i = 0; i < 3; i++)
      expect(
        (await anonymous.callTool({ name: 'get_post', arguments: { slug: 'hashing-rings' } })).structuredContent,
      ).toEqual(rest)
    const read = await anonymous.readResource({ uri: `${origin}/posts/hashing-rings.md` })
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: rest.markdown })
    await anonymous.close()
    // Stateless: the client's messages went to one replica and the next, and both answered.
    // (A replica's log line reaches this process through a pipe, after its answer: it is waited for.)
    const served = (after: number[]) => after.map((n, i) => n - before[i]!)
    await waitFor(
      async () => (served(mcpLines()).every((n) => n >= 2) ? true : undefined),
      2000,
      "both replicas' log lines",
    ).catch(() => {})
    const [first, second] = served(mcpLines())
    expect(first, 'first replica').toBeGreaterThanOrEqual(2)
    expect(second, 'second replica').toBeGreaterThanOrEqual(2)

    // Credentials issued by one replica work on the other, through the edge.
    const { key } = await (await fetch(`${direct[0]}/api/v1/keys`, { method: 'POST' })).json()
    const { identity_assertion } = await registerAgent(direct[1]!)
    const { access_token } = (await postExchange(direct[0]!, identity_assertion, { resource: `${origin}/mcp` })).body
    for (const credential of [key, access_token]) {
      const client = await connect({ Authorization: `Bearer ${credential}` })
      const found = await client.callTool({ name: 'search_posts', arguments: { q: 'hashing' } })
      expect(found.structuredContent).toEqual(await (await fetch(`${origin}/api/v1/search?q=hashing`)).json())
      await client.close()
    }

    const refused = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer not-valid',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    )
    const metadata = await discoverOAuthProtectedResourceMetadata(`${origin}/mcp`)
    expect(metadata).toMatchObject({ resource: `${origin}/mcp`, authorization_servers: [origin] })
    // Never cached at the edge, and GET has no stream to offer.
    const get = await fetch(`${origin}/mcp`, { headers: { Accept: 'text/event-stream' } })
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
  })

  it('serves a 2026-07-28 client and the server card through nginx', async () => {
    const client = new ClientV2(
      { name: 'edge-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    )
    await client.connect(new TransportV2(new URL(`${origin}/mcp`)))
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
      const rest = await (await fetch(`${origin}/api/v1/posts/hashing-rings`)).json()
      for (let i = 0; i < 3; i++)
        expect(
          (await client.callTool({ name: 'fetch', arguments: { id: 'hashing-rings' } })).structuredContent,
        ).toMatchObject({ id: 'hashing-rings', text: rest.markdown })
    } finally {
      await client.close()
    }
    // The card at both addresses, open to any origin, from the service (not the static site's 404).
    const card = await fetch(`${origin}/mcp/server-card`, { headers: { Origin: 'https://agent.example' } })
    expect(card.status).toBe(200)
    expect(card.headers.get('content-type')).toMatch(/^application\/mcp-server-card\+json/)
    expect(card.headers.get('access-control-allow-origin')).toBe('*')
    const body = (await card.json()) as { remotes: Array<{ url: string }> }
    expect(body.remotes[0]!.url).toBe(`${origin}/mcp`)
    const wellKnown = await fetch(`${origin}/.well-known/mcp/server-card.json`)
    expect(wellKnown.status).toBe(200)
    expect(await wellKnown.json()).toEqual(body)
  })

  it("walks an MCP client's authorization through nginx: registration, the consent page as the service sends it, the code, a tool call", async () => {
    const redirect = 'http://127.0.0.1:53682/callback'
    const registered = await fetch(`${origin}/oauth2/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Edge client',
        redirect_uris: [redirect],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      }),
    })
    expect(registered.status).toBe(201)
    const { client_id } = (await registered.json()) as { client_id: string }
    const { verifier, challenge } = pkce()
    const resource = `${origin}/mcp`
    const query = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: redirect,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'edge-1',
      resource,
    })
    const page = await openConsent(origin, `${origin}/oauth2/authorize?${query}`)
    expect(page.status).toBe(200)
    expect(page.html).toContain('Edge client')
    // The page's own protections reach the browser intact, and nginx keeps no copy of it.
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    expect(page.headers['x-cache-status']).toBeUndefined()
    expect(page.cookie).not.toBe('')

    const decision = await decide(origin, page)
    expect(decision.status).toBe(303)
    const back = new URL(decision.location!)
    expect(`${back.origin}${back.pathname}`).toBe(redirect)
    expect(back.searchParams.get('state')).toBe('edge-1')
    expect(back.searchParams.get('iss')).toBe(origin)
    const token = await fetch(`${origin}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: redirect,
        client_id,
        code_verifier: verifier,
        resource,
      }),
    })
    expect(token.status).toBe(200)
    const { access_token } = (await token.json()) as { access_token: string }

    const client = new Client({ name: 'edge-oauth-test', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resource), {
        requestInit: { headers: { Authorization: `Bearer ${access_token}` } },
      }),
    )
    try {
      const post = await client.callTool({ name: 'get_post', arguments: { slug: 'hashing-rings' } })
      expect(post.structuredContent).toMatchObject({ slug: 'hashing-rings' })
    } finally {
      await client.close()
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
    const md = await fetch(`${origin}/posts/cafe-latency-notes.md`)
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(await md.text()).toContain('# Café Latency Notes')
    const auth = await fetch(`${origin}/auth.md`)
    expect(auth.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect((await fetch(`${origin}/tags`)).status).toBe(200)
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

  it('answers an article’s address with its twin when Accept prefers markdown, varying by Accept, and opens the files for programs', async () => {
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
  })

  it('serves the citation twins and the feeds in the types the service gives them', async () => {
    const expected: Record<string, string> = {
      '/posts/cafe-latency-notes.bib': 'application/x-bibtex; charset=utf-8',
      '/posts/cafe-latency-notes.csl.json': 'application/vnd.citationstyles.csl+json; charset=utf-8',
      '/posts/cafe-latency-notes.ris': 'application/x-research-info-systems; charset=utf-8',
      '/atom.xml': 'application/atom+xml; charset=utf-8',
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

    /** Fetches through nginx until the answer comes from the edge: its cache (the first may fill it) or a build's file. */
    async function cached(path: string, init: RequestInit = {}): Promise<Response> {
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${origin}${path}`, init)
        if (['HIT', 'STATIC'].includes(res.headers.get('x-cache-status')!)) return res
        await res.arrayBuffer()
      }
      throw new Error(`${path} never came from the edge`)
    }

    it("answers an article by slug from the file the build wrote: the replica's status, body and every header, validators included", async () => {
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
    })

    it("serves no other file under the edge's root: every other path below /api/v1/posts/ reaches a replica or is refused", async () => {
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
    })

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

    it("refuses a read whose If-Match or If-Unmodified-Since fails with the service's 412, from a file or the cache", async () => {
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
          for (const name of [
            'content-type',
            'cache-control',
            'access-control-allow-origin',
            'access-control-expose-headers',
            'content-security-policy',
            'x-content-type-options',
          ])
            expect(edge.headers.get(name), `${what} ${name}`).toBe(replica.headers.get(name))
        }
      }
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
        // Discovery is not budgeted by the service, nor is a request with a credential.
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
        for (const name of [
          'content-type',
          'cache-control',
          'access-control-allow-origin',
          'access-control-expose-headers',
          'content-security-policy',
          'x-content-type-options',
          'x-frame-options',
          'referrer-policy',
          'cross-origin-opener-policy',
          'cross-origin-resource-policy',
        ])
          expect(refused.headers[name], name).toBe(service!.headers.get(name))
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
        expect(refused.headers['ratelimit-policy']).toBe('"reads"; q=5; w=60')
      } finally {
        await stopEdge(strict)
      }
    })
  })

  /** An API key issued by a replica to a made-up client address (each has its own key budget). */
  async function issueKey(clientAddress: string): Promise<string> {
    const res = await fetch(`${direct[1]}/api/v1/keys`, {
      method: 'POST',
      headers: { 'X-Forwarded-For': clientAddress },
    })
    expect(res.status).toBe(201)
    return (await res.json()).key
  }

  it('swaps in a rebuild on nginx and both replicas without failing a request, and shows it through the cache', async () => {
    const fresh = '/api/v1/posts/fresh-findings'
    // Not found yet, and that answer is not kept: it must not outlive the rebuild.
    for (let i = 0; i < 2; i++) expect((await fetch(`${origin}${fresh}`)).status).toBe(404)
    writeFileSync(
      join(content, 'fresh-findings.md'),
      '---\ntitle: "Fresh Findings"\ndescription: "Published under load."\ndate: 2026-06-01\nauthor: "Ada Byrne"\ntags: [methodology]\n---\n\nNew results.\n',
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
    await buildInOwnProcess({ ...process.env, CONTENT_DIR: content, DIST_DIR: distDir, BASE_URL: origin })
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
