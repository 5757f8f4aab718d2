/**
 * The build's memory plan. BUILD_MEMORY_MB caps the resident memory of the build's whole process
 * tree (this process, its render threads, Astro, the search shards' Pagefind processes and
 * score processes); the plan chooses how many render threads run, whether Astro runs beside the
 * rendering or alone after it, the size of the search shards, how many are indexed at once and
 * whether a shard's scores are read while the next is indexed, to fit; and it refuses, before
 * anything is written, a cap that not even its leanest choice fits.
 *
 * The figures are each part's measured peak (memory-model.ts); every process and thread is held
 * to its figure by a V8 heap limit (heap-limits.ts), so that the plan is a cap.
 */
import { availableParallelism, totalmem } from 'node:os'
import { BuildError } from './errors.ts'
import { type HeapLimits, planHeaps } from './heap-limits.ts'
import { MEMORY_MODEL } from './memory-model.ts'
import { largestShard, shardBits } from './search-shards.ts'

export type { HeapLimits } from './heap-limits.ts'
export { MEMORY_MODEL } from './memory-model.ts'

/**
 * Without BUILD_MEMORY_MB: three quarters of the machine's memory, or of the container's when
 * its control group allows less (https://nodejs.org/api/process.html#processconstrainedmemory),
 * leaving the rest to the system and a running server.
 */
export function defaultBuildMemoryMb(): number {
  const constrained = process.constrainedMemory()
  const bytes = constrained > 0 ? Math.min(constrained, totalmem()) : totalmem()
  return Math.floor((bytes / 2 ** 20) * 0.75)
}

/** More articles per shard than this makes each slower to write than two halves (Pagefind's write is superlinear). */
const MAX_SHARD_ARTICLES = 2000
const MIN_SHARD_ARTICLES = 50
/**
 * Pagefind indexes in one thread: shards small enough for one per core to be indexed at once
 * index the corpus up to that many times faster, in the same memory. Below this size, their
 * count (a process and its start-up each) outweighs it, and shards are as large as one fits.
 */
const PARALLEL_SHARD_ARTICLES = 250

export interface MemoryPlan {
  capMb: number
  /** Render worker threads. */
  renderThreads: number
  /** Astro runs after the articles are rendered and the render threads have ended, not beside them. */
  astroAlone: boolean
  /** Hash bits of the search shards (2^bits shards). */
  shardBits: number
  /** Search shard processes at once. */
  shardParallel: number
  /** A shard's score process runs beside the next shards' processes (one at a time), not before them. */
  scoresBeside: boolean
  /**
   * The search shards start once the render threads' memory has left this process; else they
   * may start beside it, and searchMb counts it.
   */
  releaseBeforeSearch: boolean
  /** The peak the plan expects until the site is live, and while the search index is written. */
  siteMb: number
  searchMb: number
  /** Each process's and thread's heap limits: their figures in the plan, enforced (heap-limits.ts). */
  heaps: HeapLimits
}

/** BUILD_MEMORY_MB, or the default; a value that is not a whole number of MB is refused. */
export function memoryCap(env: NodeJS.ProcessEnv): number {
  const raw = env.BUILD_MEMORY_MB
  if (raw === undefined || raw === '') return defaultBuildMemoryMb()
  if (!/^[1-9]\d{0,6}$/.test(raw))
    throw new BuildError([
      {
        file: 'BUILD_MEMORY_MB',
        message: `"${raw}" is not a whole number of megabytes`,
        fix: 'set it like BUILD_MEMORY_MB=2048, or leave it unset',
      },
    ])
  return Number(raw)
}

/** Peak until the site is live with `threads` render threads, Astro beside them or alone. */
export function sitePeakMb(articles: number, threads: number, astroAlone: boolean): number {
  const m = MEMORY_MODEL
  const rendering = m.buildMb(articles) + threads * m.renderThreadMb
  const astro = m.astroMb(articles)
  const beside = astroAlone ? Math.max(rendering, m.buildMb(articles) + astro) : rendering + astro
  return Math.max(beside, m.assembleMb(articles))
}

/** Rounded up to 64 MB, for a figure a message names. */
const need = (mb: number) => Math.ceil(mb / 64) * 64

/**
 * The plan for `articles` published articles under `capMb`: the fastest choice that fits (every
 * core rendering beside Astro; then Astro alone; then fewer threads). `shardArticles` fixes the
 * shard size (tests); otherwise shards are as large as one per core fits beside this process
 * (PARALLEL_SHARD_ARTICLES), else as one alone fits, up to MAX_SHARD_ARTICLES. `heaps` replaces
 * some of the heap limits (tests).
 */
