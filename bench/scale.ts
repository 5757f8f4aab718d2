/**
 * `npm run bench -- --scale [--sizes 10000,50000]`: the build and the service at scale (minutes
 * per size). Per size: a cold build with its search index (time, peak memory of the whole process
 * tree, shards); one article edited while a server runs, until it is served and until the search
 * index has it; the site search in Chromium (bench/search-rows.ts: first and later queries, with
 * the bytes each downloads); the service's resident memory and start-up time on that build.
 * Hugo is timed at 10,000 when it is installed (the reference: at 50,000 it runs out of memory
 * on 24 GB).
 * BUILD_MEMORY_MB applies to the builds as set.
 */
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { corpusSlugs, editUnderServer, listPagesNote, phase, startServer, until } from './build-process.ts'
import { coldBuild, planLimit, withHugo } from './build-rows.ts'
import { freePort } from '../test/support/processes.ts'
import { SEARCH_QUERIES, searchRows } from './search-rows.ts'

const WORK = join(tmpdir(), 'lattice-bench-scale')
const arg = process.argv.indexOf('--sizes')
const SIZES = arg > 0 ? process.argv[arg + 1]!.split(',').map(Number) : [10_000, 50_000]

const row = (figure: string, unit: string, value: number, note = '') =>
  console.log(
    `| ${figure} | ${Number.isFinite(value) ? value.toFixed(unit === 's' ? 1 : 0) : 'failed'} | ${unit} | ${note} |`,
  )

console.log(
  `Scale run ${new Date().toISOString()}, Node ${process.version}, ` +
    `BUILD_MEMORY_MB=${process.env.BUILD_MEMORY_MB ?? '(default)'}`,
)
console.log('| figure | value | unit | note |\n| --- | --- | --- | --- |')
for (const size of SIZES) {
  const { corpus, env, cold } = await coldBuild(size, WORK)
  if (cold.code !== 0) {
    row(
      `build ${size}: cold, search included`,
      's',
      NaN,
      cold.output.trim().split('\n').slice(-2).join(' ').slice(0, 300),
    )
    continue
  }
  const shards = /\((\d+) of (\d+) shards indexed/.exec(cold.output)?.[2] ?? '?'
  row(
    `build ${size}: cold, search included`,
    's',
    cold.seconds,
    `site live at ${phase(cold.output, 'site live')} s; ${shards} search shards`,
  )
  // The plan the build chose under BUILD_MEMORY_MB, with the peaks its model expected.
  const plan = /^memory plan .*$/m.exec(cold.output)?.[0] ?? ''
  const limit = planLimit(cold.output)
  const held = limit ? `${limit.text}: ${cold.peakMb <= limit.max ? 'met' : 'NOT met'}; ` : ''
  row(
    `build ${size}: peak memory, whole process tree`,
    'MB',
    cold.peakMb,
    `${held}until the site is live: ${cold.sitePeakMb.toFixed(0)} MB; ${cold.breakdown}; ${plan}`,
  )
  // The site search in Chromium on this build: the first query (the index opened), then later ones.
  for (const r of await searchRows(join(env.DIST_DIR!, 'current', 'site'), String(size), SEARCH_QUERIES))
    row(r.figure, 'ms', r.ms, `${(r.bytes / 1024).toFixed(0)} KB downloaded; ${r.note}`)
  if (size === 10_000)
    await withHugo(corpus, join(WORK, 'hugo'), async (hugo) =>
      row(
        `build ${size}: Hugo, same corpus, no search`,
        's',
        hugo.seconds,
        `peak ${hugo.peakMb.toFixed(0)} MB; ×5 for 50,000: ${(hugo.seconds * 5).toFixed(0)} s`,
      ),
    )
  await editAndRestart(size, corpus, env)
}

/** One article edited under a running server: served, then searchable; then the service's memory and a restart. */
async function editAndRestart(size: number, corpus: string, env: NodeJS.ProcessEnv): Promise<void> {
  const port = await freePort()
  const data = join(WORK, `data-${size}`)
  const start = () => startServer(env, port, data)
  const origin = `http://127.0.0.1:${port}`
  let t = performance.now()
  let server = start()
  try {
    await until(async () => (await fetch(`${origin}/readyz`)).ok, 120_000)
    row(`service ${size}: start-up to ready`, 's', (performance.now() - t) / 1000)
    for (const slug of corpusSlugs(corpus).slice(0, 200))
      await fetch(`${origin}/api/v1/posts/${slug}`).then((r) => r.arrayBuffer())
    row(`service ${size}: resident memory after reads`, 'MB', server.rssMb(), 'npm start: npm and the service')
    await server.builderReady()
    row(
      `service ${size}: warm builder, resident memory idle`,
      'MB',
      server.builderMb(),
      "npm start's builder, holding the live build's state for the next build",
    )
    const {
      served,
      searchable,
      build: done,
      listPages,
    } = await editUnderServer(corpus, env, origin, 'sentence', server.pid)
    row(
      `build ${size}: one article edited → served`,
      's',
      served,
      `whole rebuild ${done.seconds.toFixed(1)} s, peak ${done.peakMb.toFixed(0)} MB; site live at ` +
        `${phase(done.output, 'site live')} s in the build's log` +
        listPagesNote(listPages),
    )
    row(
      `build ${size}: one article edited → in the search index`,
      's',
      searchable,
      /\((\d+ of \d+) shards indexed/.exec(done.output)?.[1] ?? '',
    )
    // A title is on the article's cards: the list pages showing them are made again.
    const retitled = await editUnderServer(corpus, env, origin, 'title', server.pid)
    row(
      `build ${size}: one article retitled → served`,
      's',
      retitled.served,
      `site live at ${phase(retitled.build.output, 'site live')} s in the build's log${listPagesNote(retitled.listPages)}`,
    )
    await server.stop()
    t = performance.now()
    server = start()
    await until(async () => (await fetch(`${origin}/readyz`)).ok, 120_000)
    row(`service ${size}: restart on an existing build, to ready`, 's', (performance.now() - t) / 1000)
  } finally {
    await server.stop()
    rmSync(data, { recursive: true, force: true })
  }
}
