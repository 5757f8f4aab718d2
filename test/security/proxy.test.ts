import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { REDIS_URL, distOf } from '../support/index.ts'
import { startNginx } from '../support/nginx.ts'
import { freePort, startProcess, waitFor, type Running } from '../support/processes.ts'
import { tempDir } from '../support/temp.ts'

const ROOT = join(import.meta.dirname, '..', '..')

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A request to nginx from a given loopback address (all of 127/8 reaches this host), so each case is a client of its own. */
function send(port: number, localAddress: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', localAddress, headers: options.headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d) => (body += d))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

describe('hostile traffic through the production proxy: real nginx, two replicas, real Redis', () => {
  const dir = tempDir('proxy')
  const prefix = `test:${randomUUID()}:`
  const edges: ChildProcess[] = []
  let replicas: Running[] = []
  let direct: string[] = []
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
    port = await startEdge('nginx')
  })

  /** nginx with the deployment's config in front of both replicas; returns its port. */
  async function startEdge(name: string): Promise<number> {
    const edgePort = await freePort()
    const dist = distOf('fixture')
    edges.push(
      await startNginx(join(dir, name), {
        NGINX_PORT: String(edgePort),
        SITE_ROOT: join(dist, 'current', 'site'),
        EDGE_ROOT: join(dist, 'current', 'edge'),
        APP_1: direct[0]!.replace('http://', ''),
        APP_2: direct[1]!.replace('http://', ''),
        NGINX_API_CACHE_PARAMS: join(ROOT, 'deploy', 'nginx', 'api-cache.conf'),
        NGINX_CACHE_DIR: join(dir, name, 'api-cache'),
        NGINX_API_CACHE: 'lattice_api',
        ANONYMOUS_READS_PER_MINUTE: '1000000',
      }),
    )
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

  it('never writes a query string\'s secrets to a log: nginx\'s access log or the replicas\'', async () => {
    const secrets = Array.from({ length: 8 }, (_, i) => `SECRET${i}${randomUUID().slice(0, 8)}`)
    const trace = `log-check-${randomUUID()}`
    const requests: Array<[string, string, Record<string, string>?]> = [
      ['GET', `/claim?claim_token=lat_claim_${secrets[0]}`],
      ['GET', `/oauth2/authorize?response_type=code&client_id=https%3A%2F%2Fapp.example%2Fc&state=${secrets[1]}&code_challenge=${secrets[2]}`],
      ['GET', `/api/v1/posts?limit=1&token=${secrets[3]}`],
      ['POST', `/oauth2/token?code=${secrets[4]}&code_verifier=${secrets[5]}&assertion=${secrets[6]}`],
      ['GET', `/.well-known/jwks.json?state=${secrets[1]}`],
      ['GET', '/posts/hashing-rings', { Referer: `http://127.0.0.1/claim?claim_token=${secrets[7]}` }],
    ]
    for (const [method, path, headers] of requests) await send(port, '127.0.1.5', path, { method, headers: { 'X-Request-Id': trace, ...headers } })
    const accessLog = join(dir, 'nginx', 'logs', 'access.log')
    const lines = await waitFor(
      async () => {
        const mine = readFileSync(accessLog, 'utf8').split('\n').filter((l) => l.includes(trace))
        return mine.length === requests.length ? mine : undefined
      },
      5000,
      'the access log lines',
    )
    // Each line names the request by its path alone.
    for (const [method, path] of requests) expect(lines.some((l) => l.includes(`"${method} ${path.split('?')[0]} HTTP/1.1"`)), path).toBe(true)
    // The replicas' lines for the requests they answered (pino writes them asynchronously).
    const replicaLines = () => replicas.flatMap((r) => r.output().split('\n')).filter((l) => l.includes(trace))
    // The authorization request, the list and the token request reach a replica (the JWKS may come from the cache).
    await waitFor(async () => (replicaLines().length >= 3 ? true : undefined), 5000, 'the replicas\' log lines')
    for (const text of [lines.join('\n'), replicaLines().join('\n')]) {
      for (const secret of secrets) expect(text).not.toContain(secret)
      for (const name of ['claim_token=lat', 'state=S', 'code=S', 'code_verifier=S', 'assertion=S', 'token=S']) expect(text).not.toContain(name)
    }
    expect(lines.join('\n')).not.toMatch(/claim_token|state=|code_verifier|assertion=/)
  })
})
