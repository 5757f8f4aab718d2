/**
 * Each article's rendered pieces (HTML, headings, text, excerpt), from the build cache or
 * rendered and cached; and the renderer's worker pool, started only when it pays.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BuildCache, CacheEntry } from './cache.ts'
import { articleBody, type ArticleMeta } from './content.ts'
import { BuildError, explainLimit, type BuildProblem } from './errors.ts'
import type { HeapLimit } from './heap-limits.ts'
import { forEachLimited } from './limited.ts'
import { RENDERER_VERSION, createRenderPool, renderMarkdown, type RenderedArticle } from './renderer.ts'
import { ArticleInputs } from './article-inputs.ts'
import { type ThreadsEnded, threadMemoryReturned } from './thread-memory.ts'
import { collectGarbage } from './collect-garbage.ts'
import type { VerifiedRead } from './racy-sources.ts'
import { mayHaveReferences } from './references/syntax.ts'
import { citedIdentifiers } from './references/cited-by.ts'
import type { CslItem, ReferenceInputs, ReferenceProblem } from './references/index.ts'

type Render = (markdown: string, references?: ReferenceInputs) => Promise<RenderedArticle>

export interface Renderer {
  /** Changes whenever the output could; part of the cache key. */
  version: string
  /**
   * `threads`: how many render threads at most (the memory plan's); the pool's own choice without
   * it. `heap`: each thread's heap limit (the plan's), none without it.
   */
  createPool(threads?: number, heap?: HeapLimit): { render: Render; close(): Promise<void> }
  /** Renders in this thread: for a handful of articles, cheaper than starting the pool's workers. */
  renderInThread?: Render
}

export const DEFAULT_RENDERER: Renderer = {
  version: RENDERER_VERSION,
  createPool: (threads, heap) => createRenderPool({ threads, heap }),
  renderInThread: renderMarkdown,
}
/** Up to this many articles to render, the build renders them in its own thread. */
export const IN_THREAD_RENDERS = 16
/** Articles in the renderer's queue at once: enough to keep every thread busy. */
const RENDER_AHEAD = 64

/**
 * The renderer's worker pool, started only when many articles need rendering (a cold build):
 * an edit of a few articles renders them in this thread rather than wait for workers to boot.
 */
export class LazyPool {
  private readonly renderer: Renderer
  private pool: ReturnType<Renderer['createPool']> | undefined
  private inThread = 0
  /** This process's resident bytes before its first render thread started. */
  private residentBefore: number | undefined
  /** When the render threads last ended, and this process's resident bytes then. */
  private ended: ThreadsEnded | undefined
  /** Render threads the memory plan allows, and each one's heap (scripts/builder/memory-plan.ts). */
  threads: number | undefined
  heap: HeapLimit | undefined
  constructor(renderer: Renderer) {
    this.renderer = renderer
  }

  /** The memory plan's render threads and each one's heap. */
  limit(threads: number, heap: HeapLimit): void {
    this.threads = threads
    this.heap = heap
  }

  preferWorkers(): void {
    this.inThread = IN_THREAD_RENDERS
  }

  render(markdown: string, references?: ReferenceInputs): Promise<RenderedArticle> {
    if (this.renderer.renderInThread && this.inThread < IN_THREAD_RENDERS) {
      this.inThread++
      return this.renderer.renderInThread(markdown, references)
    }
    if (!this.pool) {
      this.residentBefore ??= process.memoryUsage.rss()
      this.pool = this.renderer.createPool(this.threads, this.heap)
    }
    return this.pool.render(markdown, references)
  }

  /** Ends the workers; a later render starts them again. */
  async close(): Promise<void> {
    const pool = this.pool
    this.pool = undefined
    await pool?.close()
    if (pool && this.residentBefore !== undefined)
      this.ended = { before: this.residentBefore, after: process.memoryUsage.rss(), at: Date.now() }
  }

  /**
   * Ends the workers, then, if any ran, collects this process's garbage and, with `wait`, waits
   * until what the threads held has left it (V8 frees it seconds after they end,
   * thread-memory.ts): before a process the memory plan runs after them (Astro alone, the search
   * shards). Whether any ran.
   */
  async release(wait: boolean): Promise<boolean> {
    await this.close()
    if (!this.ended) return false
    collectGarbage()
    if (wait) await threadMemoryReturned(this.ended)
    return true
  }
}

/** Cache entries, rendering (and caching) an article whose entry is missing. */
export class EntrySource {
  private readonly cache: BuildCache
  private readonly pool: { render: Render }
  private readonly contentDir: string
  /** The bibliographies and styles the articles read, each read once per build. */
  readonly inputs: ArticleInputs

