/**
 * The article renderer on a corpus folder: milliseconds per article in one thread, for the
 * renderer the build uses and for the remark/rehype stack Astro ran before it (on a sample:
 * it is slow), and articles per second through the worker pool, start-up included. Each article
 * is rendered with what the build gives it: its bibliographies and style (the corpus's citing
 * fifth); the stack of before sees the body alone.
 * `node bench/render.ts <corpus-dir> [threads]` prints the rows.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createMarkdownProcessor } from '@astrojs/markdown-remark'
import remarkMath from 'remark-math'
import rehypeKatex from 'rehype-katex'
import rehypeSanitize from 'rehype-sanitize'
import { articleSanitizeSchema } from '../site/lib/sanitize-schema.ts'
import { createRenderPool, renderMarkdown } from '../scripts/builder/render/index.ts'
import { ArticleInputs, inputsOf } from '../scripts/builder/article-inputs.ts'
import { articleBody } from '../scripts/builder/content.ts'
import type { ReferenceInputs } from '../scripts/builder/references/index.ts'

export interface RenderRow {
  figure: string
  unit: string
  value: number
  target?: string
  met?: boolean
  note?: string
}

/** Per-article target: a cold build of 10,000 articles within 4x Hugo leaves about this much. */
const TARGET_MS = 5
const BEFORE_SAMPLE = 100

interface CorpusArticle {
  body: string
  references: ReferenceInputs
}

/** The corpus's articles, each with the reference inputs the build would read for it. */
function readCorpus(dir: string): CorpusArticle[] {
  const inputs = new ArticleInputs(dir)
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => {
      const source = readFileSync(join(dir, f), 'utf8')
      return { body: articleBody(source), references: inputs.references(f, source, inputsOf(source), []) }
    })
}

/** Wall and CPU milliseconds per article, after a warm-up on other articles. */
async function perArticle(articles: CorpusArticle[], render: (a: CorpusArticle) => Promise<unknown>) {
  for (const a of articles.slice(-10)) await render(a)
  const cpu = process.cpuUsage()
  const start = performance.now()
  for (const a of articles) await render(a)
  const used = process.cpuUsage(cpu)
  return {
    wallMs: (performance.now() - start) / articles.length,
    cpuMs: (used.user + used.system) / 1000 / articles.length,
  }
}

/** The markdown stack of the Astro config before this renderer, as Astro ran it. */
async function renderBefore() {
  const processor = await createMarkdownProcessor({
    remarkPlugins: [remarkMath],
    rehypePlugins: [rehypeKatex, [rehypeSanitize, articleSanitizeSchema]],
    shikiConfig: { themes: { light: 'github-light', dark: 'github-dark' } },
  })
  return (a: CorpusArticle) => processor.render(a.body)
}

export async function benchRender(corpusDir: string, options: { threads?: number } = {}): Promise<RenderRow[]> {
  const bodies = readCorpus(corpusDir)
  const threads = options.threads ?? availableParallelism()
  const kb = bodies.reduce((n, b) => n + b.body.length, 0) / bodies.length / 1024

  const pool = createRenderPool({ threads })
  const poolStart = performance.now()
  await Promise.all(bodies.map((a) => pool.render(a.body, a.references)))
  const poolSeconds = (performance.now() - poolStart) / 1000
  await pool.close()

  const after = await perArticle(bodies, (a) => renderMarkdown(a.body, a.references))
  const before = await perArticle(bodies.slice(0, BEFORE_SAMPLE), await renderBefore())
  const perSecond = bodies.length / poolSeconds
  return [
    {
      figure: 'render: ms per article, one thread',
      unit: 'ms',
      value: after.wallMs,
      target: `≤ ${TARGET_MS} ms`,
      met: after.wallMs <= TARGET_MS,
      note: `${bodies.length} articles of ${kb.toFixed(1)} KB on average; CPU ${after.cpuMs.toFixed(2)} ms`,
    },
    {
      figure: 'render: ms per article, one thread, remark/rehype as before',
      unit: 'ms',
      value: before.wallMs,
      note:
        `${Math.min(BEFORE_SAMPLE, bodies.length)} articles; CPU ${before.cpuMs.toFixed(2)} ` +
        `ms; ${(before.wallMs / after.wallMs).toFixed(1)}x the renderer's time`,
    },
    {
      figure: `render: worker pool, ${threads} threads`,
      unit: 'articles/s',
      value: perSecond,
      note: `start-up included; ${((perSecond * after.wallMs) / 1000).toFixed(2)}x one thread`,
    },
  ]
}

if (import.meta.main) {
  const [dir, threads] = process.argv.slice(2)
  if (!dir) throw new Error('usage: node bench/render.ts <corpus-dir> [threads]')
  for (const row of await benchRender(dir, { threads: threads ? Number(threads) : undefined }))
    console.log(`${row.figure}: ${row.value.toFixed(2)} ${row.unit}${row.note ? ` (${row.note})` : ''}`)
}
