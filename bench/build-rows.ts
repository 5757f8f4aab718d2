/**
 * The build's rows of `npm run bench`: a cold build (no caches of any kind) against Hugo on the
 * same corpus, Pagefind on our records against Pagefind on Hugo's plain pages, the peak memory
 * of the whole build (every process of `npm run build`'s session, npm included, summed), the time
 * from `npm run build` to a running server serving a one-article edit, and a 20,000-article build.
 * Every build runs through npm, as a user runs it (build-process.ts).
 *
 * Standalone: `node bench/build-rows.ts [--sizes 1000,10000] [--twenty]` prints the rows.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateCorpus } from './corpus.ts'
import { freePort } from '../test/support/processes.ts'
import {
  editUnderServer,
  listPagesNote,
  measure,
  npmBuild,
  phase,
  startServer,
  until,
  type Measured,
} from './build-process.ts'

const NODE = process.execPath
const BASE_URL = 'http://localhost:4321'

export interface BuildRow {
  figure: string
  unit: string
  values: number[]
  note?: string
  /** Figure of the reference row, the ratio's denominator. */
  reference?: string
  target?: { max: number; text: string }
  /** An absolute target, in the row's unit. */
  limit?: { max: number; text: string }
}

/**
 * The bench's corpus of `size` articles built cold (no caches of any kind: a fresh DIST_DIR holds the
 * build cache and Astro's), measured.
 */
export async function coldBuild(
  size: number,
  work: string,
): Promise<{ corpus: string; env: NodeJS.ProcessEnv; cold: Measured }> {
  const corpus = generateCorpus(join(work, `corpus-${size}`), size)
  const dist = join(work, `dist-${size}`)
  rmSync(dist, { recursive: true, force: true })
  const env = { ...process.env, CONTENT_DIR: corpus, DIST_DIR: dist, BASE_URL }
  return { corpus, env, cold: await npmBuild(env) }
}

/**
 * What the build's peak is held to: the larger of the two peaks its memory plan expects (the
 * plan's line in its output), which is within BUILD_MEMORY_MB when set, and otherwise within
 * what the machine has (scripts/builder/memory-plan.ts).
 */
export function planLimit(output: string): BuildRow['limit'] {
  const line = /^memory plan for \d+ articles under (\d+) MB: .*$/m.exec(output)
  if (!line) return undefined
  const expected = Math.max(...[...line[0].matchAll(/about (\d+) MB/g)].map((m) => Number(m[1])))
  return { max: expected, text: `≤ its plan, ${expected} MB (cap ${line[1]} MB)` }
}

/** Cold build, Hugo, Pagefind and the edit-to-served time for one corpus size. */
export async function buildRowsFor(size: number, work: string): Promise<BuildRow[]> {
  const rows: BuildRow[] = []
  const { corpus, env, cold } = await coldBuild(size, work)
  if (cold.code !== 0) {
    rows.push({
      figure: `build ${size}: cold, no caches`,
      unit: 's',
      values: [NaN],
      note: `failed: ${cold.output.trim().split('\n').slice(-3).join(' ').slice(0, 300)}`,
    })
    return rows
  }
  // The search stage: from its start to its index written (a cold build lands once, after it).
  const searchLag = phase(cold.output, 'search index written') - phase(cold.output, 'search index started')
  const site = cold.seconds - searchLag
  rows.push({
    figure: `build ${size}: site, twins and post index (cold, no caches)`,
    unit: 's',
    values: [site],
    reference: `build ${size}: Hugo, same corpus`,
    target: { max: 4, text: '≤ 4 × Hugo' },
  })
  rows.push({
    figure: `build ${size}: Pagefind on our records`,
    unit: 's',
    values: [searchLag],
    reference: `build ${size}: Pagefind on Hugo's plain pages`,
    target: { max: 1, text: '≤ 1.0 × plain pages' },
  })
  rows.push({
    figure: `build ${size}: peak memory, every process summed`,
    unit: 'MB',
    values: [cold.peakMb],
    note: cold.breakdown,
    limit: planLimit(cold.output),
  })
  rows.push({
    figure: `build ${size}: peak memory until the site is live (before Pagefind)`,
    unit: 'MB',
    values: [cold.sitePeakMb],
  })
  rows.push({ figure: `build ${size}: whole cold build, search index included`, unit: 's', values: [cold.seconds] })

  await withHugo(corpus, join(work, `hugo-${size}`), async (hugo, site) => {
    rows.push({
      figure: `build ${size}: Hugo, same corpus`,
      unit: 's',
      values: [hugo.seconds],
      note: `peak ${hugo.peakMb.toFixed(0)} MB`,
    })
    const pf = await measure(NODE, [join(import.meta.dirname, 'pagefind-plain.ts'), join(site, 'public')], process.env)
    rows.push({
      figure: `build ${size}: Pagefind on Hugo's plain pages`,
      unit: 's',
      values: [pf.seconds],
      note: `peak ${pf.peakMb.toFixed(0)} MB`,
    })
  })

  rows.push(...(await editToServed(size, corpus, env)))
  return rows
}