  /** Per slug, the last read of the article's text that found it as hashed (racy-sources.ts). */
  readonly verified = new Map<string, VerifiedRead>()

  /** An article's text, read again: only if it (and what it reads) is still what was hashed. */
  async text(meta: ArticleMeta): Promise<string> {
    const began = Date.now()
    const bytes = await readFile(join(this.contentDir, `${meta.slug}.md`))
    const hash = this.inputs.hash(createHash('sha256').update(bytes).digest('hex'), meta.inputs)
    if (hash !== meta.hash)
      throw new BuildError([
        { file: `${meta.slug}.md`, message: 'the file changed during the build', fix: 'run the build again' },
      ])
    this.verified.set(meta.slug, { began, inputs: meta.inputs })
    return bytes.toString('utf8')
  }

  /** The body readers get: as written, or with its citations and cross-references written out. */
  async body(meta: ArticleMeta): Promise<string> {
    return (await this.readerParts(meta)).body
  }

  /** The body readers get and the works it cites (CSL-JSON, empty when none): what the API gives. */
  async readerParts(meta: ArticleMeta): Promise<{ body: string; references: CslItem[] }> {
    const body = articleBody(await this.text(meta))
    if (!mayHaveReferences(body)) return { body, references: [] }
    const entry = await this.get(meta)
    return { body: entry.markdown ?? body, references: entry.references ?? [] }
  }

  constructor(
    cache: BuildCache,
    pool: { render: Render },
    contentDir: string,
    inputs: ArticleInputs = new ArticleInputs(contentDir),
  ) {
    this.cache = cache
    this.pool = pool
    this.contentDir = contentDir
    this.inputs = inputs
  }

  async get(meta: ArticleMeta): Promise<CacheEntry> {
    return (await this.cache.get(meta.hash)) ?? this.render(meta)
  }

  async render(meta: ArticleMeta): Promise<CacheEntry> {
    const { slug: _slug, hash, ...rest } = meta
    const source = await this.text(meta)
    const problems: BuildProblem[] = []
    const references = this.inputs.references(`${meta.slug}.md`, source, meta.inputs, problems)
    if (problems.length) throw new BuildError(problems)
    const body = articleBody(source)
    let rendered: RenderedArticle
    try {
      // citeproc's renders are kept beside the cache entries, under the same renderer version.
      const inputs = meta.inputs?.length ? { ...references, renders: join(this.cache.dir, 'citations') } : undefined
      rendered = await this.pool.render(body, inputs)
    } catch (e) {
      const found = (e as { problems?: ReferenceProblem[] }).problems
      if (!found) throw e
      // Lines in the article count from its first line, front matter included.
      const offset = source.slice(0, source.length - body.length).split('\n').length - 1
      throw new BuildError(
        found.map(({ first, ...p }) => {
          const at = (line: number) => (p.file ? line : line + offset)
          return {
            ...p,
            file: p.file ?? `${meta.slug}.md`,
            ...(p.line !== undefined ? { line: at(p.line) } : {}),
            ...(first !== undefined ? { message: `${p.message} (first on line ${at(first)})` } : {}),
          }
        }),
      )
    }
    const cites = citedIdentifiers(rendered.references ?? [])
    if (cites.length) meta.cites = rest.cites = cites
    const entry: CacheEntry = { meta: rest, ...rendered, excerpt: excerptOf(rendered.text) }
    await this.cache.put(hash, entry)
    return entry
  }

  /** Renders the articles into the cache; an article the renderer refuses is a problem. */
  renderAll(metas: ArticleMeta[], problems: BuildProblem[]): Promise<void> {
    let limit: string | undefined
    return forEachLimited(metas, RENDER_AHEAD, async (m) => {
      try {
        await this.render(m)
      } catch (e) {
        const explained = explainLimit(e)
        if (e instanceof BuildError) problems.push(...e.problems)
        else if (explained instanceof BuildError) {
          // A limit (a thread's heap) is said once, with the first article it stopped.
          const [problem] = explained.problems
          if (problem && limit !== problem.message) problems.push({ ...problem, file: `${m.slug}.md` })
          limit = problem?.message
        } else
          problems.push({
            file: `${m.slug}.md`,
            message: `could not render the markdown: ${e instanceof Error ? e.message : String(e)}`,
          })
      }
    })
  }
}

function excerptOf(text: string): string {
  return text.length <= 300 ? text : `${text.slice(0, text.lastIndexOf(' ', 300))}…`
}
