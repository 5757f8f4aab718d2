/**
 * `npm run build`: validates and renders the articles (reusing the build cache), builds the
 * site's other pages with Astro, assembles the article pages from one template, writes the
 * markdown twins and the post index, and lands the result by swapping a link, so that a running
 * server never sees half a build. Then the site search index follows in a second swap.
 *
 * When only article bodies changed, the new article pages land first, with the list pages of the
 * live build; Astro then rebuilds the list pages (only if what they show changed).
 * CONTENT_DIR, BASE_URL and DIST_DIR choose what is built and where (scripts/build/dist.ts).
 */
import { spawn } from 'node:child_process'
import { createHash, hash } from 'node:crypto'
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { IndexEntry } from '../model/article.ts'
import { buildOpenApiDocument } from '../auth-service/openapi/document.ts'
import { ROOT, buildEnv, buildSourcesFingerprint, computeInputs, siteSourcesFingerprint, type BuildInfo } from './build-state.ts'
import { articlePage, markdownTwin, parseTemplate } from './build/article-page.ts'
import { articleCitation } from './build/citation/index.ts'
import { openCache, type BuildCache, type CacheEntry } from './build/cache.ts'
import { articleBody, listArticleFiles, parseArticle, readSources, type ArticleMeta } from './build/content.ts'
import { acquireLock, configKey, linkTree, liveBuildDir, newBuildDir, pruneBuilds, swapLive } from './build/dist.ts'
import { AUTHORIZE_TEMPLATE } from '../model/build-dir.ts'
import { BuildError, explainLimit, type BuildProblem } from './build/errors.ts'
import { writeIndexFile } from '../auth-service/articles/index-file.ts'
import { compareEntries } from '../auth-service/articles/post-index.ts'
import { RENDERER_VERSION, createRenderPool, renderMarkdown, type RenderedArticle } from './build/renderer.ts'
import { planShards, searchUpToDate, writeSearchShards, type SearchState } from './build/search-shards.ts'
import { memoryCap, planMemory } from './build/memory-plan.ts'
import { coverHtml, navHtml, tocHtml } from './build/reading-parts.ts'
import { relatedArticles } from './build/related.ts'
import { LLMS_FULL, reuseLlmsFull, writeLlmsFull } from './build/llms-full.ts'
import { forEachLimited, mapAhead } from './build/limited.ts'
import { writeEdgeFiles } from './build/edge-files.ts'
import { EDGE_DIR } from '../auth-service/articles/edge-files.ts'

export { BuildError } from './build/errors.ts'

export interface Renderer {
  /** Changes whenever the output could; part of the cache key. */
  version: string
  createPool(): { render(markdown: string): Promise<RenderedArticle>; close(): Promise<void> }
  /** Renders in this thread: for a handful of articles, cheaper than starting the pool's workers. */
  renderInThread?(markdown: string): Promise<RenderedArticle>
}

export interface BuildOptions {
  /** false: skip the site search index (the live preview); the previous one, if any, stays. */
  search?: boolean
  /** Progress lines, e.g. console.log. */
  log?: (line: string) => void
  /** The markdown renderer; scripts/build/renderer.ts unless a test swaps in another configuration. */
  renderer?: Renderer
  /** Articles per search shard, instead of what the memory plan chooses (tests). */
  shardArticles?: number
}

const DEFAULT_RENDERER: Renderer = { version: RENDERER_VERSION, createPool: () => createRenderPool(), renderInThread: renderMarkdown }
/** Up to this many articles to render, the build renders them in its own thread. */
const IN_THREAD_RENDERS = 16
const PAGEFIND_VERSION = (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'pagefind', 'package.json'), 'utf8')) as { version: string }).version
/** Bump when the layout of a build folder or of state.json changes: the next build starts cold. */
const STATE_VERSION = 3
/** Bump when what a search record holds changes: every shard is indexed again. */
const SEARCH_RECORD_VERSION = 1
/** Files written at once. */
const WRITE_CONCURRENCY = 32
/** Articles read ahead of a file written from all of them in order (the post index, llms-full.txt). */
const READ_AHEAD = 32
/** Articles in the renderer's queue at once: enough to keep every thread busy. */
const RENDER_AHEAD = 64

