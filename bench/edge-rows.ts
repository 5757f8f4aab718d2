/**
 * The edge rows of `npm run bench`: an anonymous fetch by slug through the deployment's nginx
 * (deploy/nginx, two service replicas behind it), with its API cache and without, against nginx
 * serving the same bytes as files from disk. All three run in the same run, with the same nginx
 * main configuration, the servers on one core and wrk on the other.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runWrk, type LoadResult } from './load.ts'
import { renderTemplate } from '../test/support/nginx.ts'
import { freePort } from '../test/support/processes.ts'

const ROOT = join(import.meta.dirname, '..')

export interface EdgeBenchOptions {
  /** DIST_DIR of a build the replicas serve. */
  dist: string
  /** Request paths for wrk, `/api/v1/posts/<slug>`. */
  slugPaths: string[]
  workDir: string
  seconds: number
  repeats: number
  serverCpu: number
  loadCpu: number
}

/** The shape of bench/run.ts's rows. */
export interface EdgeRow {
  figure: string
  unit: string
  median: number
  min: number
  max: number
  reference?: string
  ratio?: number
  target?: string
  met?: boolean
  note?: string
}

const STATIC = 'edge reference: nginx, static files of the same bytes'
const CACHED = 'edge: GET /api/v1/posts/:slug, anonymous, through nginx with its cache'
const UNCACHED = 'edge: GET /api/v1/posts/:slug, anonymous, through nginx without the cache'
const TARGET = 0.8

export async function edgeRows(o: EdgeBenchOptions): Promise<EdgeRow[]> {
  const work = join(o.workDir, 'edge')
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  const log = openSync(join(work, 'servers.log'), 'a')
  const pinned = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
    spawn('taskset', ['-c', String(o.serverCpu), ...args], { cwd: ROOT, env, stdio: ['ignore', log, log] })
  const children: ChildProcess[] = []
  const rows: EdgeRow[] = []
  try {
    const ports = [await freePort(), await freePort()]
    const replicas = ports.map((port) => `127.0.0.1:${port}`)
    for (const port of ports) {
      children.push(
        pinned([process.execPath, join(ROOT, 'auth-service', 'server.ts')], {
          ...process.env,
          PORT: String(port),
          BASE_URL: 'http://localhost:4321',
          DIST_DIR: o.dist,
          DATA_DIR: join(work, `data-${port}`),
          SIGNING_KEY_SECRET: 'benchmark-secret-of-at-least-32-characters',
          TRUST_PROXY: 'loopback',
          RATE_LIMIT_ANONYMOUS_READS_PER_MINUTE: '100000000',
        }),
      )
    }
    for (const r of replicas) await until(async () => (await fetch(`http://${r}/readyz`)).status === 200, 60_000)

    // The replica's own bytes, as files.
    const root = join(work, 'static')
    mkdirSync(join(root, 'api', 'v1', 'posts'), { recursive: true })
    for (const path of new Set(o.slugPaths)) writeFileSync(join(root, path), Buffer.from(await (await fetch(`http://${replicas[0]}${path}`)).arrayBuffer()))

    const measure = async (figure: string, server: (port: number) => string) => {
      const port = await freePort()
      const dir = join(work, `nginx-${port}`)
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, 'nginx.conf'), mainConfig(dir, server(port)))
      const nginx = pinned(['nginx', '-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off; user root;'])
      children.push(nginx)
      const origin = `http://127.0.0.1:${port}`
      await until(async () => (await fetch(`${origin}${o.slugPaths[0]}`)).status === 200, 10_000)
      runWrk({ origin, lines: o.slugPaths, workDir: work, seconds: 1, cpu: o.loadCpu }) // warm-up, not counted
      const replicaCpu = () => cpuSeconds(children[0]!.pid!) + cpuSeconds(children[1]!.pid!)
      const before = { nginx: cpuSeconds(nginx.pid!), replicas: replicaCpu() }
      const results: LoadResult[] = []
      for (let i = 0; i < o.repeats; i++) results.push(runWrk({ origin, lines: o.slugPaths, workDir: work, seconds: o.seconds, cpu: o.loadCpu }))
      const perRequest = (seconds: number) => ((seconds / results.reduce((n, r) => n + r.rps * o.seconds, 0)) * 1e6).toFixed(0)
      const note = `CPU per request: nginx ${perRequest(cpuSeconds(nginx.pid!) - before.nginx)} µs, replicas ${perRequest(replicaCpu() - before.replicas)} µs`
      await stop(nginx)
      const row = toRow(figure, results)
      // On a shared machine the rate follows the share of the server core the servers get; the
      // CPU each request costs does not, so it is noted beside it.
      row.note += `, ${note}`
      console.log(`  ${figure}: ${row.median.toFixed(0)} req/s`)
      rows.push(row)
      return row
    }

    const reference = await measure(STATIC, (port) => `server { listen 127.0.0.1:${port}; root ${root}; default_type application/json; }`)
    const deployment = (cache: string) => (port: number) =>
      renderTemplate({
        NGINX_PORT: String(port),
        SITE_ROOT: join(o.dist, 'current', 'site'),
        APP_1: replicas[0]!,
        APP_2: replicas[1]!,
        NGINX_PROXY_PARAMS: join(ROOT, 'deploy', 'nginx', 'proxy-params.conf'),
        NGINX_SECURITY_HEADERS: join(ROOT, 'deploy', 'nginx', 'security-headers.conf'),
        NGINX_API_CACHE_PARAMS: join(ROOT, 'deploy', 'nginx', 'api-cache.conf'),
        NGINX_CACHE_DIR: join(work, `api-cache-${cache}`),
        NGINX_API_CACHE: cache,
        ANONYMOUS_READS_PER_MINUTE: '100000000',
      })
    const cached = await measure(CACHED, deployment('lattice_api'))
    const uncached = await measure(UNCACHED, deployment('off'))
    for (const row of [cached, uncached]) {
      row.reference = reference.figure
      row.ratio = row.median / reference.median
    }
    cached.target = `≥ ${TARGET} × nginx static`
    cached.met = cached.ratio! >= TARGET
    return rows
  } finally {
    await Promise.all(children.map(stop))
  }
}

/** The same main configuration for every nginx measured: one worker, logs on, as deployed. */
function mainConfig(dir: string, server: string): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log ${dir}/access.log;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${server}
}
`
}

/** CPU seconds used by a process and its children (nginx's workers), from /proc. */
function cpuSeconds(pid: number): number {
  const own = (p: string) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      return (Number(fields[11]) + Number(fields[12])) / 100 // utime + stime, in clock ticks
    } catch {
      return 0 // exited meanwhile
    }
  }
  let children: string[] = []
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)
  } catch {
    // no children listed
  }
  return own(String(pid)) + children.reduce((t, c) => t + own(c), 0)
}

function toRow(figure: string, results: LoadResult[]): EdgeRow {
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b)
  const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!
  const rps = sorted(results.map((r) => r.rps))
  const errors = results.reduce((n, r) => n + r.errors, 0)
  const note = `p50 ${median(results.map((r) => r.p50Ms)).toFixed(2)} ms, p99 ${median(results.map((r) => r.p99Ms)).toFixed(2)} ms${errors ? `, ${errors} errors` : ''}`
  return { figure, unit: 'req/s', median: median(rps), min: rps[0]!, max: rps[rps.length - 1]!, note }
}

async function until(probe: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await probe().catch(() => false)) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('not ready in time')
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await exited
}
