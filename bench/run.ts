/**
 * `npm run bench [-- --quick]`: the service and its build measured side by side with reference
 * implementations on the same machine, in the same run: server and load generator pinned to
 * different cores, loopback only, bounded runs, medians of several. Prints one table and writes
 * it as JSON and markdown under bench/results/.
 */
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { generateCorpus, prng } from './corpus.ts'
import { runWrk, type LoadResult } from './load.ts'
import { measurePreview } from './dev-rows.ts'
import { edgeRows } from './edge-rows.ts'
import { mcpRows, mcpWorkload } from './mcp-rows.ts'
import { benchRender } from './render.ts'
import { buildRowsFor, twentyThousandRow, type BuildRow } from './build-rows.ts'
import { markdownTable, ratio, record, recordLoad, rows, type Row } from './table.ts'
import { createPostIndex } from '../post-index/post-index.ts'
import { readIndexEntries } from '../post-index/index-file.ts'
import { benchServiceIndex } from './service-index.ts'
import { Redis } from 'ioredis'
import { SignJWT, exportJWK, generateKeyPair } from 'jose'
import { agentToken, exchangeForm } from '../test/support/agent.ts'
import { freePort, startProcess, type Running } from '../test/support/processes.ts'
import { ensure, executable, missingMessage, onPath, type Requirement } from '../test/support/requirements.ts'

if (process.argv.includes('--scale')) {
  await import('./scale.ts')
  process.exit(0)
}

const ROOT = join(import.meta.dirname, '..')
const QUICK = process.argv.includes('--quick')
/** Re-measure the service on the builds an earlier run left, without building again. */
const SERVICE_ONLY = process.argv.includes('--service-only')
const WORK = join(tmpdir(), 'lattice-bench')
const NODE = process.execPath
const SIZES = QUICK ? [300] : [1000, 10_000]
const SERVICE_SIZE = SIZES[SIZES.length - 1]!
const SECONDS = QUICK ? 2 : 5
const REPEATS = QUICK ? 1 : 3
const [SERVER_CPU, LOAD_CPU] = cpus().length > 1 ? [0, 1] : [0, 0]
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Key prefixes the run wrote in the shared Redis, removed at the end. */
const redisPrefixes: string[] = []

/** What the run drives: the first three it cannot do without; the references are skipped if missing. */
const NEEDS = {
  wrk: { pkg: 'wrk', why: 'generates the load', present: () => onPath('wrk') },
  taskset: {
    pkg: 'util-linux',
    why: 'taskset pins the server and the load to different cores',
    present: () => onPath('taskset'),
  },
  time: {
    pkg: 'time',
    why: '/usr/bin/time measures wall time and peak memory of a build',
    present: () => executable('/usr/bin/time'),
  },
  hugo: { pkg: 'hugo', why: 'the reference build', present: () => onPath('hugo') },
  nginx: { pkg: 'nginx', why: 'the reference static server', present: () => onPath('nginx') },
} satisfies Record<string, Requirement>

/** Runs a command, returning wall seconds and the peak resident memory of its largest process. */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT) {
  const out = spawnSync('/usr/bin/time', ['-f', '__TIME__ %e %M', command, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  })
  const m = /__TIME__ ([\d.]+) (\d+)/.exec(out.stderr)
  if (out.status !== 0 || !m) throw new Error(`${command} failed: ${out.stderr.slice(-2000)}`)
  return { seconds: Number(m[1]), peakMb: Number(m[2]) / 1024, output: out.stdout + out.stderr }
}

/**
 * A server on the server core, ready once `readyUrl` answers; its output (request logs included)
 * goes to a file, as in production.
 */
