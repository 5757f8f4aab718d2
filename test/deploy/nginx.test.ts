import { randomUUID } from 'node:crypto'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn, type ChildProcess } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { build } from '../../scripts/build.ts'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { REDIS_URL } from '../support/index.ts'
import { startNginx } from '../support/nginx.ts'
import { freePort, startProcess, waitFor, type Running } from '../support/processes.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer'

/**
 * `npm run build` in a process of its own, as the compose builder runs it. build() waits for
 * Astro synchronously, so called in this process it would stall the load generator below for the
 * whole build, and every request in flight would then be counted as timed out.
 */
function buildInOwnProcess(env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'build.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
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
      RATE_LIMIT_ANONYMOUS_READS_PER_MINUTE: '1000000',
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
    nginx = await startNginx(join(dir, 'nginx'), {
      NGINX_PORT: String(nginxPort),
      SITE_ROOT: join(distDir, 'current', 'site'),
      APP_1: `127.0.0.1:${a}`,
      APP_2: `127.0.0.1:${b}`,
    })
  })

  afterAll(async () => {
    nginx?.kill('SIGQUIT')
    await Promise.all(replicas.map((r) => r.stop()))
    const redis = new Redis(REDIS_URL)
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
    rmSync(dir, { recursive: true, force: true })
  })

  const normalise = (text: string) =>
    text
      .replace(/"(identity_assertion|claim_token|access_token|key|prefix|registration_id|claim_url)":"[^"]*"/g, '"$1":"…"')
      .replace(/"(assertion_expires|claim_token_expires)":"[^"]*"/g, '"$1":"…"')
      .replaceAll(direct[0]!, origin)

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
    ['POST', '/api/v1/keys'],
    ['POST', '/agent/identity'],
    ['POST', '/agent/identity/claim'],
    ['POST', '/oauth2/token'],
    ['POST', '/oauth2/revoke'],
    ['POST', '/agent/event/notify'],
  ])('%s %s answers through nginx exactly as from a replica', async (method, path) => {
    const init = (): RequestInit => ({
      method,
      headers: path.startsWith('/agent/identity') ? { 'Content-Type': 'application/json' } : { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: method === 'POST' ? (path === '/agent/identity' ? '{"type":"anonymous"}' : path === '/agent/identity/claim' ? '{}' : 'token=x') : undefined,
    })
    const [viaProxy, viaReplica] = await Promise.all([fetch(`${origin}${path}`, init()), fetch(`${direct[0]}${path}`, init())])
    expect(viaProxy.status).toBe(viaReplica.status)
    expect(viaProxy.headers.get('content-type')).toBe(viaReplica.headers.get('content-type'))
    expect(normalise(await viaProxy.text())).toBe(normalise(await viaReplica.text()))
  })

  it('uses the public origin in absolute URLs and passes Authorization and the request id', async () => {
    const post = await (await fetch(`${origin}/api/v1/posts/hashing-rings`)).json()
    expect(post.url).toBe(`${origin}/posts/hashing-rings`)
    const res = await fetch(`${origin}/api/v1/posts`, { headers: { Authorization: 'Bearer not-valid', 'X-Request-Id': 'proxy-trace-1' } })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource"`)
    expect(res.headers.get('x-request-id')).toBe('proxy-trace-1')
  })

  it('honours a key issued by one replica on the other, and a revocation on one at the other', async () => {
    const { key } = await (await fetch(`${direct[0]}/api/v1/keys`, { method: 'POST' })).json()
    expect((await fetch(`${direct[1]}/api/v1/posts?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200)

    const { identity_assertion } = await (
      await fetch(`${direct[1]}/agent/identity`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"type":"anonymous"}' })
    ).json()
    const form = (fields: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams(fields) })
    const { access_token } = await (await fetch(`${direct[0]}/oauth2/token`, form({ grant_type: JWT_BEARER, assertion: identity_assertion }))).json()
    expect((await fetch(`${direct[1]}/api/v1/posts?limit=1`, { headers: { Authorization: `Bearer ${access_token}` } })).status).toBe(200)
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
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, headers }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode!))
      })
      req.on('error', reject)
      req.end()
    })
  }

  it('gives each client behind nginx its own budget, and ignores forged X-Forwarded-For', async () => {
    for (let i = 0; i < 5; i++) expect(await postFrom('127.0.0.2', '/api/v1/keys')).toBe(201)
    expect(await postFrom('127.0.0.2', '/api/v1/keys')).toBe(429)
    expect(await postFrom('127.0.0.3', '/api/v1/keys')).toBe(201)
    const forged = []
    for (let i = 0; i < 6; i++) forged.push(await postFrom('127.0.0.4', '/api/v1/keys', { 'X-Forwarded-For': `198.51.100.${i}` }))
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
    // nginx sends the service's security headers with the files it serves.
    const fromService = await fetch(`${direct[1]}/posts/cafe-latency-notes`)
    for (const name of ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy'])
      expect(page.headers.get(name), name).toBe(fromService.headers.get(name))
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    // Operational endpoints stay inside: nginx does not proxy them.
    expect((await fetch(`${origin}/metrics`)).status).toBe(404)
  })

  it('swaps in a rebuild on nginx and both replicas without failing a request', async () => {
    writeFileSync(
      join(content, 'fresh-findings.md'),
      '---\ntitle: "Fresh Findings"\ndescription: "Published under load."\ndate: 2026-06-01\nauthor: "Ada Byrne"\ntags: [methodology]\n---\n\nNew results.\n',
    )
    const failures: string[] = []
    let requests = 0
    let running = true
    const worker = async (path: string) => {
      while (running) {
        const res = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(5000) }).catch((e: Error) => e)
        requests++
        if (res instanceof Error) failures.push(`${path}: ${res.message}`)
        else if (res.status !== 200) failures.push(`${path}: ${res.status}`)
        else await res.arrayBuffer()
        // A steady load, not a flood: the build shares the machine with it.
        await new Promise((r) => setTimeout(r, 10))
      }
    }
    const workers = ['/api/v1/posts?limit=5', '/posts/hashing-rings', '/api/v1/search?q=rings', '/'].flatMap((p) => [worker(p), worker(p)])
    await buildInOwnProcess({ ...process.env, CONTENT_DIR: content, DIST_DIR: distDir, BASE_URL: origin })
    for (const base of direct)
      await waitFor(
        async () => ((await (await fetch(`${base}/api/v1/posts?limit=1`)).json()).posts[0].slug === 'fresh-findings' ? true : undefined),
        5000,
        `${base} to load the new index`,
      )
    running = false
    await Promise.all(workers)
    expect(requests).toBeGreaterThan(100)
    expect(failures).toEqual([])
    expect((await fetch(`${origin}/posts/fresh-findings`)).status).toBe(200)
  }, 180_000) // a whole build, on a machine busy with the load

  it('loses no request while a replica shuts down under load', async () => {
    const outcomes: string[] = []
    let running = true
    const worker = async () => {
      while (running) {
        try {
          const res = await fetch(`${origin}/api/v1/posts/hashing-rings`, { signal: AbortSignal.timeout(5000) })
          const body = await res.json()
          outcomes.push(res.status === 200 && body.slug === 'hashing-rings' ? 'ok' : `status ${res.status}`)
        } catch (e) {
          outcomes.push(`error ${(e as Error).message}`)
        }
      }
    }
    const workers = Array.from({ length: 16 }, worker)
    await new Promise((r) => setTimeout(r, 300))
    const stopped = replicas[0]!.stop() // SIGTERM: drain, then exit
    await new Promise((r) => setTimeout(r, 700))
    running = false
    await Promise.all(workers)
    await stopped
    expect(replicas[0]!.output()).toContain('"msg":"stopped"')
    expect(outcomes.length).toBeGreaterThan(200)
    expect(outcomes.filter((o) => o !== 'ok')).toEqual([])
  })
})
