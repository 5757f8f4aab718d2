/**
 * The production proxy for the nginx suites: a build of the fixture corpus of its own, two
 * replicas of the service sharing real Redis, and the deployment's nginx in front of them.
 * `useProxy()` starts it before a file's tests and takes it all down after them, the Redis keys
 * and the temporary directory included.
 */
import { randomUUID } from 'node:crypto'
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, expect } from 'vitest'
import { build } from '../../scripts/build.ts'
import { FIXTURE_CORPUS } from './global-setup.ts'
import { REDIS_URL } from './index.ts'
import { edgeVars, startNginx, stopNginx } from './nginx.ts'
import { freePort, startProcess, type Running } from './processes.ts'

const ROOT = join(import.meta.dirname, '..', '..')
/** Far above what the tests send; one case starts an edge with a small budget. */
export const ANONYMOUS_READS = 1_000_000

export interface Proxy {
  /** The temporary directory holding the build, the replicas' data and the nginx configs. */
  dir: string
  /** The build's own copy of the fixture corpus, which a test may edit before a rebuild. */
  content: string
  distDir: string
  /** nginx's origin, and each replica's. */
  origin: string
  direct: string[]
  replicas: Running[]
  nginx: ChildProcess
  /** nginx with the deployment's config in front of both replicas. */
  startEdge(name: string, port: number, anonymousReadsPerMinute: number): Promise<ChildProcess>
  stopEdge(child: ChildProcess): Promise<void>
  /** A response body with its per-request values and the replica's origin replaced. */
  normalise(text: string): string
  /** An API key issued by a replica to a made-up client address (each has its own key budget). */
  issueKey(clientAddress: string): Promise<string>
  /** `npm run build` again, in a process of its own (see buildInOwnProcess). */
  rebuild(): Promise<void>
}

/**
 * Starts the proxy before the file's tests and stops it after them; its fields are set once the
 * tests run. `articles` are added to the corpus (file name to text) before it is built.
 */
export function useProxy(options: { articles?: Record<string, string> } = {}): Proxy {
  const dir = mkdtempSync(join(tmpdir(), 'lattice-nginx-'))
  const prefix = `test:${randomUUID()}:`
  const content = join(dir, 'content')
  const distDir = join(dir, 'dist')
  let building: ChildProcess | undefined

  const proxy: Proxy = {
    dir,
    content,
    distDir,
    origin: '',
    direct: [],
    replicas: [],
    nginx: undefined as unknown as ChildProcess,
    startEdge(name, port, anonymousReadsPerMinute) {
      const replicas = proxy.direct.map((u) => u.replace('http://', ''))
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
    },
    stopEdge: stopNginx,
    normalise: (text) =>
      text
        .replace(
          /"(identity_assertion|claim_token|access_token|key|prefix|registration_id|claim_url)":"[^"]*"/g,
          '"$1":"…"',
        )
        .replace(/"(assertion_expires|claim_token_expires)":"[^"]*"/g, '"$1":"…"')
        .replaceAll(proxy.direct[0]!, proxy.origin),
    async issueKey(clientAddress) {
      const res = await fetch(`${proxy.direct[1]}/api/v1/keys`, {
        method: 'POST',
        headers: { 'X-Forwarded-For': clientAddress },
      })
      expect(res.status).toBe(201)
      return (await res.json()).key
    },
    async rebuild() {
      const env = { ...process.env, CONTENT_DIR: content, DIST_DIR: distDir, BASE_URL: proxy.origin }
      const run = buildInOwnProcess(env)
      building = run.child
      await run.done
    },
  }

  beforeAll(async () => {
    const [nginxPort, a, b] = [await freePort(), await freePort(), await freePort()]
    proxy.origin = `http://127.0.0.1:${nginxPort}`
    proxy.direct = [`http://127.0.0.1:${a}`, `http://127.0.0.1:${b}`]
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    for (const [name, text] of Object.entries(options.articles ?? {})) writeFileSync(join(content, name), text)
    await build({ ...process.env, CONTENT_DIR: content, DIST_DIR: distDir, BASE_URL: proxy.origin })
    const env = {
      ...process.env,
      BASE_URL: proxy.origin,
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
    proxy.replicas = await Promise.all(
      [a, b].map((port) =>
        startProcess(process.execPath, [join(ROOT, 'auth-service', 'server.ts')], {
          cwd: ROOT,
          env: { ...env, PORT: String(port), DATA_DIR: join(dir, `data-${port}`), LOG_LEVEL: 'info' },
          ready: /listening on/,
        }),
      ),
    )
    proxy.nginx = await proxy.startEdge('nginx', nginxPort, ANONYMOUS_READS)
  })

  afterAll(async () => {
    if (building && building.exitCode === null && building.signalCode === null) {
      const exited = new Promise((r) => building!.once('exit', r))
      process.kill(-building.pid!, 'SIGKILL')
      await exited
    }
    if (proxy.nginx) await stopNginx(proxy.nginx)
    await Promise.all(proxy.replicas.map((r) => r.stop()))
    const redis = new Redis(REDIS_URL)
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
    rmSync(dir, { recursive: true, force: true })
  })

  return proxy
}

/**
 * `npm run build` in a process of its own, as the compose builder runs it. build() waits for
 * Astro synchronously, so called in the tests' process it would stall a load generator for the
 * whole build, and every request in flight would then be counted as timed out.
 */
function buildInOwnProcess(env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<void> } {
  // Its own process group, so that a test that gives up can stop it and the Astro it runs.
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'build.ts')], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build exited with ${code}:\n${output}`))))
  })
  return { child, done }
}

/**
 * Fetches through nginx until the answer comes from the edge: its cache (the first may fill it)
 * or a build's file.
 */
export async function fromEdge(origin: string, path: string, init: RequestInit = {}): Promise<Response> {
  for (let i = 0; i < 5; i++) {
    const res = await fetch(`${origin}${path}`, init)
    if (['HIT', 'STATIC'].includes(res.headers.get('x-cache-status')!)) return res
    await res.arrayBuffer()
  }
  throw new Error(`${path} never came from the edge`)
}