/** What a build folder was made from, so that the next build can reuse its files. */
interface BuildState {
  version: number
  /** Site sources and BASE_URL: the article template's inputs. */
  templateKey: string
  /** The renderer and the build code that made the article pages: pages are reused only under the same. */
  assemblyKey: string
  /** Everything Astro read: its output is reused when this is unchanged. */
  astroKey: string
  /** The shards of the search index in site/pagefind, or null when there is none. */
  search: SearchState | null
  /** Every valid article, drafts included. */
  articles: ArticleMeta[]
  /** Per article page, a hash of its links to other articles: the page is reused only if they are the same. */
  navKeys?: Record<string, string>
}

interface Previous {
  dir: string
  state: BuildState
  template: string
  bySlug: Map<string, ArticleMeta>
}

const sha = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex')

export async function build(env: NodeJS.ProcessEnv = process.env, options: BuildOptions = {}): Promise<BuildInfo> {
  const { contentDir, baseUrl, distDir } = buildEnv(env)
  const log = options.log ?? (() => {})
  const renderer = options.renderer ?? DEFAULT_RENDERER
  if (!existsSync(contentDir))
    throw new BuildError([{ file: contentDir, message: 'CONTENT_DIR does not exist', fix: 'create the folder, or set CONTENT_DIR to the folder of your articles' }])
  const key = configKey(baseUrl, contentDir)
  const release = await acquireLock(distDir, key)
  const pool = new LazyPool(renderer)
  const started = Date.now()
  // Folders this build started and has not landed: removed if it fails.
  const unlanded = new Set<string>()
  const startBuildDir = () => {
    const made = newBuildDir(distDir)
    unlanded.add(made.dir)
    return made
  }
  const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`
  try {
    const inputs = computeInputs(contentDir, baseUrl)
    const problems: BuildProblem[] = []
    // Refused here, before anything is written, when no plan fits the cap.
    const files = listArticleFiles(contentDir)
    const memory = planMemory(memoryCap(env), files.length, { shardArticles: options.shardArticles })
    let prev = readPrevious(distDir, key)
    const cache = openCache(join(distDir, 'cache', 'articles'), renderer.version)
    const entries = new EntrySource(cache, pool, contentDir)

    // Metadata: from the live build when the file is unchanged, else from the cache, else parsed.
    const metas: ArticleMeta[] = []
    const fresh: ArticleMeta[] = []
    const sources = await readSources(contentDir, files, problems, async (f) => {
      const known = prev?.bySlug.get(f.slug)
      if (known && known.hash === f.hash) return void metas.push(known)
      const cached = await cache.get(f.hash)
      if (cached) return void metas.push({ slug: f.slug, hash: f.hash, ...cached.meta })
      const meta = parseArticle(f, problems)
      if (meta) {
        metas.push(meta)
        fresh.push(meta)
      }
    })
    log(`read ${sources.length} files after ${since()}`)
    if (problems.length) throw new BuildError(sortProblems(problems))
    log(`validated, ${fresh.length} to render, after ${since()}`)
    metas.sort((a, b) => (a.slug < b.slug ? -1 : 1))
    // New and edited articles render while Astro builds the other pages.
    if (fresh.length > IN_THREAD_RENDERS) pool.preferWorkers()
    const rendering = entries.renderAll(fresh, problems)

    const published = metas.filter((m) => !m.draft).sort(newestFirst)
    const manifest = JSON.stringify(published.map(manifestRecord))
    const openapi = JSON.stringify(buildOpenApiDocument(baseUrl))
    const templateKey = sha(`${STATE_VERSION}`, siteSourcesFingerprint(), baseUrl)
    const astroKey = sha(templateKey, manifest, openapi)
    const assemblyKey = sha(renderer.version, buildSourcesFingerprint())
    // The post index is written once per build; later swaps of the same build link it, so the
    // service (which reloads when the file changes) loads it once.
    let indexWrittenIn: string | undefined
    // Each article's related articles (indexes into `published`), computed once for both assemblies.
    let related: number[][] | undefined
    const land = async (dir: string, id: string, state: BuildState) => {
      log(`pages written after ${since()}`)
      if (indexWrittenIn) {
        linkTopFiles(indexWrittenIn, dir)
        linkTree(join(indexWrittenIn, EDGE_DIR), join(dir, EDGE_DIR))
      } else {
        await writeIndexFile(dir, indexEntries(published, entries))
        // The article answers the edge serves as files, beside the index they are the answers of.
        const reusable = prev?.state.assemblyKey === assemblyKey ? prev : undefined
        const articles = published.map((m) => ({
          slug: m.slug,
          unchanged: reusable?.bySlug.get(m.slug)?.hash === m.hash,
          entry: async () => indexEntry(m, await entries.text(m)),
        }))
        await writeEdgeFiles(dir, articles, baseUrl, prev?.dir, WRITE_CONCURRENCY)
      }
      indexWrittenIn = dir
      writeFileSync(join(dir, 'state.json'), JSON.stringify(state))
      const info: BuildInfo = { ...inputs, configKey: key, id, builtAt: new Date().toISOString(), articles: published.length }
      writeFileSync(join(dir, 'build.json'), JSON.stringify(info, null, 2))
      swapLive(distDir, key, id)
      unlanded.delete(dir)
      prev = { dir, state, template: readFileSync(join(dir, 'template.html'), 'utf8'), bySlug: new Map(state.articles.map((a) => [a.slug, a])) }
      return info
    }
    const assemble = async (dir: string, template: string) => {
      await rendering
      if (problems.length) throw new BuildError(sortProblems(problems))
      const reusable = prev?.state.assemblyKey === assemblyKey ? prev : undefined
      related ??= relatedArticles(published)
      return writeArticles(join(dir, 'site'), template, published, related, reusable, entries, baseUrl)
    }

    let info: BuildInfo | undefined
    // 1. Only the articles changed what Astro shows, with the same template: land them first.
    if (prev && prev.state.templateKey === templateKey && prev.state.astroKey !== astroKey) {
      const { id, dir } = startBuildDir()
      linkTree(join(prev.dir, 'site'), join(dir, 'site'), new Set(['posts']))
      linkTemplates(prev.dir, dir)
      const navKeys = await assemble(dir, prev.template)
      info = await land(dir, id, { ...prev.state, assemblyKey, articles: metas, navKeys })
      log(`article pages live after ${since()}`)
    }

    // 2. The site: Astro's pages (reused when nothing Astro reads changed) and the article pages.
    {
      const { id, dir } = startBuildDir()
      const siteDir = join(dir, 'site')
      let search = prev?.state.search ?? null
      if (prev && prev.state.astroKey === astroKey) {
        linkTree(join(prev.dir, 'site'), siteDir, new Set(['posts']))
        linkTemplates(prev.dir, dir)
      } else {
        writeFileSync(join(dir, 'manifest.json'), manifest)
        writeFileSync(join(dir, 'openapi.json'), openapi)
        await runAstro(env, { baseUrl, contentDir, siteDir, manifest: join(dir, 'manifest.json'), openapi: join(dir, 'openapi.json'), cacheDir: join(distDir, 'cache', 'astro', key) })
        renameSync(join(siteDir, 'article-template.html'), join(dir, 'template.html'))
        renameSync(join(siteDir, 'authorize-template.html'), join(dir, AUTHORIZE_TEMPLATE))
        if (prev && existsSync(join(prev.dir, 'site', 'pagefind'))) linkTree(join(prev.dir, 'site', 'pagefind'), join(siteDir, 'pagefind'))
        else search = null
        log(`site pages built after ${since()}`)
      }
      const navKeys = await assemble(dir, readFileSync(join(dir, 'template.html'), 'utf8'))
      info = await land(dir, id, { version: STATE_VERSION, templateKey, assemblyKey, astroKey, search, articles: metas, navKeys })
      log(`site live after ${since()}`)
    }

    // 3. The search index, in its own swap: only the shards whose articles changed are indexed.
    // The shard processes read the cache only: the render workers and the articles' text are let
    // go first, to bound the peak memory.
    await pool.close()
    const live = prev!
    // Shard names carry their bits: with other bits, no shard matches and all are indexed.
    const shards = planShards(published, memory.shardBits, sha(PAGEFIND_VERSION, renderer.version, `${SEARCH_RECORD_VERSION}`))
    if (options.search !== false && !searchUpToDate(live.state.search, shards)) {
      const { id, dir } = startBuildDir()
      linkTree(join(live.dir, 'site'), join(dir, 'site'), new Set(['pagefind']))
      linkTemplates(live.dir, dir)
      const { state: search, indexed } = await writeSearchShards({
        outDir: join(dir, 'site', 'pagefind'),
        previousDir: join(live.dir, 'site', 'pagefind'),
        previous: live.state.search,
        plan: shards,
        parallel: memory.shardParallel,
        cache: { root: join(distDir, 'cache', 'articles'), rendererVersion: renderer.version },
      })
      info = await land(dir, id, { ...live.state, search })
      log(`search index live after ${since()} (${indexed} of ${Object.keys(search.shards).length} shards indexed)`)
    }
    pruneBuilds(distDir)
    cache.pruneOthers()
    return info!
  } catch (e) {
    for (const dir of unlanded) rmSync(dir, { recursive: true, force: true })
    throw explainLimit(e)
  } finally {
    await pool.close()
    release()
  }
}

/** Files of a build folder that the build writes itself; every other top-level file is the post index's. */
const OWN_FILES = new Set(['build.json', 'state.json', 'template.html', AUTHORIZE_TEMPLATE, 'manifest.json', 'openapi.json'])

/** The templates Astro built that are not pages of the site: the article page's and the authorization pages'. */
function linkTemplates(from: string, to: string): void {
  linkSync(join(from, 'template.html'), join(to, 'template.html'))
  linkSync(join(from, AUTHORIZE_TEMPLATE), join(to, AUTHORIZE_TEMPLATE))
}

/** Links the post index's files (whatever their names) from one build folder into another. */
function linkTopFiles(from: string, to: string): void {
  for (const e of readdirSync(from, { withFileTypes: true }))
    if (e.isFile() && !OWN_FILES.has(e.name) && !existsSync(join(to, e.name))) linkSync(join(from, e.name), join(to, e.name))
}

/** The live build of this configuration and what it was made from, when it can be reused. */
function readPrevious(distDir: string, key: string): Previous | undefined {
  const dir = liveBuildDir(distDir, key)
  if (!dir) return undefined
  try {
    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as BuildState
    if (state.version !== STATE_VERSION) return undefined
    return { dir, state, template: readFileSync(join(dir, 'template.html'), 'utf8'), bySlug: new Map(state.articles.map((a) => [a.slug, a])) }
  } catch {
    return undefined
  }
}

/**
 * The renderer's worker pool, started only when many articles need rendering (a cold build):
 * an edit of a few articles renders them in this thread rather than wait for workers to boot.
 */
class LazyPool {
  private readonly renderer: Renderer
  private pool: ReturnType<Renderer['createPool']> | undefined
  private inThread = 0
  constructor(renderer: Renderer) {
    this.renderer = renderer
  }

  preferWorkers(): void {
    this.inThread = IN_THREAD_RENDERS
  }

  render(markdown: string): Promise<RenderedArticle> {
    if (this.renderer.renderInThread && this.inThread < IN_THREAD_RENDERS) {
      this.inThread++
      return this.renderer.renderInThread(markdown)
    }
    return (this.pool ??= this.renderer.createPool()).render(markdown)
  }

  /** Ends the workers; a later render starts them again. */
  async close(): Promise<void> {
    const pool = this.pool
    this.pool = undefined
    await pool?.close()
  }
}

/** Cache entries, rendering (and caching) an article whose entry is missing. */
class EntrySource {
  private readonly cache: BuildCache
  private readonly pool: { render(markdown: string): Promise<RenderedArticle> }
  private readonly contentDir: string

  /** An article's text, read again: only if it is still what was hashed. */
  async text(meta: ArticleMeta): Promise<string> {
    const bytes = await readFile(join(this.contentDir, `${meta.slug}.md`))
    if (createHash('sha256').update(bytes).digest('hex') !== meta.hash)
      throw new BuildError([{ file: `${meta.slug}.md`, message: 'the file changed during the build', fix: 'run the build again' }])
    return bytes.toString('utf8')
  }

  constructor(cache: BuildCache, pool: { render(markdown: string): Promise<RenderedArticle> }, contentDir: string) {
    this.cache = cache
    this.pool = pool
    this.contentDir = contentDir
  }

  async get(meta: ArticleMeta): Promise<CacheEntry> {
    return (await this.cache.get(meta.hash)) ?? this.render(meta)
  }

  async render(meta: ArticleMeta): Promise<CacheEntry> {
    const { slug: _slug, hash, ...rest } = meta
    const source = await this.text(meta)
    const rendered = await this.pool.render(articleBody(source))
    const entry: CacheEntry = { meta: rest, ...rendered, excerpt: excerptOf(rendered.text) }
    await this.cache.put(hash, entry)
    return entry
  }

  /** Renders the articles into the cache; an article the renderer refuses is a problem. */
  renderAll(metas: ArticleMeta[], problems: BuildProblem[]): Promise<void> {
    return forEachLimited(metas, RENDER_AHEAD, async (m) => {
      try {
        await this.render(m)
      } catch (e) {
        problems.push({ file: `${m.slug}.md`, message: `could not render the markdown: ${e instanceof Error ? e.message : String(e)}` })
      }
    })
  }
}

async function writeArticles(
  siteDir: string,
  templateHtml: string,
  published: ArticleMeta[],
  related: number[][],
  prev: Previous | undefined,
  entries: EntrySource,
  baseUrl: string,
): Promise<Record<string, string>> {
  const postsDir = join(siteDir, 'posts')
  mkdirSync(postsDir, { recursive: true })
  const template = parseTemplate(templateHtml)
  const samePages = prev !== undefined && prev.template === templateHtml
  const twinOf = async (m: ArticleMeta) => markdownTwin(m, articleBody(await entries.text(m)), baseUrl)
  // A page also shows its neighbours and related articles: it is rewritten when they change,
  // e.g. when another article is added, removed or retitled.
  const navKeys: Record<string, string> = {}
  const pages = forEachLimited(published, WRITE_CONCURRENCY, async (m, i) => {
    const older = published[i + 1]
    const newer = published[i - 1]
    const others = related[i]!.map((j) => published[j]!)
    // What the links show, hashed in one call (cheap enough for every article of every build).
    const shown = [older, newer, ...others].map((a) => (a ? `${a.slug}\0${a.title}` : '')).join('\0')
    const navKey = (navKeys[m.slug] = hash('sha256', shown).slice(0, 16))
    const unchanged = prev?.bySlug.get(m.slug)?.hash === m.hash
    const page = join(postsDir, `${m.slug}.html`)
    const twin = join(postsDir, `${m.slug}.md`)
    const reuse = (name: string) => linkSync(join(prev!.dir, 'site', 'posts', name), join(postsDir, name))
    // The twins depend on the article alone: an unchanged article's are linked from the live build.
    const samePage = unchanged && samePages && prev.state.navKeys?.[m.slug] === navKey
    const citation = samePage ? undefined : articleCitation(m, baseUrl)
    if (unchanged) {
      reuse(`${m.slug}.md`)
      reuse(`${m.slug}.bib`)
      reuse(`${m.slug}.csl.json`)
    } else {
      await writeFile(twin, await twinOf(m))
      await writeFile(join(postsDir, `${m.slug}.bib`), citation!.bibtex)
      await writeFile(join(postsDir, `${m.slug}.csl.json`), citation!.csl)
    }
    if (samePage) linkSync(join(prev.dir, 'site', 'posts', `${m.slug}.html`), page)
    else {
      const entry = await entries.get(m)
      const nav = navHtml(older, newer, others)
      await writeFile(page, articlePage(template, m, entry.html, baseUrl, { cover: coverHtml(m), toc: tocHtml(entry.headings), nav }, citation))
    }
  })
  // The same articles as the previous build (each unchanged, none added or removed): the same file.
  const sameArticles =
    prev !== undefined &&
    published.length === prev.state.articles.filter((a) => !a.draft).length &&
    published.every((m) => prev.bySlug.get(m.slug)?.hash === m.hash)
  const full = join(siteDir, LLMS_FULL)
  // Written beside the pages, in the order of the list.
  const fullText = sameArticles && reuseLlmsFull(join(prev.dir, 'site', LLMS_FULL), full) ? undefined : writeLlmsFull(full, mapAhead(published, READ_AHEAD, twinOf))
  await Promise.all([pages, fullText])
  return navKeys
}

function runAstro(
  env: NodeJS.ProcessEnv,
  o: { baseUrl: string; contentDir: string; siteDir: string; manifest: string; openapi: string; cacheDir: string },
): Promise<void> {
  // A separate process: Astro's memory is freed when it exits, and the build waits without blocking.
  // Astro keeps its intermediate files in <working directory>/.astro when the output is outside
  // the working directory: each build runs it from a folder of its own (inside the project, so
  // that those files resolve the project's packages), since builds of two configurations run at once.
  const work = join(ROOT, 'node_modules', '.cache', 'lattice-astro', basename(dirname(o.siteDir)))
  mkdirSync(work, { recursive: true })
  const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build', '--silent', '--root', ROOT], {
    cwd: work,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...env,
      BASE_URL: o.baseUrl,
      CONTENT_DIR: o.contentDir,
      ASTRO_OUT_DIR: o.siteDir,
      ASTRO_CACHE_DIR: o.cacheDir,
      ARTICLES_MANIFEST: o.manifest,
      OPENAPI_FILE: o.openapi,
      ASTRO_TELEMETRY_DISABLED: '1',
    },
  })
  return new Promise<void>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`astro build failed (${signal ?? `exit ${code}`}); its message is above`)),
    )
  }).finally(() => rmSync(work, { recursive: true, force: true }))
}

/** The post index's entries, in its order, each read as it is written. */
function indexEntries(published: readonly ArticleMeta[], entries: EntrySource): AsyncIterable<IndexEntry> {
  // The index's order compares days, where `published` compares moments.
  const key = (m: ArticleMeta) => ({ slug: m.slug, date: m.date.slice(0, 10) })
  const ordered = [...published].sort((a, b) => compareEntries(key(a), key(b)))
  return mapAhead(ordered, READ_AHEAD, async (m) => indexEntry(m, await entries.text(m)))
}

function indexEntry(m: ArticleMeta, source: string): IndexEntry {
  return {
    slug: m.slug,
    title: m.title,
    description: m.description,
    date: m.date.slice(0, 10),
    lastModified: m.lastModified ?? m.date,
    author: m.author,
    tags: m.tags,
    ...(m.image !== undefined ? { image: m.image } : {}),
    ...(m.doi !== undefined ? { doi: m.doi } : {}),
    readingMinutes: m.readingMinutes,
    markdown: articleBody(source).trim() + '\n',
  }
}

/** What the list pages show of an article: the manifest Astro reads (site/lib/articles.ts). */
function manifestRecord(m: ArticleMeta) {
  const { hash: _hash, draft: _draft, ...record } = m
  return record
}

const newestFirst = (a: ArticleMeta, b: ArticleMeta) => (a.date < b.date ? 1 : a.date > b.date ? -1 : a.slug < b.slug ? -1 : 1)

function excerptOf(text: string): string {
  return text.length <= 300 ? text : text.slice(0, text.lastIndexOf(' ', 300)) + '…'
}

function sortProblems(problems: BuildProblem[]): BuildProblem[] {
  return problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
}

if (import.meta.main) {
  const started = Date.now()
  try {
    const info = await build(process.env, { log: (line) => console.log(line), search: !process.argv.includes('--no-search') })
    console.log(`Built ${info.articles} articles in ${((Date.now() - started) / 1000).toFixed(1)} s -> dist/builds/${info.id}`)
  } catch (e) {
    console.error(e instanceof Error ? e.message : e)
    process.exit(1)
  }
}
