/**
 * The keyword index against MiniSearch as it is (references/minisearch-keyword-index.ts, run in
 * the same service through references/minisearch-service.ts), paired: the two services are
 * started in turn, A B A B ..., on one generated corpus's index, and each round measures start-up
 * to ready, resident memory once ready and after the load, GET /api/v1/search and the MCP
 * tools/call search_posts each with its own bench queries (1 to 3 common title words); then,
 * in a process of its own (service-index-probe.ts), the index's load time, its resident memory
 * and the search latency in process. The ratio is taken round by round, so that a drift of the
 * machine's speed moves both sides.
 *
 * Usage: node bench/search-engine-pair.ts [articles = 10000] [rounds = 3] [seconds = 5]
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { configKey } from '../model/build-dir.ts'
import { writeIndexFile } from '../post-index/index-file-writer.ts'
import { compareEntries } from '../post-index/post-index.ts'
import { freePort } from '../test/support/processes.ts'
import { corpusEntries } from './corpus-entries.ts'
import { generateCorpus } from './corpus.ts'
import { LOAD_CPU, NODE, ROOT, pinned } from './harness.ts'
import { runWrk } from './load.ts'
import { commonWordQueries } from './service-index.ts'

const [size = 10_000, rounds = 3, seconds = 5] = process.argv.slice(2).map(Number)
const work = join(tmpdir(), 'lattice-bench-search-pair')
const BASE_URL = 'http://localhost:4321'
const content = join(work, `corpus-${size}`)
const dist = join(work, `dist-${size}`)

rmSync(dist, { recursive: true, force: true })
generateCorpus(content, size)
const entries = corpusEntries(content)
const build = join(dist, 'sites', configKey(BASE_URL, content))
mkdirSync(build, { recursive: true })
await writeIndexFile(build, entries)
writeFileSync(join(build, 'build.json'), JSON.stringify({ baseUrl: BASE_URL, builtAt: new Date().toISOString() }))
const titles = [...entries].sort(compareEntries).map((e) => e.title)
const queries = commonWordQueries(titles)
// Other queries for MCP: the REST run's answers, kept per query, would otherwise answer them.
const mcpQueries = commonWordQueries(titles, 5000, 11)
const workload = join(work, `workload-${size}.json`)
writeFileSync(workload, JSON.stringify({ slugs: entries.map((e) => e.slug), queries }))
const rest = queries.map((q) => `/api/v1/search?q=${encodeURIComponent(q)}`)
const mcp = mcpQueries.map((q, i) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: i + 1,
    method: 'tools/call',
    params: { name: 'search_posts', arguments: { q } },
  }),
)
const mcpLoad = {
  method: 'POST' as const,
  postPath: '/mcp',
  contentType: 'application/json',
  accept: 'application/json, text/event-stream',
}

const sides = {
  keyword: join(ROOT, 'auth-service', 'server.ts'),
  minisearch: join(ROOT, 'bench', 'references', 'minisearch-service.ts'),
}
const HOOK = join(ROOT, 'bench', 'references', 'minisearch-hook.ts')
const probeFlags = { keyword: [], minisearch: ['--import', HOOK] }
interface Probe {
  loadMs: number
  rssAfterLoad: number
  searchP50: number
  searchP99: number
}
type Figures = Probe & {
  startupS: number
  rssMb: number
  rssAfterMb: number
  restRps: number
  mcpRps: number
  errors: number
}
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024

function probe(side: keyof typeof sides): Probe {
  const script = join(ROOT, 'bench', 'service-index-probe.ts')
  const out = spawnSync(NODE, [...probeFlags[side], script, 'current', build, workload], { encoding: 'utf8' })
  if (out.status !== 0) throw new Error(`index probe (${side}) failed: ${out.stderr.slice(-2000)}`)
  return JSON.parse(out.stdout.trim().split('\n').pop()!) as Probe
}
const figures: Record<keyof typeof sides, Figures[]> = { keyword: [], minisearch: [] }

async function measure(side: keyof typeof sides): Promise<Figures> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const dataDir = join(work, `data-${side}`)
  rmSync(dataDir, { recursive: true, force: true })
  const env = {
    ...process.env,
    PORT: String(port),
    BASE_URL,
    DIST_DIR: dist,
    CONTENT_DIR: content,
    DATA_DIR: dataDir,
    SIGNING_KEY_SECRET: 'benchmark-secret-of-at-least-32-characters',
    RATE_LIMIT_ANONYMOUS_READS_PER_MINUTE: '100000000',
    RATE_LIMIT_IDENTIFIED_READS_PER_MINUTE: '100000000',
  }
  const started = performance.now()
  const server = await pinned([NODE, sides[side]], `${origin}/readyz`, env, 120_000)
  const startupS = (performance.now() - started) / 1000
  try {
    const rssMb = rssOf(server.child.pid!)
    const run = (lines: string[], extra = {}) =>
      runWrk({ origin, lines, workDir: work, seconds, cpu: LOAD_CPU, ...extra })
    run(rest.slice(0, 500)) // warm-up, not counted
    const r = run(rest)
    const m = run(mcp, mcpLoad)
    const rssAfterMb = rssOf(server.child.pid!)
    await server.stop()
    return { startupS, rssMb, rssAfterMb, restRps: r.rps, mcpRps: m.rps, errors: r.errors + m.errors, ...probe(side) }
  } finally {
    await server.stop()
  }
}

for (let round = 0; round < rounds; round++)
  for (const side of Object.keys(sides) as Array<keyof typeof sides>) {
    const f = await measure(side)
    figures[side].push(f)
    console.log(`round ${round + 1}, ${side}: ${JSON.stringify(f)}`)
  }

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length / 2
  return Number.isInteger(mid) ? (sorted[mid - 1]! + sorted[mid]!) / 2 : sorted[Math.floor(mid)]!
}
console.log(`\n${size} articles, ${rounds} rounds of ${seconds} s, medians (keyword index / MiniSearch, paired ratio):`)
for (const key of [
  'restRps',
  'mcpRps',
  'startupS',
  'rssMb',
  'rssAfterMb',
  'loadMs',
  'rssAfterLoad',
  'searchP50',
  'searchP99',
] as const) {
  const a = figures.keyword.map((f) => f[key])
  const b = figures.minisearch.map((f) => f[key])
  const ratio = median(a.map((v, i) => v / b[i]!))
  console.log(`  ${key}: ${median(a).toFixed(3)} / ${median(b).toFixed(3)}, ratio ${ratio.toFixed(3)}`)
}
rmSync(dist, { recursive: true, force: true })
rmSync(workload, { force: true })
for (const side of Object.keys(sides)) rmSync(join(work, `data-${side}`), { recursive: true, force: true })
