/**
 * `npm run bench -- --scale [--sizes 10000,50000]`: the build and the service at scale (minutes
 * per size). Per size: a cold build with its search index (time, peak memory of the whole process
 * tree, shards); one article edited while a server runs, until it is served and until the search
 * index has it; the service's resident memory and start-up time on that build. Hugo is timed at
 * 10,000 when it is installed (the reference: at 50,000 it runs out of memory on 24 GB).
 * BUILD_MEMORY_MB applies to the builds as set.
 */
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateCorpus } from './corpus.ts'
import { measure, phase, until } from './build-rows.ts'
import { freePort } from '../test/support/processes.ts'

const ROOT = join(import.meta.dirname, '..')
const NODE = process.execPath
const BASE_URL = 'http://localhost:4321'
const WORK = join(tmpdir(), 'lattice-bench-scale')
const arg = process.argv.indexOf('--sizes')
const SIZES = arg > 0 ? process.argv[arg + 1]!.split(',').map(Number) : [10_000, 50_000]

const row = (figure: string, unit: string, value: number, note = '') => console.log(`| ${figure} | ${Number.isFinite(value) ? value.toFixed(unit === 's' ? 1 : 0) : 'failed'} | ${unit} | ${note} |`)

console.log(`Scale run ${new Date().toISOString()}, Node ${process.version}, BUILD_MEMORY_MB=${process.env.BUILD_MEMORY_MB ?? '(default)'}`)
console.log('| figure | value | unit | note |\n| --- | --- | --- | --- |')
for (const size of SIZES) {
  const corpus = generateCorpus(join(WORK, `corpus-${size}`), size)
  const dist = join(WORK, `dist-${size}`)
  rmSync(dist, { recursive: true, force: true })
  const env = { ...process.env, CONTENT_DIR: corpus, DIST_DIR: dist, BASE_URL }
  const cold = await measure(NODE, [join(ROOT, 'scripts', 'build.ts')], env)
  if (cold.code !== 0) {
    row(`build ${size}: cold, search included`, 's', NaN, cold.output.trim().split('\n').slice(-2).join(' ').slice(0, 300))
    continue
  }
  const shards = /\((\d+) of (\d+) shards indexed\)/.exec(cold.output)?.[2] ?? '?'
  row(`build ${size}: cold, search included`, 's', cold.seconds, `site live at ${phase(cold.output, 'site live')} s; ${shards} search shards`)
  row(`build ${size}: peak memory, whole process tree`, 'MB', cold.peakMb, `until the site is live: ${cold.sitePeakMb.toFixed(0)} MB`)
  if (size === 10_000 && spawnSync('sh', ['-c', 'command -v hugo']).status === 0) {
    const site = join(WORK, 'hugo')
    rmSync(site, { recursive: true, force: true })
    cpSync(join(import.meta.dirname, 'hugo'), site, { recursive: true })
    cpSync(corpus, join(site, 'content', 'posts'), { recursive: true })
    const hugo = await measure('hugo', ['--source', site, '--destination', join(site, 'public'), '--quiet'], process.env)
    rmSync(site, { recursive: true, force: true })
    row(`build ${size}: Hugo, same corpus, no search`, 's', hugo.seconds, `peak ${hugo.peakMb.toFixed(0)} MB; ×5 for 50,000: ${(hugo.seconds * 5).toFixed(0)} s`)
  }
  await editAndRestart(size, corpus, env)
}

/** One article edited under a running server: served, then searchable; then the service's memory and a restart. */
async function editAndRestart(size: number, corpus: string, env: NodeJS.ProcessEnv): Promise<void> {
  const port = await freePort()
  const data = join(WORK, `data-${size}`)
  const start = () => {
    const child = spawn(NODE, [join(ROOT, 'auth-service', 'server.ts')], {
      cwd: ROOT,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: data, LOG_LEVEL: 'warn', RATE_LIMITS: 'off' },
      stdio: 'ignore',
    })
    return child
  }
  const origin = `http://127.0.0.1:${port}`
  let t = performance.now()
  let server = start()
  try {
    await until(async () => (await fetch(`${origin}/readyz`)).ok, 120_000)
    row(`service ${size}: start-up to ready`, 's', (performance.now() - t) / 1000)
    const slug = readdirSync(corpus).filter((f) => f.endsWith('.md')).sort()[Math.floor(size / 2)]!.replace(/\.md$/, '')
    for (let i = 0; i < 200; i++) await fetch(`${origin}/api/v1/posts/${readdirSync(corpus)[i]!.replace(/\.md$/, '')}`).then((r) => r.arrayBuffer())
    row(`service ${size}: resident memory after reads`, 'MB', rssMb(server.pid!))
    const file = join(corpus, `${slug}.md`)
    const marker = `edited${Date.now()}`
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n\n([A-Za-z])/, `\n\n${marker} $1`))
    t = performance.now()
    let searchable = NaN
    const build = measure(NODE, [join(ROOT, 'scripts', 'build.ts')], env, (line) => {
      if (line.startsWith('search index live')) searchable = (performance.now() - t) / 1000
    })
    await until(async () => (await (await fetch(`${origin}/posts/${slug}`)).text()).includes(marker), 900_000, 50)
    const served = (performance.now() - t) / 1000
    const done = await build
    row(`build ${size}: one article edited → served`, 's', served, `whole rebuild ${done.seconds.toFixed(1)} s, peak ${done.peakMb.toFixed(0)} MB`)
    row(`build ${size}: one article edited → in the search index`, 's', searchable, /\((\d+ of \d+) shards indexed\)/.exec(done.output)?.[1] ?? '')
    server.kill('SIGTERM')
    await new Promise((r) => server.once('exit', r))
    t = performance.now()
    server = start()
    await until(async () => (await fetch(`${origin}/readyz`)).ok, 120_000)
    row(`service ${size}: restart on an existing build, to ready`, 's', (performance.now() - t) / 1000)
  } finally {
    server.kill('SIGTERM')
    await new Promise((r) => server.once('exit', r))
    rmSync(data, { recursive: true, force: true })
  }
}

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024
}