function pinned(
  args: string[],
  readyUrl: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 30_000,
): Promise<Running> {
  return startProcess('taskset', ['-c', String(SERVER_CPU), ...args], {
    cwd: ROOT,
    env,
    ready: { url: readyUrl },
    timeoutMs,
    logFile: join(WORK, 'servers.log'),
  })
}
function load(origin: string, lines: string[], extra: Partial<Parameters<typeof runWrk>[0]> = {}): LoadResult[] {
  const results: LoadResult[] = []
  for (let i = 0; i < REPEATS; i++)
    results.push(runWrk({ origin, lines, workDir: WORK, seconds: SECONDS, cpu: LOAD_CPU, ...extra }))
  return results
}

// ---------------------------------------------------------------------------------------------

async function benchBuilds() {
  console.log('\nBuilds')
  const renderCorpus = generateCorpus(join(WORK, `corpus-${SIZES[0]}`), SIZES[0]!)
  for (const r of await benchRender(renderCorpus))
    record(r.figure, r.unit, [r.value], { target: r.target, met: r.met, note: r.note })
  // The build's own rows (bench/build-rows.ts): recorded here, with their ratios and targets.
  const add = (built: BuildRow[]) => {
    const byFigure = new Map(
      built.map((r) => [r.figure, record(r.figure, r.unit, r.values, r.note ? { note: r.note } : {})]),
    )
    for (const r of built) {
      const row = byFigure.get(r.figure)!
      if (r.reference) ratio(row, byFigure.get(r.reference), r.target)
      if (r.limit) Object.assign(row, { target: r.limit.text, met: row.median <= r.limit.max })
    }
  }
  for (const size of SIZES) add(await buildRowsFor(size, WORK))
  if (!QUICK) add([await twentyThousandRow(WORK)])
}

async function benchPreview() {
  console.log('\nLive preview (npm run dev, Chromium)')
  const size = SIZES[0]!
  try {
    for (const r of await measurePreview({ work: WORK, size, port: await freePort() })) {
      const row = record(r.figure, r.unit, r.values, { note: r.note })
      if (r.target) Object.assign(row, { target: r.target.text, met: row.median <= r.target.max })
    }
  } catch (e) {
    rows.push({
      figure: `preview ${size} articles`,
      unit: 'ms',
      median: NaN,
      min: NaN,
      max: NaN,
      note: `failed: ${(e as Error).message.slice(0, 200)}`,
    })
  }
}

