/**
 * The edge cache's build keying, with real nginx in front of a scripted upstream whose
 * Lattice-Build header the test sets: nginx stores an API answer only when the replica that made
 * it names the build nginx serves, and a swap of the `current` link starts new keys at once.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startNginx } from '../support/nginx.ts'
import { freePort } from '../support/processes.ts'
import { tempDir } from '../support/temp.ts'

const ROOT = join(import.meta.dirname, '..', '..')

describe('the edge cache keyed by build (real nginx, scripted replica)', () => {
  const dir = tempDir('edge-build')
  const dist = join(dir, 'dist')
  /** What the scripted replica names as its build; undefined sends no header. */
  let replicaBuild: string | undefined
  let served = 0
  let upstream: Server
  let nginx: ChildProcess
  let origin = ''

  /** Points `current` at builds/<id>, with one rename, as the build does. */
  function swapTo(id: string): void {
    symlinkSync(join('builds', id), join(dist, 'current.tmp'))
    renameSync(join(dist, 'current.tmp'), join(dist, 'current'))
  }

  beforeAll(async () => {
    for (const id of ['b1', 'b2']) {
      mkdirSync(join(dist, 'builds', id, 'site'), { recursive: true })
      writeFileSync(join(dist, 'builds', id, 'site', 'index.html'), `<p>${id}</p>`)
    }
    swapTo('b1')
    upstream = createServer((req, res) => {
      served++
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        'Cache-Control': 'public, max-age=60',
      }
      if (replicaBuild !== undefined) headers['Lattice-Build'] = replicaBuild
      res.writeHead(200, headers).end(JSON.stringify({ url: req.url, build: replicaBuild ?? null }))
    })
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r))
    const app = `127.0.0.1:${(upstream.address() as AddressInfo).port}`
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    nginx = await startNginx(join(dir, 'nginx'), {
      NGINX_PORT: String(port),
      BASE_URL: origin,
      SITE_ROOT: join(dist, 'current', 'site'),
      EDGE_ROOT: join(dist, 'current', 'edge'),
      APP_1: app,
      APP_2: app,
      NGINX_API_CACHE_PARAMS: join(ROOT, 'deploy', 'nginx', 'api-cache.conf'),
      NGINX_CACHE_DIR: join(dir, 'nginx', 'api-cache'),
      NGINX_API_CACHE: 'lattice_api',
      ANONYMOUS_READS_PER_MINUTE: '100000',
      CREDENTIALED_REQUESTS_PER_MINUTE: '100000',
    })
  })

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((r) => nginx.once('exit', r))
      nginx.kill('SIGQUIT')
      await exited
    }
    await new Promise((r) => upstream?.close(r))
  })

  /** Fetches through nginx: the cache status, the build in the body, and whether the replica was asked. */
  async function read(path: string): Promise<{ status: string | null; build: string | null; reachedReplica: boolean }> {
    const before = served
    const res = await fetch(`${origin}${path}`)
    const body = (await res.json()) as { build: string | null }
    expect(res.status).toBe(200)
    expect(res.headers.get('lattice-build')).toBeNull() // for the edge only
    return { status: res.headers.get('x-cache-status'), build: body.build, reachedReplica: served > before }
  }

  it('stores an answer of the build it serves, and serves it until that build is replaced', async () => {
    replicaBuild = 'b1'
    expect(await read('/api/v1/posts/one')).toMatchObject({ status: 'MISS', reachedReplica: true })
    for (let i = 0; i < 3; i++)
      expect(await read('/api/v1/posts/one')).toEqual({ status: 'HIT', build: 'b1', reachedReplica: false })
  })

  it('passes on, but never stores, an answer from a replica still on another build', async () => {
    replicaBuild = 'b0'
    for (let i = 0; i < 3; i++)
      expect(await read('/api/v1/posts/two')).toEqual({ status: 'MISS', build: 'b0', reachedReplica: true })
    // A build whose name merely contains the served one's is another build.
    replicaBuild = 'b10'
    for (let i = 0; i < 2; i++)
      expect(await read('/api/v1/posts/two')).toMatchObject({ status: 'MISS', reachedReplica: true })
  })

  it("stores answers that name no build (the deployment's documents)", async () => {
    replicaBuild = undefined
    expect(await read('/.well-known/jwks.json')).toMatchObject({ status: 'MISS' })
    expect(await read('/.well-known/jwks.json')).toMatchObject({ status: 'HIT', reachedReplica: false })
  })

  it(
    "starts the new build's keys as soon as `current` is " + 'swapped, and stores them once the replica names it',
    async () => {
      replicaBuild = 'b1'
      expect(await read('/api/v1/posts/three')).toMatchObject({ status: 'MISS' })
      expect(await read('/api/v1/posts/three')).toMatchObject({ status: 'HIT', build: 'b1' })
      swapTo('b2')
      // The replica has not loaded b2 yet: its answers go out but are not kept for b2.
      expect(await read('/api/v1/posts/three')).toEqual({ status: 'MISS', build: 'b1', reachedReplica: true })
      expect(await read('/api/v1/posts/three')).toEqual({ status: 'MISS', build: 'b1', reachedReplica: true })
      replicaBuild = 'b2'
      expect(await read('/api/v1/posts/three')).toEqual({ status: 'MISS', build: 'b2', reachedReplica: true })
      expect(await read('/api/v1/posts/three')).toEqual({ status: 'HIT', build: 'b2', reachedReplica: false })
    },
  )
})
