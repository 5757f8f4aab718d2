/**
 * The MCP rows of `npm run bench`: a `tools/call` of get_post and of search_posts on /mcp (protocol
 * 2025-11-25), and of fetch and search (2026-07-28, the `_meta` envelope and the standard
 * headers), against the REST read each stands for (GET /api/v1/posts/:slug, GET /api/v1/search),
 * on the same server, in the same run, with the same slugs and queries. Target: MCP at least half
 * the REST rate.
 *
 * Alone: `node bench/mcp-rows.ts [articles]` builds a generated corpus, starts the service and
 * prints these rows.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { generateCorpus } from './corpus.ts'
import { prng } from './prng.ts'
import { runWrk, type LoadResult } from './load.ts'
import { loadRow, markdownTable, ratio, type Row } from './table.ts'
import { readIndexEntries } from '../post-index/index-file-loader.ts'
import { freePort, startProcess } from '../test/support/processes.ts'

const ROOT = join(import.meta.dirname, '..')
const TARGET = { min: 0.5, text: '≥ 0.5 × the REST read' }
const MCP_ACCEPT = 'application/json, text/event-stream'

export interface McpBenchOptions {
  /** A running service (its rate limits far above the load). */
  origin: string
  slugs: readonly string[]
  /** Search queries, as words. */
  queries: readonly string[]
  workDir: string
  seconds: number
  repeats: number
  loadCpu: number
  /**
   * The server's pid: each row then notes the CPU a request cost it (a figure that does not depend on
   * how busy the machine is).
   */
  serverPid?: number
}

/** One JSON-RPC tools/call per line, as wrk sends them; with `meta`, as a 2026-07-28 request. */
function toolCalls(name: string, args: Array<Record<string, unknown>>, meta?: object): string[] {
  return args.map((a, i) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name, arguments: a, ...(meta ? { _meta: meta } : {}) },
    }),
  )
}

/** The 2026-07-28 envelope of every request (MCP 2026-07-28, Basic, `_meta`). */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'lattice-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
}
/** The standard headers of a 2026-07-28 tools/call of `name` (Streamable HTTP, Standard Request Headers). */
const modernHeaders = (name: string) => [
  'MCP-Protocol-Version: 2026-07-28',
  'Mcp-Method: tools/call',
  `Mcp-Name: ${name}`,
]