async function benchService() {
  const dist = join(WORK, `dist-${SERVICE_SIZE}`)
  if (!existsSync(join(dist, 'current', 'build.json'))) {
    generateCorpus(join(WORK, `corpus-${SERVICE_SIZE}`), SERVICE_SIZE)
    timed(NODE, [join(ROOT, 'scripts', 'build.ts')], {
      ...process.env,
      CONTENT_DIR: join(WORK, `corpus-${SERVICE_SIZE}`),
      DIST_DIR: dist,
      BASE_URL: 'http://localhost:4321',
    })
  }
  const posts = readIndexEntries(join(dist, 'current'))
  const random = prng(7)
  const slugs = Array.from({ length: 5000 }, () => posts[Math.floor(random() * posts.length)]!.slug)
  const slugPaths = slugs.map((s) => `/api/v1/posts/${s}`)
  const vocabulary = posts.flatMap((p) => p.title.split(' ')).slice(0, 5000)
  const queries = Array.from({ length: 5000 }, () => {
    const n = 1 + Math.floor(random() * 3)
    return `/api/v1/search?q=${encodeURIComponent(Array.from({ length: n }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' '))}`
  })

  console.log(`\nThe article index in process (${SERVICE_SIZE} articles, before and after, same run)`)
  for (const row of await benchServiceIndex({ workDir: WORK, size: SERVICE_SIZE, node: NODE, repeats: REPEATS })) {
    rows.push(row)
    console.log(`  ${row.figure}: ${row.median.toFixed(2)} ${row.unit} (${row.note ?? ''})`)
  }
  const index = createPostIndex(posts, 'http://localhost:4321')

  console.log('\nReferences on the same bytes')
  const bodies: Record<string, string> = {}
  for (const p of posts) bodies[p.slug] = index.detail(p.slug)!.body.toString()
  const bodiesFile = join(WORK, 'bodies.json')
  writeFileSync(bodiesFile, JSON.stringify(bodies))
  const refs: Record<string, Row> = {}
  if (NEEDS.nginx.present()) {
    const root = join(WORK, 'nginx-root')
    rmSync(root, { recursive: true, force: true })
    mkdirSync(join(root, 'api', 'v1', 'posts'), { recursive: true })
    for (const [slug, json] of Object.entries(bodies)) writeFileSync(join(root, 'api', 'v1', 'posts', slug), json)
    const port = await freePort()
    const conf = join(WORK, 'nginx.conf')
    writeFileSync(
      conf,
      `worker_processes 1; daemon off; pid ${WORK}/nginx.pid; error_log ${WORK}/nginx-error.log;
events { worker_connections 1024; }
http { access_log ${WORK}/nginx-access.log; default_type application/json; sendfile on; tcp_nopush on; keepalive_requests 100000;
  client_body_temp_path ${WORK}/nginx-body; proxy_temp_path ${WORK}/nginx-proxy; fastcgi_temp_path ${WORK}/nginx-fcgi; uwsgi_temp_path ${WORK}/nginx-uwsgi; scgi_temp_path ${WORK}/nginx-scgi;
  server { listen 127.0.0.1:${port}; root ${root}; } }`,
    )
    const nginx = await pinned(
      ['nginx', '-c', conf, '-g', 'user root;'],
      `http://127.0.0.1:${port}/api/v1/posts/${slugs[0]}`,
    )
    refs.nginx = recordLoad(
      'reference: nginx, static files of the same bytes',
      load(`http://127.0.0.1:${port}`, slugPaths),
    )
    await nginx.stop()
  }
  for (const kind of ['http', 'express'] as const) {
    const port = await freePort()
    const ref = await pinned(
      [NODE, join(import.meta.dirname, 'references', 'bare-servers.ts'), kind, String(port), bodiesFile],
      `http://127.0.0.1:${port}/api/v1/posts/${slugs[0]}`,
    )
    refs[kind] = recordLoad(
      `reference: bare ${kind === 'http' ? 'node:http' : 'Express 5'}, the same bytes`,
      load(`http://127.0.0.1:${port}`, slugPaths),
    )
    await ref.stop()
  }

  for (const store of ['embedded', 'redis'] as const) {
    console.log(`\nThe service, ${posts.length} articles, ${store} store`)
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const dataDir = join(WORK, `data-${store}`)
    rmSync(dataDir, { recursive: true, force: true })
    const env = {
      ...process.env,
      PORT: String(port),
      BASE_URL: 'http://localhost:4321',
      DIST_DIR: dist,
      DATA_DIR: dataDir,
      SIGNING_KEY_SECRET: 'benchmark-secret-of-at-least-32-characters',
      // Limits stay on (their cost is part of the stack) but far above the load.
      RATE_LIMIT_ANONYMOUS_READS_PER_MINUTE: '100000000',
      RATE_LIMIT_IDENTIFIED_READS_PER_MINUTE: '100000000',
      RATE_LIMIT_KEYS_PER_HOUR: '100000000',
      RATE_LIMIT_TOKENS_PER_MINUTE: '100000000',
      RATE_LIMIT_IDENTITIES_PER_HOUR: '100000000',
      RATE_LIMIT_WRITES_PER_MINUTE: '100000000',
      ...(store === 'redis' ? { REDIS_URL, REDIS_KEY_PREFIX: `bench:${randomUUID()}:` } : {}),
    }
    if (env.REDIS_KEY_PREFIX) redisPrefixes.push(env.REDIS_KEY_PREFIX)
    const started = performance.now()
    const server = await pinned([NODE, join(ROOT, 'auth-service', 'server.ts')], `${origin}/readyz`, env, 60_000)
    const startup = (performance.now() - started) / 1000
    if (store === 'embedded') {
      rows.push({
        figure: `start-up to ready, ${posts.length} articles`,
        unit: 's',
        median: startup,
        min: startup,
        max: startup,
        target: '≤ 1.5 s',
        met: startup <= 1.5,
      })
      console.log(`  start-up: ${startup.toFixed(2)} s`)
    }

    const anon = recordLoad(`${store}: GET /api/v1/posts/:slug, anonymous`, load(origin, slugPaths))
    if (store === 'embedded') {
      ratio(anon, refs.nginx, { min: 0.3, text: '≥ 0.30 × nginx' })
      const vsExpress: Row = { ...anon, figure: `${store}: GET /api/v1/posts/:slug vs bare Express` }
      rows.push(vsExpress)
      ratio(vsExpress, refs.express, { min: 1.0, text: '≥ 1.0 × bare Express' })
      const vsHttp: Row = { ...anon, figure: `${store}: GET /api/v1/posts/:slug vs bare node:http` }
      rows.push(vsHttp)
      ratio(vsHttp, refs.http)
    }
    recordLoad(`${store}: GET /api/v1/posts`, load(origin, ['/api/v1/posts']))
    const search = recordLoad(`${store}: GET /api/v1/search, 1-3 words`, load(origin, queries))
    ratio(search, anon, { min: 0.5, text: '≥ 0.5 × fetch by slug' })

    const key = (await (await fetch(`${origin}/api/v1/keys`, { method: 'POST' })).json()).key as string
    const withKey = recordLoad(
      `${store}: GET /api/v1/posts/:slug, API key`,
      load(origin, slugPaths, { authorization: `Bearer ${key}` }),
    )
    ratio(withKey, anon, { min: 0.8, text: '≥ 0.8 × anonymous' })
    const resource = { resource: 'http://localhost:4321/api/v1' }
    const { identity_assertion, access_token: token } = await agentToken(origin, resource)
    const exchangeBody = new URLSearchParams(exchangeForm(identity_assertion, resource)).toString()
    const withToken = recordLoad(
      `${store}: GET /api/v1/posts/:slug, access token`,
      load(origin, slugPaths, { authorization: `Bearer ${token}` }),
    )
    ratio(withToken, anon, { min: 0.8, text: '≥ 0.8 × anonymous' })
    refs[`token-${store}`] = recordLoad(
      `${store}: POST /oauth2/token (jwt-bearer)`,
      load(origin, [exchangeBody], {
        method: 'POST',
        postPath: '/oauth2/token',
        contentType: 'application/x-www-form-urlencoded',
      }),
    )
    recordLoad(`${store}: POST /api/v1/keys`, load(origin, [''], { method: 'POST', postPath: '/api/v1/keys' }))
    if (store === 'embedded') {
      console.log('  MCP tools/call against the REST reads, same server')
      rows.push(
        ...(await mcpRows({
          origin,
          ...mcpWorkload(dist),
          workDir: WORK,
          seconds: SECONDS,
          repeats: REPEATS,
          loadCpu: LOAD_CPU,
          serverPid: server.child.pid,
        })),
      )
    }

    if (store === 'embedded') {
      // taskset execs the command, so the pid is the server's own.
      const rss =
        Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024
      const corpusMb = dirSize(join(WORK, `corpus-${SERVICE_SIZE}`)) / 1024 / 1024
      rows.push({
        figure: `service process RSS after the HTTP runs, ${posts.length} articles`,
        unit: 'MB',
        median: rss,
        min: rss,
        max: rss,
        reference: `corpus on disk ${corpusMb.toFixed(0)} MB`,
      })
      console.log(`  RSS ${rss.toFixed(0)} MB (corpus ${corpusMb.toFixed(0)} MB)`)
    }
    await server.stop()
  }

  console.log(`\nThe edge: deploy/nginx in front of two replicas (${posts.length} articles)`)
  rows.push(
    ...(await edgeRows({
      dist,
      slugPaths,
      workDir: WORK,
      seconds: SECONDS,
      repeats: REPEATS,
      serverCpu: SERVER_CPU,
      loadCpu: LOAD_CPU,
    })),
  )

  console.log('\nReference: oidc-provider, client_credentials with private_key_jwt')
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  const jwkFile = join(WORK, 'client-jwk.json')
  writeFileSync(jwkFile, JSON.stringify({ ...(await exportJWK(publicKey)), kid: 'client', alg: 'ES256', use: 'sig' }))
  const port = await freePort()
  const oidc = await pinned(
    [NODE, join(import.meta.dirname, 'references', 'oidc.ts'), String(port), jwkFile],
    `http://127.0.0.1:${port}/.well-known/openid-configuration`,
  )
  const tokenUrl = `http://127.0.0.1:${port}/token`
  const count = (QUICK ? 6000 : 15000) * REPEATS
  // private_key_jwt client assertions, one per request (oidc-provider refuses a replayed jti).
  const assertions = await Promise.all(
    Array.from({ length: count }, async () => {
      const jwt = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: 'client' })
        .setIssuer('bench-client')
        .setSubject('bench-client')
        .setAudience(tokenUrl)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey)
      return new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: jwt,
      }).toString()
    }),
  )
  const probe = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: assertions.pop(),
  })
  if (probe.status !== 200) console.warn(`  oidc-provider answered ${probe.status}: ${await probe.text()}`)
  const oidcRow = recordLoad(
    'reference: oidc-provider token endpoint',
    load(`http://127.0.0.1:${port}`, assertions, {
      method: 'POST',
      postPath: '/token',
      contentType: 'application/x-www-form-urlencoded',
    }),
  )
  await oidc.stop()
  ratio(refs['token-embedded'], oidcRow, { min: 1.5, text: '≥ 1.5 × oidc-provider' })
  ratio(refs['token-redis'], oidcRow, { min: 1.5, text: '≥ 1.5 × oidc-provider' })
}

