/**
 * `npm run bench [-- --quick]`: the service and its build measured side by side with reference
 * implementations on the same machine, in the same run: server and load generator pinned to
 * different cores, loopback only, bounded runs, medians of several. Prints one table and writes
 * it as JSON and markdown under bench/results/.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { generateCorpus } from './corpus.ts'
import { prng } from './prng.ts'
import { measurePreview } from './dev-rows.ts'
import { edgeRows } from './edge-rows.ts'
import { benchRender } from './render.ts'
import { buildRowsFor, twentyThousandRow, type BuildRow } from './build-rows.ts'
import { markdownTable, ratio, record, rows } from './table.ts'
import { createPostIndex } from '../post-index/post-index-builder.ts'
import { readIndexEntries } from '../post-index/index-file-loader.ts'
import { benchServiceIndex } from './service-index.ts'
import { freePort } from '../test/support/processes.ts'
import { ensure, missingMessage } from '../test/support/requirements.ts'
import {
  LOAD_CPU,
  NEEDS,
  NODE,
  QUICK,
  REPEATS,
  ROOT,
  SECONDS,
  SERVER_CPU,
  SERVICE_ONLY,
  SERVICE_SIZE,
  SIZES,
  WORK,
  removeRedisKeys,
  timed,
} from './harness.ts'
import { oidcTokenReference, sameBytesReferences } from './reference-rows.ts'
import { serviceRows } from './service-rows.ts'

if (process.argv.includes('--scale')) {
  await import('./scale.ts')
  process.exit(0)
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
    timed(NODE, [join(ROOT, 'bin', 'build.ts')], {
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
    const words = Array.from({ length: n }, () => vocabulary[Math.floor(random() * vocabulary.length)])
    return `/api/v1/search?q=${encodeURIComponent(words.join(' '))}`
  })

  console.log(`\nThe article index in process (${SERVICE_SIZE} articles, before and after, same run)`)
  for (const row of await benchServiceIndex({ workDir: WORK, size: SERVICE_SIZE, node: NODE, repeats: REPEATS })) {
    rows.push(row)
    console.log(`  ${row.figure}: ${row.median.toFixed(2)} ${row.unit} (${row.note ?? ''})`)
  }
  const index = createPostIndex(posts, 'http://localhost:4321')

  const { refs } = await sameBytesReferences(posts, index, slugs, slugPaths)

  for (const store of ['embedded', 'redis'] as const)
    await serviceRows(store, { dist, posts, slugPaths, queries, refs })

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

  const oidcRow = await oidcTokenReference()
  ratio(refs['token-embedded'], oidcRow, { min: 1.5, text: '≥ 1.5 × oidc-provider' })
  ratio(refs['token-redis'], oidcRow, { min: 1.5, text: '≥ 1.5 × oidc-provider' })
}

function report() {
  const header =
    `Benchmark ${QUICK ? '(quick) ' : ''}${new Date().toISOString()}, ` +
    `Node ${process.version}, ${cpus().length} cores ` +
    `(${cpus()[0]?.model ?? ''}), ${SECONDS} s runs × ${REPEATS}, ` +
    `server on core ${SERVER_CPU}, load on core ${LOAD_CPU}.`
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
