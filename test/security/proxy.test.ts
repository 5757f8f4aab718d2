import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { REDIS_URL, distOf } from '../support/index.ts'
import { ANSWER_HEADERS, edgeVars, startNginx } from '../support/nginx.ts'
import { freePort, startProcess, waitFor, type Running } from '../support/processes.ts'
import { tempDir } from '../support/temp.ts'
import { HOLD } from '../../auth-service/ops/log-batch.ts'
import { send } from '../support/loopback-request.ts'

const ROOT = join(import.meta.dirname, '..', '..')
/** The replicas' budget of refused credentials per address (RATE_LIMIT_BAD_CREDENTIALS_PER_MINUTE). */
const BAD_CREDENTIALS = 6
const MCP_HEADERS = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' }
const TOOL_CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_post', arguments: { slug: 'hashing-rings' } },
})

/** Waits until the replicas have written the log lines they hold (log-batch.ts). */
const logsSettled = () => new Promise((resolve) => setTimeout(resolve, 2 * HOLD.ms + 200))

describe('hostile traffic through the production proxy: real nginx, two replicas, real Redis', () => {
  const dir = tempDir('proxy')
  const prefix = `test:${randomUUID()}:`
  const edges: ChildProcess[] = []
  let replicas: Running[] = []
  let direct: string[] = []
  /** The edge every case shares, loose on credentialed requests: the replicas' budgets answer. */
  let port: number

  beforeAll(async () => {
    const ports = [await freePort(), await freePort()]
    direct = ports.map((p) => `http://127.0.0.1:${p}`)
    // The fixture build of the run, for the BASE_URL it was built with; nginx and the replicas only read it.
    const env = {
      ...process.env,
      BASE_URL: 'http://localhost:4321',
      CONTENT_DIR: FIXTURE_CORPUS,
      DIST_DIR: distOf('fixture'),
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      SIGNING_KEY_SECRET: 'proxy-security-secret-of-at-least-32-characters',
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'info',
      RATE_LIMIT_ANONYMOUS_READS_PER_MINUTE: '1000000',
      RATE_LIMIT_BAD_CREDENTIALS_PER_MINUTE: String(BAD_CREDENTIALS),
    }
    replicas = await Promise.all(
      ports.map((p) =>
        startProcess(process.execPath, [join(ROOT, 'auth-service', 'server.ts')], {
          cwd: ROOT,
          env: { ...env, PORT: String(p), DATA_DIR: join(dir, `data-${p}`) },
          ready: /listening on/,
        }),
      ),
    )
    port = await startEdge('nginx', 1_000_000)
  })

  /** nginx with the deployment's config in front of both replicas; returns its port. */
  async function startEdge(name: string, credentialedPerMinute: number): Promise<number> {
    const edgePort = await freePort()
    const vars = edgeVars({
      dir: join(dir, name),
      port: edgePort,
      distDir: distOf('fixture'),
      replicas: direct.map((u) => u.replace('http://', '')),
      anonymousReadsPerMinute: 1_000_000,
      credentialedPerMinute,
      baseUrl: 'http://localhost:4321',
    })
    edges.push(await startNginx(join(dir, name), vars))
    return edgePort
  }

  afterAll(async () => {
    for (const edge of edges) {
      if (edge.exitCode !== null) continue
      const exited = new Promise((r) => edge.once('exit', r))
      edge.kill('SIGQUIT')
      await exited
    }
    await Promise.all(replicas.map((r) => r.stop()))
    const redis = new Redis(REDIS_URL)
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
  })

  /** The service's own 429 for a refused credential, from a replica directly. */
  async function serviceRefusal(): Promise<Response> {
    let res: Response | undefined
    for (let i = 0; i <= BAD_CREDENTIALS; i++)
      res = await fetch(`${direct[0]}/api/v1/posts/hashing-rings`, {
        headers: { Authorization: 'Bearer made-up', 'X-Forwarded-For': '198.51.100.99' },
      })
    expect(res!.status).toBe(429)
    return res!
  }

  it(
    'ends a flood of bad bearers at the replicas with their ' + '429, passed on by nginx with its RateLimit headers',
    async () => {
      const flood = []
      for (let i = 0; i < 20; i++)
        flood.push(
          await send(port, '127.0.1.1', '/api/v1/posts/hashing-rings', {
            headers: { Authorization: `Bearer made-up-${i}` },
          }),
        )
      const statuses = flood.map((r) => r.status)
      // Each replica counts exactly its own, and they share their counts: at most the budget each.
      expect(statuses[0]).toBe(401)
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(2 * BAD_CREDENTIALS)
      expect(statuses.slice(-5)).toEqual([429, 429, 429, 429, 429])
      const refused = flood.at(-1)!
      expect(JSON.parse(refused.body)).toEqual({ error: 'rate_limited', error_description: expect.any(String) })
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      expect(refused.headers['ratelimit-policy']).toBe(`"bad_credentials"; q=${BAD_CREDENTIALS}; w=60`)
      expect(refused.headers.ratelimit).toMatch(/^"bad_credentials"; r=0; t=\d+$/)
      expect(refused.headers['x-cache-status']).toBe('BYPASS')
      // MCP shares the address's budget; anonymous reads from the address and other addresses are untouched.
      const mcp = await send(port, '127.0.1.1', '/mcp', {
        method: 'POST',
        headers: { ...MCP_HEADERS, Authorization: 'Bearer made-up' },
        body: TOOL_CALL,
      })
      expect(mcp.status).toBe(429)
      expect((await send(port, '127.0.1.1', '/api/v1/posts/hashing-rings')).status).toBe(200)
      expect(
        (await send(port, '127.0.1.2', '/api/v1/posts/hashing-rings', { headers: { Authorization: 'Bearer made-up' } }))
          .status,
      ).toBe(401)
    },
  )

  it(
    'counts requests with Authorization per address at ' + "nginx too, with the service's 429, valid keys included",
    async () => {
      const strict = await startEdge('nginx-credentialed', 5)
      const key = (
        await (
          await fetch(`${direct[1]}/api/v1/keys`, { method: 'POST', headers: { 'X-Forwarded-For': '198.51.100.98' } })
        ).json()
      ).key as string
      const flood = []
      // A burst of the budget (and the one the budget refills with), then 429; the replicas saw
      // fewer than their own budget of bad credentials, so they answered each with its 401.
      for (let i = 0; i < 8; i++)
        flood.push(
          await send(strict, '127.0.1.3', '/api/v1/posts/hashing-rings', {
            headers: { Authorization: `Bearer made-up-${i}` },
          }),
        )
      expect(flood.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 401, 429, 429])
      const refused = flood.at(-1)!
      const service = await serviceRefusal()
      expect(refused.body).toBe(await service.text())
      for (const name of ANSWER_HEADERS) expect(refused.headers[name], name).toBe(service.headers.get(name))
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      expect(refused.headers['ratelimit-policy']).toBe('"credentialed"; q=5; w=60')
      expect(refused.headers.ratelimit).toBe('"credentialed"; r=0; t=1')
      // The zone is the address's, whatever the credential and the resource: the flood's address
      // is refused on /mcp and with a valid key too; anonymous reads and other addresses are not.
      expect(
        (
          await send(strict, '127.0.1.3', '/mcp', {
            method: 'POST',
            headers: { ...MCP_HEADERS, Authorization: `Bearer ${key}` },
            body: TOOL_CALL,
          })
        ).status,
      ).toBe(429)
      const anonymous = await send(strict, '127.0.1.3', '/api/v1/posts/hashing-rings')
      expect(anonymous.status).toBe(200)
      expect(
        (
          await send(strict, '127.0.1.4', '/api/v1/posts/hashing-rings', {
            headers: { Authorization: `Bearer ${key}` },
          })
        ).status,
      ).toBe(200)
    },
  )

  it("never writes a query string's secrets to a log: nginx's access log or the replicas'", async () => {
    const secrets = Array.from({ length: 8 }, (_, i) => `SECRET${i}${randomUUID().slice(0, 8)}`)
    const trace = `log-check-${randomUUID()}`
    const requests: Array<[string, string, Record<string, string>?]> = [
      ['GET', `/claim?claim_token=lat_claim_${secrets[0]}`],
      [
        'GET',
        `/oauth2/authorize?response_type=code&client_id=https%3A%2F%2Fapp.example%2Fc` +
          `&state=${secrets[1]}&code_challenge=${secrets[2]}`,
      ],
      ['GET', `/api/v1/posts?limit=1&token=${secrets[3]}`],
      ['POST', `/oauth2/token?code=${secrets[4]}&code_verifier=${secrets[5]}&assertion=${secrets[6]}`],
      ['GET', `/.well-known/jwks.json?state=${secrets[1]}`],
      ['GET', '/posts/hashing-rings', { Referer: `http://127.0.0.1/claim?claim_token=${secrets[7]}` }],
    ]
    for (const [method, path, headers] of requests)
      await send(port, '127.0.1.5', path, { method, headers: { 'X-Request-Id': trace, ...headers } })
    const accessLog = join(dir, 'nginx', 'logs', 'access.log')
    const lines = await waitFor(
      async () => {
        const mine = readFileSync(accessLog, 'utf8')
          .split('\n')
          .filter((l) => l.includes(trace))
        return mine.length === requests.length ? mine : undefined
      },
      5000,
      'the access log lines',
    )
    // Each line names the request by its path alone.
    for (const [method, path] of requests)
      expect(
        lines.some((l) => l.includes(`"${method} ${path.split('?')[0]} HTTP/1.1"`)),
        path,
      ).toBe(true)
    // The replicas' lines for the requests they answered (pino writes them asynchronously).
    const replicaLines = () => replicas.flatMap((r) => r.output().split('\n')).filter((l) => l.includes(trace))
    // The authorization request, the list and the token request reach a replica (the JWKS may come from the cache).
    await waitFor(async () => (replicaLines().length >= 3 ? true : undefined), 5000, "the replicas' log lines")
    // Every line the replicas still hold is written within HOLD.ms (log-batch.ts): read them all.
    await logsSettled()
    for (const text of [lines.join('\n'), replicaLines().join('\n')]) {
      for (const secret of secrets) expect(text).not.toContain(secret)
      for (const name of ['claim_token=lat', 'state=S', 'code=S', 'code_verifier=S', 'assertion=S', 'token=S'])
        expect(text).not.toContain(name)
    }
    expect(lines.join('\n')).not.toMatch(/claim_token|state=|code_verifier|assertion=/)
  })

  describe('keys the documents that take no query by their path alone', () => {
    const cacheFiles = () => {
      const files: string[] = []
      const walk = (d: string) => {
        for (const name of readdirSync(d)) {
          const p = join(d, name)
          if (statSync(p).isDirectory()) walk(p)
          else files.push(p)
        }
      }
      walk(join(dir, 'nginx', 'api-cache'))
      // Entries only: an update being written is a temporary file beside its entry.
      return files.filter((f) => /\/[0-9a-f]{32}$/.test(f)).length
    }
    /** Lines the replicas logged for this path with any query. */
    const askedWithQuery = (path: string) =>
      replicas.reduce(
        (n, r) =>
          n +
          r
            .output()
            .split('\n')
            .filter((line) => line.includes(`"url":"${path}?`)).length,
        0,
      )

    it.each(['/openapi.json', '/.well-known/jwks.json', '/.well-known/oauth-authorization-server', '/api/v1'])(
      '%s: 50 random query strings are answered from its one entry, and add none',
      async (path) => {
        // Its entry, filled by this request or an earlier one.
        const plain = await waitFor(
          async () => {
            const res = await send(port, '127.0.1.6', path)
            expect(res.status).toBe(200)
            return res.headers['x-cache-status'] === 'MISS' ? undefined : res
          },
          5000,
          `${path} from the cache`,
        )
        const entries = cacheFiles()
        const statuses = []
        for (let i = 0; i < 50; i++) {
          const res = await send(port, '127.0.1.6', `${path}?${randomUUID()}=${randomUUID()}`)
          expect(res.status).toBe(200)
          expect(res.body).toBe(plain.body)
          statuses.push(res.headers['x-cache-status'])
        }
        // Served from the entry (or, past its one second, by refreshing the same entry): never a new one.
        expect(statuses.filter((s) => s === 'MISS' || s === 'BYPASS')).toEqual([])
        expect(cacheFiles()).toBe(entries)
        // The replicas are asked for the document without the query.
        await logsSettled()
        expect(askedWithQuery(path)).toBe(0)
      },
    )
  })
})
