/**
 * The service's own rows for one store (embedded or Redis): start-up, reads by slug, list and
 * search under load, with an API key and an access token, the token exchange, key issuance, the
 * MCP tool calls and the process's memory, with their ratios to the references; then the read by
 * slug through `npm start` (start-rows.ts).
 */
import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { readIndexEntries } from '../post-index/index-file-loader.ts'
import { agentToken, exchangeForm } from '../test/support/agent.ts'
import { freePort } from '../test/support/processes.ts'
import {
  LOAD_CPU,
  NODE,
  REDIS_URL,
  REPEATS,
  ROOT,
  SECONDS,
  SERVICE_SIZE,
  WORK,
  load,
  pinned,
  redisPrefixes,
} from './harness.ts'
import { mcpRows, mcpWorkload } from './mcp-rows.ts'
import { benchEnv, startRows } from './start-rows.ts'
import { ratio, recordLoad, rows, type Row } from './table.ts'

/** The service on the build in `dist`, with `store`; the token exchange's row goes into `refs`. */
export async function serviceRows(
  store: 'embedded' | 'redis',
  {
    dist,
    posts,
    slugPaths,
    queries,
    refs,
  }: {
    dist: string
    posts: ReturnType<typeof readIndexEntries>
    slugPaths: string[]
    queries: string[]
    refs: Record<string, Row>
  },
): Promise<void> {
  console.log(`\nThe service, ${posts.length} articles, ${store} store`)
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const dataDir = join(WORK, `data-${store}`)
  rmSync(dataDir, { recursive: true, force: true })
  const env = {
    ...benchEnv(port, dist, dataDir),
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
    ratio(vsExpress, refs.express, { min: 1.2, text: '≥ 1.2 × bare Express' })
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
  // The same read as a user starts the service: what `npm start` adds to server.ts.
  if (store === 'embedded')
    await startRows({ dist, contentDir: join(WORK, `corpus-${SERVICE_SIZE}`), posts, slugPaths, refs })
}

function dirSize(dir: string): number {
  return readdirSync(dir).reduce((total, f) => total + statSync(join(dir, f)).size, 0)
}
