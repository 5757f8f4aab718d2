/**
 * The citation stage alone, in one thread as a render worker runs it: every citing article of the
 * bench corpus (a fifth of it, corpus-references.ts) read with its bibliographies, its citations
 * and cross-references prepared (bibliographies parsed, citeproc run) and filled into its parsed
 * tree. Beside it, the whole render of the same articles, so the stage's share is plain. And the
 * build's cost of citations: cold builds of the corpus with and without them (the same articles'
 * text otherwise), alternated in pairs.
 *
 * Standalone: `node bench/citation-rows.ts [articles=2000] [repeats=3]` prints the stage's rows;
 * `node bench/citation-rows.ts --builds [articles=10000] [pairs=2]` the paired builds'.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { markdownToHast } from 'satteri'
import { sanitize } from 'hast-util-sanitize'
import type { Root } from 'hast'
import { generateCorpus } from './corpus.ts'
import { ArticleInputs, inputsOf } from '../scripts/builder/article-inputs.ts'
import { articleBody } from '../scripts/builder/content.ts'
import { finishReferences, prepareReferences, type ReferenceInputs } from '../scripts/builder/references/index.ts'
import { renderMarkdown } from '../scripts/builder/render/index.ts'
import { RENDER_OPTIONS } from '../scripts/builder/render/options.ts'
import type { BuildRow } from './build-rows.ts'
import { npmBuild, phase } from './build-process.ts'

interface Citing {
  body: string
  references: ReferenceInputs
}

/** The citing articles of a corpus of `size`, with what their render reads. */
function citingArticles(size: number): Citing[] {
  const dir = generateCorpus(join(tmpdir(), 'lattice-bench-citations', `corpus-${size}`), size)
  const inputs = new ArticleInputs(dir)
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .flatMap((f) => {
      const source = readFileSync(join(dir, f), 'utf8')
      if (!source.includes('@')) return []
      return [{ body: articleBody(source), references: inputs.references(f, source, inputsOf(source), []) }]
    })
}

const PARSE = { features: { ...RENDER_OPTIONS.features, rawHtml: true }, position: false } as const
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export async function citationRows(size = 2000, repeats = 3): Promise<BuildRow[]> {
  const articles = citingArticles(size)
  const stage: number[] = []
  const whole: number[] = []
  // The first pass loads citation-js and citeproc and parses each bibliography: measured as its own row.
  let first = 0
  for (let r = 0; r <= repeats; r++) {
    let spent = 0
    for (const a of articles) {
      const t0 = performance.now()
      const prepared = await prepareReferences(a.body, a.references)
      const t1 = performance.now()
      if (!prepared) continue
      // Parsed as the renderer parses it, outside the stage's time.
      const tree = sanitize(markdownToHast(prepared.scanned.markdown, PARSE) as Root, RENDER_OPTIONS.sanitize) as Root
      const t2 = performance.now()
      finishReferences(tree, prepared)
      spent += t1 - t0 + (performance.now() - t2)
    }
    if (r === 0) first = spent
    else stage.push(spent)
    const t = performance.now()
    for (const a of articles) await renderMarkdown(a.body, a.references)
    if (r > 0) whole.push(performance.now() - t)
  }
  const per = (ms: number) => ms / articles.length
  return [
    {
      // After the first pass every entry is kept (entries.ts): the first pass is what a cold build sees.
      figure: `citations: stage per citing article, entries kept (${articles.length} of ${size}, one thread)`,
      unit: 'ms',
      values: stage.map(per),
      note: `first pass (libraries loaded, files parsed, entries rendered): ${per(first).toFixed(2)} ms`,
      reference: 'citations: whole render per citing article',
    },
    { figure: 'citations: whole render per citing article', unit: 'ms', values: whole.map(per) },
  ]
}

/**
 * Cold builds (site, twins and post index; no search index, which citations barely touch) of the
 * corpus without references and with them, alternated so the machine's drift falls on both.
 */
export async function pairedBuildRows(size = 10_000, pairs = 2): Promise<BuildRow[]> {
  const work = join(tmpdir(), 'lattice-bench-citations')
  const seconds: Record<'without' | 'with', number[]> = { without: [], with: [] }
  const peaks: Record<'without' | 'with', number[]> = { without: [], with: [] }
  for (let p = 0; p < pairs; p++)
    for (const kind of ['without', 'with'] as const) {
      const corpus = generateCorpus(join(work, `corpus-${size}-${kind}`), size, 42, { references: kind === 'with' })
      const dist = join(work, `dist-${size}`)
      rmSync(dist, { recursive: true, force: true })
      const run = await npmBuild(
        { ...process.env, CONTENT_DIR: corpus, DIST_DIR: dist, BASE_URL: 'http://localhost:4321' },
        ['--no-search'],
      )
      if (run.code !== 0) throw new Error(`build ${kind} references failed: ${run.output.slice(-500)}`)
      seconds[kind].push(phase(run.output, 'site live'))
      peaks[kind].push(run.peakMb)
      console.log(`  ${kind} references: ${seconds[kind].at(-1)!.toFixed(1)} s, peak ${run.peakMb.toFixed(0)} MB`)
      rmSync(dist, { recursive: true, force: true })
    }
  return [
    {
      figure: `build ${size}: cold, a fifth of the articles citing (no search index)`,
      unit: 's',
      values: seconds.with,
      note: `peak ${Math.max(...peaks.with).toFixed(0)} MB`,
      reference: `build ${size}: cold, no article citing (no search index)`,
      target: { max: 1.1, text: '≤ 1.1 × without' },
    },
    {
      figure: `build ${size}: cold, no article citing (no search index)`,
      unit: 's',
      values: seconds.without,
      note: `peak ${Math.max(...peaks.without).toFixed(0)} MB`,
    },
  ]
}

if (import.meta.main) {
  const builds = process.argv.includes('--builds')
  const [size, repeats] = process.argv
    .slice(2)
    .filter((a) => a !== '--builds')
    .map(Number)
  const rows = builds
    ? await pairedBuildRows(size || 10_000, repeats || 2)
    : await citationRows(size || 2000, repeats || 3)
  for (const row of rows) console.log(JSON.stringify({ ...row, median: median(row.values).toFixed(2) }))
}
