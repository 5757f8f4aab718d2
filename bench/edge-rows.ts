/**
 * The edge rows of `npm run bench`: an anonymous fetch by slug through the deployment's nginx
 * (deploy/nginx, two service replicas behind it) answered from the build's file, the same fetch
 * with a query (which nginx answers from its cache instead), and with the edge turned off, all
 * against nginx serving the same bytes as files from disk. All run in the same run, with the same
 * nginx main configuration, the servers on one core and wrk on the other.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runWrk, type LoadResult } from './load.ts'
import { loadRow, type Row } from './table.ts'
import { includedFiles, renderTemplate } from '../test/support/nginx.ts'
import { freePort, startProcess, type Running } from '../test/support/processes.ts'

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

const STATIC = 'edge reference: nginx, static files of the same bytes'
const FILE = "edge: GET /api/v1/posts/:slug, anonymous, through nginx, from the build's file"
const CACHED = 'edge: GET /api/v1/posts/:slug?q, anonymous, through nginx, from its cache'
const UNCACHED = 'edge: GET /api/v1/posts/:slug, anonymous, through nginx with the edge off'
const TARGET = 0.8

export async function edgeRows(o: EdgeBenchOptions): Promise<Row[]> {
  const work = join(o.workDir, 'edge')
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  const pinned = (args: string[], readyUrl: string, env: NodeJS.ProcessEnv = process.env) =>
    startProcess('taskset', ['-c', String(o.serverCpu), ...args], {
      cwd: ROOT,
      env,
      ready: { url: readyUrl },
      timeoutMs: 60_000,
      logFile: join(work, 'servers.log'),
    })
  const children: Running[] = []
  const rows: Row[] = []
  try {
    const ports = [await freePort(), await freePort()]
    const replicas = ports.map((port) => `127.0.0.1:${port}`)
    for (const port of ports) {
      children.push(
        await pinned([process.execPath, join(ROOT, 'auth-service', 'server.ts')], `http://127.0.0.1:${port}/readyz`, {
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

    // The replica's own bytes, as files.
    const root = join(work, 'static')
    mkdirSync(join(root, 'api', 'v1', 'posts'), { recursive: true })
    for (const path of new Set(o.slugPaths))
      writeFileSync(join(root, path), Buffer.from(await (await fetch(`http://${replicas[0]}${path}`)).arrayBuffer()))

    const measure = async (figure: string, server: (port: number) => string, paths = o.slugPaths) => {
      const port = await freePort()
      const dir = join(work, `nginx-${port}`)
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, 'nginx.conf'), mainConfig(dir, server(port)))
      const origin = `http://127.0.0.1:${port}`
      const nginx = await pinned(
        ['nginx', '-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off; user root;'],
        `${origin}${o.slugPaths[0]}`,
      )
      children.push(nginx)
      // Warm-up, not counted: every URL once (the cache then holds the build's answers, as it
      // does after a crawl), then a second of load.
      await fetchEach(origin, paths)
      runWrk({ origin, lines: paths, workDir: work, seconds: 1, cpu: o.loadCpu })
      const replicaCpu = () => cpuSeconds(children[0]!.child.pid!) + cpuSeconds(children[1]!.child.pid!)
      const before = { nginx: cpuSeconds(nginx.child.pid!), replicas: replicaCpu() }
      const results: LoadResult[] = []
      for (let i = 0; i < o.repeats; i++)
        results.push(runWrk({ origin, lines: paths, workDir: work, seconds: o.seconds, cpu: o.loadCpu }))
      const perRequest = (seconds: number) =>
        ((seconds / results.reduce((n, r) => n + r.rps * o.seconds, 0)) * 1e6).toFixed(0)
      const note =
        `CPU per request: nginx ${perRequest(cpuSeconds(nginx.child.pid!) - before.nginx)} ` +
        `µs, replicas ${perRequest(replicaCpu() - before.replicas)} µs`
      await nginx.stop()
      const row = loadRow(figure, results)
      // On a shared machine the rate follows the share of the server core the servers get; the
      // CPU each request costs does not, so it is noted beside it.
      row.note += `, ${note}`
      console.log(`  ${figure}: ${row.median.toFixed(0)} req/s`)
      rows.push(row)
      return row
    }

    const reference = await measure(
      STATIC,
      (port) => `server { listen 127.0.0.1:${port}; root ${root}; default_type application/json; }`,
    )
    // The build's and the replicas' origin (the links nginx writes itself name it), and its roots.
    const roots = {
      BASE_URL: 'http://localhost:4321',
      SITE_ROOT: join(o.dist, 'current', 'site'),
      EDGE_ROOT: join(o.dist, 'current', 'edge'),
    }
    const deployment = (cache: string) => (port: number) =>
      renderTemplate({
        NGINX_PORT: String(port),
        ...roots,
        APP_1: replicas[0]!,
        APP_2: replicas[1]!,
        // The article locations are rendered with the deployment's roots (the buckets are under EDGE_ROOT).
        ...includedFiles(join(work, `nginx-${port}`), { ...roots, NGINX_API_CACHE: cache }),
        NGINX_API_CACHE_PARAMS: join(ROOT, 'deploy', 'nginx', 'api-cache.conf'),
        NGINX_CACHE_DIR: join(work, `api-cache-${cache}`),
        NGINX_API_CACHE: cache,
        ANONYMOUS_READS_PER_MINUTE: '100000000',
        CREDENTIALED_REQUESTS_PER_MINUTE: '100000000',
        NGINX_ACCESS_LOG: join(work, `nginx-${port}`, 'access.log'),
      })
    const file = await measure(FILE, deployment('lattice_api'))
    // Any query sends the fetch to the cache (keyed by the build, then the full URI).
    const cached = await measure(
      CACHED,
      deployment('lattice_api'),
      o.slugPaths.map((p) => `${p}?q=1`),
    )
    const uncached = await measure(UNCACHED, deployment('off'))
    for (const row of [file, cached, uncached]) {
      row.reference = reference.figure
      row.ratio = row.median / reference.median
    }
    file.target = `≥ ${TARGET} × nginx static`
    file.met = file.ratio! >= TARGET
    return rows
  } finally {
    await Promise.all(children.map((c) => c.stop()))
  }
}

/** Fetches every path once, a few at a time. */
async function fetchEach(origin: string, paths: readonly string[], concurrency = 16): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < paths.length) await (await fetch(`${origin}${paths[next++]!}`)).arrayBuffer()
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

/**
 * The same main configuration for every nginx measured: one worker, logs on, as deployed. The
 * deployment's server block logs with its own buffered access log (NGINX_ACCESS_LOG), in place
 * of this one; the static reference keeps nginx's default, a write per request.
 */
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