export function planMemory(
  capMb: number,
  articles: number,
  options: { shardArticles?: number; cores?: number; heaps?: Partial<HeapLimits> | undefined } = {},
): MemoryPlan {
  const cores = Math.max(1, options.cores ?? availableParallelism())
  const choices = [
    { threads: cores, astroAlone: false },
    ...Array.from({ length: cores }, (_, i) => ({ threads: cores - i, astroAlone: true })),
  ]
  const site = choices.find((c) => sitePeakMb(articles, c.threads, c.astroAlone) <= capMb)
  const leanest = sitePeakMb(articles, 1, true)
  if (!site)
    throw new BuildError([
      {
        file: 'BUILD_MEMORY_MB',
        message:
          `a build of ${articles} articles needs about ${need(leanest)} MB until its site is live, ` +
          `with one render thread and Astro alone; the cap is ${capMb} MB`,
        fix: `set BUILD_MEMORY_MB to at least ${need(leanest)}`,
      },
    ])
  const parent = MEMORY_MODEL.searchParentMb(articles)
  const forShards = capMb - parent
  const perArticle = MEMORY_MODEL.shardMb(1) - MEMORY_MODEL.shardMb(0)
  // The largest shard that fits beside this process, one at a time; and one per core at once.
  const fits = Math.floor((forShards - MEMORY_MODEL.shardMb(0)) / perArticle)
  const fitsTogether = Math.floor((forShards / cores - MEMORY_MODEL.shardMb(0)) / perArticle)
  const together = largestShard(articles, shardBits(articles, fitsTogether)) >= PARALLEL_SHARD_ARTICLES
  const perShard = options.shardArticles ?? Math.min(MAX_SHARD_ARTICLES, together ? fitsTogether : fits)
  const minimum = parent + MEMORY_MODEL.shardMb(MIN_SHARD_ARTICLES)
  const bits = shardBits(articles, perShard)
  const largest = largestShard(articles, bits)
  // Shards of fewer than MIN_SHARD_ARTICLES would make a search open too many of them.
  if ((options.shardArticles === undefined && fits < MIN_SHARD_ARTICLES) || MEMORY_MODEL.shardMb(largest) > forShards)
    throw new BuildError([
      {
        file: 'BUILD_MEMORY_MB',
        message: `the search index of ${articles} articles needs at least ${need(minimum)} MB; the cap is ${capMb} MB`,
        fix: `set BUILD_MEMORY_MB to at least ${need(Math.max(minimum, leanest))}`,
      },
    ])
  const parallel = Math.max(1, Math.min(cores, Math.floor(forShards / MEMORY_MODEL.shardMb(largest)), 2 ** bits))
  // A score process needs a fraction of a shard's memory: beside the shards if it fits, else each
  // in its shard's place (before the next shard of that slot starts).
  const shardsMb = parent + parallel * MEMORY_MODEL.shardMb(largest)
  const scoresBeside = 2 ** bits > 1 && shardsMb + MEMORY_MODEL.scoreMb(largest) <= capMb
  const searchPeak = shardsMb + (scoresBeside ? MEMORY_MODEL.scoreMb(largest) : 0)
  // The render threads' heaps stay in this process for seconds after they end (thread-memory.ts):
  // the shards wait for them to leave only when the cap has no room for them beside the shards.
  const lingering = site.threads * MEMORY_MODEL.renderThreadMb
  const releaseBeforeSearch = searchPeak + lingering > capMb
  return {
    capMb,
    renderThreads: site.threads,
    astroAlone: site.astroAlone,
    shardBits: bits,
    shardParallel: parallel,
    scoresBeside,
    siteMb: Math.round(sitePeakMb(articles, site.threads, site.astroAlone)),
    releaseBeforeSearch,
    searchMb: Math.round(searchPeak + (releaseBeforeSearch ? 0 : lingering)),
    heaps: { ...planHeaps(articles, largest), ...options.heaps },
  }
}

/** What the plan chose, in one line for the build's log. */
export function planLine(plan: MemoryPlan, articles: number): string {
  const threads = `${plan.renderThreads} render thread${plan.renderThreads === 1 ? '' : 's'}`
  const astro = plan.astroAlone ? 'Astro after them' : 'Astro beside them'
  const count = 2 ** plan.shardBits
  const beside = plan.scoresBeside ? ', scores beside them' : ''
  const shards = `${count} search shard${count === 1 ? '' : 's'}, ${plan.shardParallel} at a time${beside}`
  return (
    `memory plan for ${articles} articles under ${plan.capMb} MB: ${threads}, ${astro} ` +
    `(about ${plan.siteMb} MB); ${shards} (about ${plan.searchMb} MB)`
  )
}