export async function mcpRows(o: McpBenchOptions): Promise<Row[]> {
  let cpuNote = ''
  const load = (lines: string[], extra: Partial<Parameters<typeof runWrk>[0]> = {}) => {
    const run = (seconds: number) =>
      runWrk({ origin: o.origin, lines, workDir: o.workDir, seconds, cpu: o.loadCpu, ...extra })
    run(1) // warm-up, not counted: both doors prepare an answer on its first read
    const before = o.serverPid === undefined ? 0 : cpuSeconds(o.serverPid)
    const results: LoadResult[] = []
    for (let i = 0; i < o.repeats; i++) results.push(run(o.seconds))
    if (o.serverPid !== undefined) {
      const requests = results.reduce((n, r) => n + r.rps * o.seconds, 0)
      cpuNote = `, CPU per request ${(((cpuSeconds(o.serverPid) - before) / requests) * 1e6).toFixed(0)} µs`
    }
    return results
  }
  const mcp = { method: 'POST' as const, postPath: '/mcp', contentType: 'application/json', accept: MCP_ACCEPT }
  // A probe first: a refused call would measure the refusal. Before it, one turn of the event loop:
  // wrk ran synchronously, so a keep-alive socket the server closed meanwhile is still in fetch's
  // pool until its close is read, and reusing it would fail with "other side closed".
  await new Promise((r) => setTimeout(r, 100))
  for (const [body, headers] of [
    [toolCalls('get_post', [{ slug: o.slugs[0] }])[0]!, []],
    [toolCalls('fetch', [{ id: o.slugs[0] }], ENVELOPE)[0]!, modernHeaders('fetch')],
  ] as const) {
    const probe = await fetch(`${o.origin}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': mcp.contentType,
        Accept: MCP_ACCEPT,
        ...Object.fromEntries(headers.map((h) => h.split(': '))),
      },
      body,
    })
    const answer = (await probe.json()) as { result?: { isError?: boolean } }
    if (probe.status !== 200 || !answer.result || answer.result.isError)
      throw new Error(`/mcp answered ${probe.status}: ${JSON.stringify(answer).slice(0, 300)}`)
  }

  const rows: Row[] = []
  const measure = (figure: string, results: LoadResult[]) => {
    const row = loadRow(figure, results)
    row.note += cpuNote
    console.log(`  ${figure}: ${row.median.toFixed(0)} req/s`)
    rows.push(row)
    return row
  }
  // The article calls are measured between two runs of the REST read they stand for, whose
  // results together are the reference: on a shared machine the rate drifts over a minute, and a
  // reference taken only before would favour whichever row ran nearest it.
  const slugPaths = o.slugs.map((s) => `/api/v1/posts/${s}`)
  const restBefore = load(slugPaths)
  const mcpGet = measure(
    'mcp: tools/call get_post, anonymous',
    load(
      toolCalls(
        'get_post',
        o.slugs.map((slug) => ({ slug })),
      ),
      mcp,
    ),
  )
  const mcpFetch = measure(
    'mcp: tools/call fetch on 2026-07-28, anonymous',
    load(
      toolCalls(
        'fetch',
        o.slugs.map((id) => ({ id })),
        ENVELOPE,
      ),
      { ...mcp, headers: modernHeaders('fetch') },
    ),
  )
  const restGet = measure('mcp reference: GET /api/v1/posts/:slug, anonymous, before and after them', [
    ...restBefore,
    ...load(slugPaths),
  ])
  ratio(mcpGet, restGet, TARGET)
  ratio(mcpFetch, restGet, TARGET)
  const restSearch = measure(
    'mcp reference: GET /api/v1/search, 1-3 words',
    load(o.queries.map((q) => `/api/v1/search?q=${encodeURIComponent(q)}`)),
  )
  const mcpSearch = measure(
    'mcp: tools/call search_posts, 1-3 words',
    load(
      toolCalls(
        'search_posts',
        o.queries.map((q) => ({ q })),
      ),
      mcp,
    ),
  )
  ratio(mcpSearch, restSearch, TARGET)
  const mcpModernSearch = measure(
    'mcp: tools/call search on 2026-07-28, 1-3 words',
    load(
      toolCalls(
        'search',
        o.queries.map((query) => ({ query })),
        ENVELOPE,
      ),
      { ...mcp, headers: modernHeaders('search') },
    ),
  )
  ratio(mcpModernSearch, restSearch, TARGET)
  return rows
}

/** CPU seconds a process has used, from /proc (utime + stime, in clock ticks). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** Random slugs and 1-3 word queries from the titles of a build's articles. */
export function mcpWorkload(distDir: string, count = 5000): { slugs: string[]; queries: string[] } {
  const posts = readIndexEntries(join(distDir, 'current'))
  const random = prng(11)
  const vocabulary = posts.flatMap((p) => p.title.split(' ')).slice(0, 5000)
  return {
    slugs: Array.from({ length: count }, () => posts[Math.floor(random() * posts.length)]!.slug),
    queries: Array.from({ length: count }, () =>
      Array.from(
        { length: 1 + Math.floor(random() * 3) },
        () => vocabulary[Math.floor(random() * vocabulary.length)],
      ).join(' '),
    ),
  }
}

if (import.meta.main) {
  const size = Number(process.argv[2] ?? 1000)
  const work = join(tmpdir(), 'lattice-bench-mcp')
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  const corpus = generateCorpus(join(work, 'corpus'), size)
  const dist = join(work, 'dist')
  const built = spawnSync(process.execPath, [join(ROOT, 'bin', 'build.ts')], {
    cwd: ROOT,
    env: { ...process.env, CONTENT_DIR: corpus, DIST_DIR: dist, BASE_URL: 'http://localhost:4321' },
    encoding: 'utf8',
  })
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr.slice(-2000)}`)
  const [serverCpu, loadCpu] = cpus().length > 1 ? [0, 1] : [0, 0]
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const server = await startProcess(
    'taskset',
    ['-c', String(serverCpu), process.execPath, join(ROOT, 'auth-service', 'server.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        BASE_URL: 'http://localhost:4321',
        DIST_DIR: dist,
        DATA_DIR: join(work, 'data'),
        SIGNING_KEY_SECRET: 'benchmark-secret-of-at-least-32-characters',
        RATE_LIMIT_ANONYMOUS_READS_PER_MINUTE: '100000000',
      },
      ready: { url: `${origin}/readyz` },
      timeoutMs: 60_000,
      logFile: join(work, 'server.log'),
    },
  )
  try {
    // taskset execs the command, so the pid is the server's own.
    const rows = await mcpRows({
      origin,
      ...mcpWorkload(dist),
      workDir: work,
      seconds: 3,
      repeats: 1,
      loadCpu,
      serverPid: server.child.pid,
    })
    console.log(`\n${markdownTable(rows).join('\n')}\n`)
  } finally {
    await server.stop()
    rmSync(work, { recursive: true, force: true })
  }
}