/**
 * Builds `corpus` with Hugo (Debian's, `bench/hugo/`) in `site`, measured, and hands the result to
 * `use` before removing the site; does nothing when Hugo is not installed.
 */
export async function withHugo(
  corpus: string,
  site: string,
  use: (hugo: Measured, site: string) => Promise<void>,
): Promise<void> {
  if (spawnSync('sh', ['-c', 'command -v hugo']).status !== 0) return
  rmSync(site, { recursive: true, force: true })
  cpSync(join(import.meta.dirname, 'hugo'), site, { recursive: true })
  cpSync(corpus, join(site, 'content', 'posts'), { recursive: true })
  try {
    await use(
      await measure('hugo', ['--source', site, '--destination', join(site, 'public'), '--quiet'], process.env),
      site,
    )
  } finally {
    rmSync(site, { recursive: true, force: true })
  }
}

/** Edits one article while a server runs, then times `npm run build` until the server serves the edit. */
async function editToServed(size: number, corpus: string, env: NodeJS.ProcessEnv): Promise<BuildRow[]> {
  const port = await freePort()
  const data = join(tmpdir(), `lattice-bench-data-${process.pid}`)
  const server = startServer(env, port, data)
  const origin = `http://127.0.0.1:${port}`
  try {
    await until(async () => (await fetch(`${origin}/readyz`)).ok, 60_000)
    await server.builderReady()
    const {
      served: servedAt,
      searchable: searchAt,
      listPages,
    } = await editUnderServer(corpus, env, origin, 'sentence', server.pid)
    return [
      {
        figure: `build ${size}: one article edited → served by a running server`,
        unit: 's',
        values: [servedAt],
        note:
          `in the search index at ${searchAt.toFixed(1)} s (the pages land first, then the index)` +
          listPagesNote(listPages),
        limit: { max: size >= 10_000 ? 10 : 3, text: size >= 10_000 ? '≤ 10 s' : '≤ 3 s' },
      },
    ]
  } finally {
    await server.stop()
    rmSync(data, { recursive: true, force: true })
  }
}

/** A 20,000-article build succeeds (cold, search index included). */
export async function twentyThousandRow(work: string): Promise<BuildRow> {
  const corpus = generateCorpus(join(work, 'corpus-20000'), 20_000)
  const dist = join(work, 'dist-20000')
  rmSync(dist, { recursive: true, force: true })
  // Without the site search index: Pagefind alone holds about 1 GB per 1,000 articles while it
  // indexes (its own process, measured at 10,000), more than this machine class can give at 20,000.
  const run = await npmBuild({ ...process.env, CONTENT_DIR: corpus, DIST_DIR: dist, BASE_URL }, ['--no-search'])
  const built = existsSync(join(dist, 'current', 'build.json'))
    ? JSON.parse(readFileSync(join(dist, 'current', 'build.json'), 'utf8')).articles
    : 0
  rmSync(dist, { recursive: true, force: true })
  return {
    figure: 'build 20000 articles succeeds (site, twins, post index; no search index)',
    unit: 's',
    values: [run.code === 0 ? run.seconds : NaN],
    note:
      run.code === 0
        ? `${built} articles, peak ${run.peakMb.toFixed(0)} MB`
        : `failed: ${run.output.trim().split('\n').slice(-3).join(' ').slice(0, 300)}`,
  }
}

if (import.meta.main) {
  const arg = process.argv.indexOf('--sizes')
  const sizes = arg > 0 ? process.argv[arg + 1]!.split(',').map(Number) : [1000]
  const work = join(tmpdir(), 'lattice-bench-build')
  for (const size of sizes) for (const row of await buildRowsFor(size, work)) console.log(JSON.stringify(row))
  if (process.argv.includes('--twenty')) console.log(JSON.stringify(await twentyThousandRow(work)))
}
