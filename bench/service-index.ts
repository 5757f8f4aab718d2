/**
 * The service's article index at benchmark size, measured without building the site: the
 * entries of a generated corpus are written by the service's own writer, then loaded by the
 * current loader and by the one it replaced (one JSON document parsed whole, MiniSearch), each
 * in a process of its own, in the same run. Rows: load time, resident memory after load and after
 * every detail was read once, and search latency over queries made of common words.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeIndexFile } from '../post-index/index-file-writer.ts'
import { corpusEntries } from './corpus-entries.ts'
import { generateCorpus } from './corpus.ts'
import { prng } from './prng.ts'
import { writeJsonIndex } from './references/json-post-index.ts'
import { stats, type Row } from './table.ts'

interface Probe {
  loadMs: number
  rssAfterLoad: number
  rssAfterDetails: number
  searchP50: number
  searchP99: number
  searchCpuP99: number
}

/** Title words drawn as the service's bench always drew them: Zipf-common words, 1 to 3 per query. */
export function commonWordQueries(titles: readonly string[], count = 5000, seed = 7): string[] {
  const random = prng(seed)
  const vocabulary = titles.flatMap((t) => t.split(' ')).slice(0, 5000)
  return Array.from({ length: count }, () => {
    const n = 1 + Math.floor(random() * 3)
    return Array.from({ length: n }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' ')
  })
}

export async function benchServiceIndex(options: {
  workDir: string
  size: number
  node: string
  repeats: number
}): Promise<Row[]> {
  const { workDir, size, node, repeats } = options
  const corpus = generateCorpus(join(workDir, `corpus-${size}`), size)
  const corpusMb =
    readdirSync(corpus)
      .filter((f) => f.endsWith('.md'))
      .reduce((total, f) => total + statSync(join(corpus, f)).size, 0) /
    1024 /
    1024
  const entries = corpusEntries(corpus)
  const dirs = { current: join(workDir, `index-${size}`), json: join(workDir, `index-${size}-json`) }
  for (const dir of Object.values(dirs)) {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
  }
  await writeIndexFile(dirs.current, entries)
  await writeJsonIndex(dirs.json, entries)
  const workload = join(workDir, `index-${size}-workload.json`)
  writeFileSync(
    workload,
    JSON.stringify({ slugs: entries.map((e) => e.slug), queries: commonWordQueries(entries.map((e) => e.title)) }),
  )

  const probe = (kind: 'current' | 'json'): Probe[] =>
    Array.from({ length: repeats }, () => {
      const out = spawnSync(node, [join(import.meta.dirname, 'service-index-probe.ts'), kind, dirs[kind], workload], {
        encoding: 'utf8',
        maxBuffer: 1 << 24,
      })
      if (out.status !== 0) throw new Error(`index probe (${kind}) failed: ${out.stderr.slice(-2000)}`)
      return JSON.parse(out.stdout.trim().split('\n').pop()!) as Probe
    })
  const runs = { json: probe('json'), current: probe('current') }
  const median = (values: number[]) => stats(values).median
  const row = (figure: string, unit: string, values: number[], extra: Partial<Row> = {}): Row => ({
    figure,
    unit,
    ...stats(values),
    ...extra,
  })
  const n = entries.length
  const before = (field: keyof Probe) => median(runs.json.map((r) => r[field]))
  const values = (field: keyof Probe) => runs.current.map((r) => r[field])
  const rows: Row[] = []

  const load = row(`index load, ${n} articles`, 'ms', values('loadMs'), {
    note: `before (one JSON document): ${before('loadMs').toFixed(0)} ms`,
  })
  load.reference = 'before'
  load.ratio = load.median / before('loadMs')
  rows.push(load)

  const rss = row(`resident memory after load, ${n} articles`, 'MB', values('rssAfterDetails'), {
    reference: `corpus on disk ${corpusMb.toFixed(0)} MB`,
    target: '≤ corpus + 150 MB',
    note:
      `every detail read once; right after load ${median(values('rssAfterLoad')).toFixed(0)} MB; before: ` +
      `${before('rssAfterDetails').toFixed(0)} MB (${before('rssAfterLoad').toFixed(0)} MB right after load)`,
  })
  rss.met = rss.median <= corpusMb + 150
  rows.push(rss)

  const p99 = row(`search p99 in process, ${n} articles`, 'ms', values('searchP99'), {
    target: '≤ 2 ms',
    note:
      `p50 ${median(values('searchP50')).toFixed(3)} ms, CPU-time p99 ${median(values('searchCpuP99')).toFixed(2)} ` +
      `ms; before: p99 ${before('searchP99').toFixed(2)} ms, p50 ${before('searchP50').toFixed(3)} ms`,
  })
  p99.met = p99.median <= 2
  rows.push(p99)
  return rows
}
