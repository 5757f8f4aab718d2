/**
 * `npm run build`: validates and renders the articles (reusing the build cache), builds the
 * site's other pages with Astro, assembles the article pages from one template, writes the
 * markdown twins, the post index and the site search index, and lands the result by swapping a
 * link once every part is written, so that a running server never sees half a build, nor a build
 * that failed (the previous one stays live).
 *
 * In the live preview (`landEarly`), edited article pages land first, with the list pages of the
 * live build; Astro then rebuilds the list pages (only if what they show changed).
 * CONTENT_DIR, BASE_URL and DIST_DIR choose what is built and where (scripts/builder/dist.ts).
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { appendable, keptEntries, writeIndexFile } from '../post-index/index-file-writer.ts'
import { INDEX_FILES } from '../post-index/index-file.ts'
import { AUTHORIZE_TEMPLATE, BUILD_INFO_FILE, configKey } from '../model/build-dir.ts'
import { buildEnv } from './builder/build-env.ts'
import {
  buildInfo,
  buildSourcesFingerprint,
  computeInputs,
  openApiCache,
  siteSourcesFingerprint,
  type BuildInfo,
} from './build-state.ts'
import { writeArticles } from './builder/article-files.ts'
import { depositor } from './builder/crossref/depositor.ts'
import { articleLinks, type ArticleLinks } from './builder/article-links.ts'
import { runAstro } from './builder/astro.ts'
import { readAbout, writeAbout } from './builder/about-page.ts'
import { openCache } from './builder/cache.ts'
import { serviceOpenApi } from './builder/openapi.ts'
import { articleMetas } from './builder/article-metas.ts'
import { requireContentDir, type ArticleMeta } from './builder/content.ts'
import { listContent, statContent } from './builder/source-stats.ts'
import {
  acquireLock,
  linkTree,
  newBuildDir,
  pruneBuilds,
  linkBuild,
  liveLinks,
  pruneShared,
  restoreLive,
  sharedStore,
  swapLive,
} from './builder/dist.ts'
import type { BuildOptions } from './builder/build-options.ts'
import { DEFAULT_RENDERER, EntrySource, IN_THREAD_RENDERS, LazyPool } from './builder/entries.ts'
import { BuildError, explainLimit, type BuildProblem } from './builder/errors.ts'
import { citingEntries, indexEntries, indexEntry, newestFirst } from './builder/index-entries.ts'
import { manifestKey, manifestText, recordChanges } from './builder/manifest-key.ts'
import { changedCards, overlayPages } from './builder/list-pages.ts'
import { memoryCap, planLine, planMemory } from './builder/memory-plan.ts'
import { STATE_VERSION, linkTemplates, linkTopFiles, readPrevious, type BuildState } from './builder/previous.ts'
import { STATE_FILE, writeState } from './builder/state-file.ts'
import type { SearchState } from './builder/search-shards.ts'
import { liveIndexOf, searchStage } from './builder/search-stage.ts'
import { recordSettled } from './builder/racy-sources.ts'
import { buildClock, markScheduled, publishedArticles } from './builder/schedule.ts'

export { BuildError } from './builder/errors.ts'
export type { Renderer } from './builder/entries.ts'
export type { BuildOptions }

const sha = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex')

export async function build(env: NodeJS.ProcessEnv = process.env, options: BuildOptions = {}): Promise<BuildInfo> {
  const { contentDir, baseUrl, distDir } = buildEnv(env)
  const log = options.log ?? (() => {})
  const renderer = options.renderer ?? DEFAULT_RENDERER
  requireContentDir(contentDir)
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
  // Puts back the live build of before the pages landed, while their search index is written.
  let restore: (() => void) | undefined
  const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`
  try {
    const openapiText = serviceOpenApi(baseUrl, openApiCache(distDir, baseUrl))
    const problems: BuildProblem[] = []
    // One listing of the content folder, and a stat of each article file, taken while the live
    // build's state is read.
    const listing = listContent(contentDir)
    const files = listing.names
    // Refused here, before anything is written, when no plan fits the cap.
    const memory = planMemory(memoryCap(env), files.length, options)
    pool.limit(memory.renderThreads, memory.heaps.render)
    log(planLine(memory, files.length))
    // A warm builder's live state is read already: this thread stats a share of the files instead
    // of reading it.
    const ahead = options.previous?.(distDir, key)
    // A warm builder's watch of the folder stats only the files it saw change (content-watch.ts).
    const watched = options.scan?.(contentDir, listing)
    const stat = () => statContent(contentDir, listing, { shareHere: ahead !== undefined })
    const stats = watched ? watched.then((s) => s ?? stat()) : stat()
    let prev = ahead ?? readPrevious(distDir, key)
    const scan = await stats
    if (scan.restated !== undefined)
      log(`stat ${scan.restated} of ${files.length} files (a watch saw no change to the others) after ${since()}`)
    const cache = openCache(join(distDir, 'cache', 'articles'), renderer.version)
    const entries = new EntrySource(cache, pool, contentDir)

    const {
      metas,
      fresh,
      signatures,
      read,
      files: count,
    } = await articleMetas(contentDir, scan, problems, prev, cache, entries.inputs)
    const inputs = computeInputs(contentDir, baseUrl, scan)
    log(`read ${read} of ${count} files (the others' stat unchanged) after ${since()}`)
    if (problems.length) throw new BuildError(problems)
    log(`validated, ${fresh.length} to render, after ${since()}`)
    // New and edited articles render while Astro builds the other pages.
    if (fresh.length > IN_THREAD_RENDERS) pool.preferWorkers()
    // The render threads end once every article is rendered: their memory is not held while the
    // pages are assembled (a later render, should an entry vanish, starts them again).
    const rendering = entries.renderAll(fresh, problems).then(() => pool.close())

    // Articles dated after now are built but not published until then (builder/schedule.ts).
    const { metas: marked, nextPublication } = markScheduled(metas, buildClock(env)())
    const published = publishedArticles(marked, env).sort(newestFirst)
    // The articles whose records for the list pages changed, when the list is the live build's otherwise.
    const changes = prev && recordChanges(published, prev)
    const manifest = manifestKey(published, prev, changes)
    const openapi = await openapiText
    const templateKey = sha(`${STATE_VERSION}`, siteSourcesFingerprint(), baseUrl)
    const about = readAbout(contentDir)
    // What Astro reads besides the manifest: when only it changed, only some list pages may have.
    const astroInputsKey = sha(templateKey, openapi, about?.hash ?? '')
    const astroKey = sha(astroInputsKey, manifest)
    // Only the list pages showing a changed card are made again when the lists are otherwise the
    // live build's: known before the preview lands its pages under the live build's lists.
    const cards =
      prev && changes && prev.state.astroInputsKey === astroInputsKey && prev.state.astroKey !== astroKey
        ? changedCards(changes)
        : undefined
    // The Crossref deposits name the depositor: another one rewrites every article's files.
    const deposits = depositor(env)
    const assemblyKey = sha(renderer.version, buildSourcesFingerprint(), JSON.stringify(deposits))
    // The post index is written once per build and linked by later swaps: the service loads it once.
    let indexWrittenIn: string | undefined
    // Each page's links to other articles, computed once for both assemblies.
    let links: ArticleLinks | undefined
    const citingOf = () => citingEntries(published, (links ??= articleLinks(published, prev?.state, baseUrl)).citedBy)
    const placeIndex = async (dir: string) => {
      if (indexWrittenIn === dir) return
      if (indexWrittenIn) linkTopFiles(indexWrittenIn, dir)
      else {
        // An unchanged article's entry is the live index's, laid out by the same code.
        const reusable = prev?.state.assemblyKey === assemblyKey ? prev : undefined
        const kept = reusable && (reusable.index ?? keptEntries(reusable.dir))
        const keptLine = (m: ArticleMeta) =>
          kept && reusable.bySlug.get(m.slug)?.hash === m.hash ? kept.get(m.slug) : undefined
        const previousBodies = kept && join(reusable.dir, INDEX_FILES.bodies)
        await rendering
        const citing = citingOf()
        await writeIndexFile(dir, indexEntries(published, entries, keptLine, citing), previousBodies, {
          append: kept !== undefined && appendable(previousBodies!, kept),
        })
        log(`post index written after ${since()}`)
      }
      indexWrittenIn = dir
    }
    const land = async (dir: string, id: string, state: BuildState) => {
      await placeIndex(dir)
      // Files racy at the scan that the build read again since, settled: the next build trusts their stat.
      const settled = recordSettled(contentDir, scan.stats, signatures, entries.verified, entries.inputs)
      if (settled) log(`recorded the stat of ${settled} files changed just before the scan, read again since`)
      writeState(dir, state)
      const info = buildInfo(inputs, key, id, published.length, nextPublication)
      writeFileSync(join(dir, BUILD_INFO_FILE), JSON.stringify(info, null, 2))
      swapLive(distDir, key, id)
      unlanded.delete(dir)
      prev = {
        dir,
        state,
        template: readFileSync(join(dir, 'template.html'), 'utf8'),
        bySlug: new Map(state.articles.map((a) => [a.slug, a])),
      }
      return info
    }
    const assemble = async (dir: string, id: string, template: string) => {
      await rendering
      if (problems.length) throw new BuildError(problems)
      const citing = citingOf()
      const { buckets, ...files } = await writeArticles(dir, sharedStore(distDir, 'articles', key, id), published, {
        template,
        links: links!,
        reusable: prev?.state.assemblyKey === assemblyKey ? prev : undefined,
        live: prev,
        entries,
        indexEntry: async (m) => indexEntry(m, await entries.readerParts(m), citing(m)),
        baseUrl,
        depositor: deposits,
      })
      log(`pages written (${buckets.made} article buckets new, ${buckets.shared} shared) after ${since()}`)
      return { ...files, ...links! }
    }

    // The search plan hashes every slug: made when first asked, after the pages landed when a live
    // index serves meanwhile.
    const startedFrom = prev
    const searching = searchStage(published, memory, renderer.version, distDir, () => liveIndexOf(startedFrom))
    const reindex = (had: SearchState | null) => options.search !== false && searching.stale(had)

    let info: BuildInfo | undefined
    // 1. The preview only: the articles changed what Astro shows, with the same template. Their
    // pages land first, with the live list pages, and the lists follow.
    if (options.landEarly && prev && prev.state.templateKey === templateKey && prev.state.astroKey !== astroKey) {
      const { id, dir } = startBuildDir()
      linkTree(join(prev.dir, 'site'), join(dir, 'site'))
      linkTemplates(prev.dir, dir)
      const files = await assemble(dir, id, prev.template)
      // Its lists are the live build's, not those of its articles: should the lists not follow,
      // the next build makes them all again.
      const lists = { astroKey: '', astroInputsKey: undefined }
      info = await land(dir, id, {
        ...prev.state,
        ...lists,
        assemblyKey,
        articles: marked,
        sources: signatures,
        ...files,
      })
      log(`article pages live after ${since()}`)
    }

    // 2. The site: Astro's pages (reused when nothing Astro reads changed), the article pages and
    // the search index (only the shards whose articles changed are indexed). Nothing lands until
    // every part is written: a build that fails anywhere leaves the live build as it was.
    {
      const { id, dir } = startBuildDir()
      const siteDir = join(dir, 'site')
      const liveSearch = prev && join(prev.dir, 'site', 'pagefind')
      let search = prev?.state.search ?? null
      // Assembled beside Astro: an edit of a few articles whose cards changed, under the live template.
      let assembled: Promise<Awaited<ReturnType<typeof assemble>>> | undefined
      if (prev && prev.state.astroKey === astroKey) {
        // The live build's pages; its index is linked below, when it serves this build too.
        linkTree(join(prev.dir, 'site'), siteDir, new Set(['pagefind']))
        linkTemplates(prev.dir, dir)
      } else {
        writeFileSync(join(dir, 'manifest.json'), manifestText(published))
        writeFileSync(join(dir, 'openapi.json'), openapi)
        const aboutFile = about && (await writeAbout(about.source, dir, problems))
        if (problems.length) throw new BuildError(problems)
        // Under a tight cap Astro waits for the render threads to end and their memory to leave.
        if (memory.astroAlone) {
          await rendering
          if (await pool.release(true)) log(`render threads ended, their memory given back, after ${since()}`)
        }
        const madeDir = cards ? join(dir, 'site-cards') : siteDir
        if (cards) {
          writeFileSync(join(dir, 'changed-cards.json'), JSON.stringify(cards))
          linkTree(join(prev!.dir, 'site'), siteDir, new Set(['pagefind']))
          // The article pages and the post index are written while Astro runs (a process of its
          // own) when they are few: the template is the live one, and the live build's other
          // pages are reused, so the memory is the edit's.
          if (fresh.length <= IN_THREAD_RENDERS && prev!.state.assemblyKey === assemblyKey) {
            const template = prev!.template
            assembled = assemble(dir, id, template).then(async (files) => {
              await placeIndex(dir)
              return files
            })
            // Awaited below, and settled before a failed build's folders are removed.
            assembled.catch(() => {})
          }
        }
        await runAstro(env, {
          baseUrl,
          contentDir,
          siteDir: madeDir,
          manifest: join(dir, 'manifest.json'),
          openapi: join(dir, 'openapi.json'),
          about: aboutFile || undefined,
          cacheDir: join(distDir, 'cache', 'astro', key),
          heap: memory.heaps.astro,
          changedCards: cards && join(dir, 'changed-cards.json'),
        }).catch(async (e: unknown) => {
          await assembled?.catch(() => {})
          throw e
        })
        renameSync(join(madeDir, 'article-template.html'), join(dir, 'template.html'))
        renameSync(join(madeDir, 'authorize-template.html'), join(dir, AUTHORIZE_TEMPLATE))
        if (cards) {
          const made = overlayPages(madeDir, siteDir)
          rmSync(madeDir, { recursive: true, force: true })
          rmSync(join(dir, 'changed-cards.json'))
          const beside = assembled ? '; the article pages beside them' : ''
          log(
            `site pages built (${made} made, for ${cards.length} changed cards; the others linked${beside}) after ${since()}`,
          )
        } else log(`site pages built after ${since()}`)
      }
      // The live index serves the new pages until their own is written.
      const liveIndex = search !== null && liveSearch !== undefined && existsSync(liveSearch)
      if (liveIndex) linkTree(liveSearch, join(siteDir, 'pagefind'))
      else search = null
      const files = await (assembled ?? assemble(dir, id, readFileSync(join(dir, 'template.html'), 'utf8')))
      await placeIndex(dir)
      const state = (index: SearchState | null): BuildState => ({
        version: STATE_VERSION,
        templateKey,
        assemblyKey,
        astroInputsKey,
        astroKey,
        manifestKey: manifest,
        order: published.map((m) => m.slug),
        search: index,
        articles: marked,
        sources: signatures,
        ...files,
      })
      // With a live index, the pages land first, with it; a new index, when needed, follows in a
      // folder of its own, and should it fail, the live build of before is put back.
      let before: ReturnType<typeof liveLinks> | undefined
      if (liveIndex) {
        before = liveLinks(distDir, key)
        info = await land(dir, id, state(search))
        log(`site live after ${since()}`)
      }
      if (reindex(search)) {
        let into = { id, dir }
        if (before) {
          const was = before
          restore = () => restoreLive(distDir, key, was)
          unlanded.add(dir)
          into = startBuildDir()
          linkBuild(dir, into.dir, [STATE_FILE, BUILD_INFO_FILE])
        }
        // The shard processes read the cache only: the render threads' memory and the articles'
        // text are let go first, to bound the peak memory.
        await pool.release(memory.releaseBeforeSearch)
        log(`search index started after ${since()}`)
        const written = await searching.write({
          outDir: join(into.dir, 'site', 'pagefind'),
          liveDir: liveSearch,
          live: search,
          store: sharedStore(distDir, 'search', key, into.id),
          log: (line) => log(`${line} after ${since()}`),
        })
        search = written.state
        log(`search index written after ${since()} (${written.counts})`)
        info = await land(into.dir, into.id, state(search))
        restore = undefined
        unlanded.clear()
        if (!before) log(`site live after ${since()}`)
        log(`search index live after ${since()} (${written.counts})`)
      } else if (!before) {
        info = await land(dir, id, state(search))
        log(`site live after ${since()}`)
      }
    }
    // Not needed to serve this build: after it landed.
    pruneBuilds(distDir)
    pruneShared(distDir, key)
    cache.pruneOthers()
    return info!
  } catch (e) {
    restore?.()
    for (const dir of unlanded) rmSync(dir, { recursive: true, force: true })
    throw explainLimit(e)
  } finally {
    await pool.close()
    release()
  }
}