function dirSize(dir: string): number {
  return readdirSync(dir).reduce((total, f) => total + statSync(join(dir, f)).size, 0)
}

/** Leaves the shared Redis as it was: the run issues hundreds of thousands of keys. */
async function removeRedisKeys() {
  if (redisPrefixes.length === 0) return
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    for (const prefix of redisPrefixes) {
      let cursor = '0'
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
        if (keys.length) await redis.unlink(...keys)
        cursor = next
      } while (cursor !== '0')
    }
  } catch (e) {
    console.warn(`  could not remove the benchmark's Redis keys: ${(e as Error).message}`)
  } finally {
    redis.disconnect()
  }
}

function report() {
  const header = `Benchmark ${QUICK ? '(quick) ' : ''}${new Date().toISOString()}, Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? ''}), ${SECONDS} s runs × ${REPEATS}, server on core ${SERVER_CPU}, load on core ${LOAD_CPU}.`
  const table = markdownTable(rows).join('\n')
  console.log(`\n${header}\n\n${table}\n`)
  const dir = join(import.meta.dirname, 'results')
  mkdirSync(dir, { recursive: true })
  const name = QUICK ? 'latest-quick' : SERVICE_ONLY ? 'latest-service' : 'latest'
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ header, quick: QUICK, rows }, null, 2))
  writeFileSync(join(dir, `${name}.md`), `${header}\n\n${table}\n`)
}

mkdirSync(WORK, { recursive: true })
const started = Date.now()
try {
  const missing = ensure(Object.values(NEEDS))
  const required = missing.filter((r) => r === NEEDS.wrk || r === NEEDS.taskset || r === NEEDS.time)
  if (required.length) throw new Error(missingMessage('npm run bench', required))
  for (const r of missing) console.warn(`  (${r.pkg} is missing, so ${r.why} is skipped)`)
  if (!SERVICE_ONLY) await benchBuilds()
  if (!SERVICE_ONLY) await benchPreview()
  await benchService()
} finally {
  await removeRedisKeys()
  report()
  console.log(`Took ${((Date.now() - started) / 1000).toFixed(0)} s.`)
}
