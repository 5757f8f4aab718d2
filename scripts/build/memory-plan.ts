/**
 * The build's memory plan. BUILD_MEMORY_MB caps the resident memory of the build's whole process
 * tree (this process, its render threads, Astro, the search shards' Pagefind processes); the
 * plan sizes the search shards and how many are indexed at once to fit, and refuses, before
 * anything is written, a cap that no plan fits.
 *
 * The figures are measured peaks (`npm run bench -- --scale` prints the real ones beside them),
 * with a margin; Pagefind's grows with the articles of the shard it indexes.
 */
import { availableParallelism, totalmem } from 'node:os'
import { BuildError } from './errors.ts'
import { largestShard, shardBits } from './search-shards.ts'

/**
 * Without BUILD_MEMORY_MB: three quarters of the machine's memory,
 * leaving the rest to the system and a running server.
 */
export const defaultBuildMemoryMb = () => Math.floor((totalmem() / 2 ** 20) * 0.75)

/**
 * Peak resident memory, in MB, of each part of a build: measured on the bench's corpus (articles
 * of 1,500 to 4,000 words) at 1,000 and 10,000 articles, with a margin.
 */
export const MEMORY_MODEL = {
  /** This process while the search shards are indexed: its metadata of every article, no texts. */
  searchParentMb: (articles: number) => 150 + articles * 0.03,
  /** Until the site is live: this process, its render threads and Astro's process. */
  siteMb: (articles: number) => 1050 + articles * 0.06,
  /** One shard process: Node, Pagefind, and Pagefind's index of its articles (about 1 MB each). */
  shardMb: (articles: number) => 150 + articles * 1.05,
}

/** More articles per shard than this makes each slower to write than two halves (Pagefind's write is superlinear). */
const MAX_SHARD_ARTICLES = 2000
const MIN_SHARD_ARTICLES = 50

export interface MemoryPlan {
  capMb: number
  /** Hash bits of the search shards (2^bits shards). */
  shardBits: number
  /** Search shard processes at once. */
  shardParallel: number
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

/**
 * The plan for `articles` published articles under `capMb`. `shardArticles` fixes the shard size
 * (tests); otherwise shards are as large as one fits beside this process, up to MAX_SHARD_ARTICLES.
 */
export function planMemory(
  capMb: number,
  articles: number,
  options: { shardArticles?: number; cores?: number } = {},
): MemoryPlan {
  const cores = options.cores ?? availableParallelism()
  const need = (mb: number) => Math.ceil(mb / 64) * 64
  const site = MEMORY_MODEL.siteMb(articles)
  if (site > capMb)
    throw new BuildError([
      {
        file: 'BUILD_MEMORY_MB',
        message:
          `a build of ${articles} articles needs about ${need(site)} MB until its site is live; ` +
          `the cap is ${capMb} MB`,
        fix: `set BUILD_MEMORY_MB to at least ${need(site)}`,
      },
    ])
  const forShards = capMb - MEMORY_MODEL.searchParentMb(articles)
  // The largest shard that fits beside this process, one at a time.
  const fits = Math.floor((forShards - MEMORY_MODEL.shardMb(0)) / (MEMORY_MODEL.shardMb(1) - MEMORY_MODEL.shardMb(0)))
  const perShard = options.shardArticles ?? Math.min(MAX_SHARD_ARTICLES, fits)
  const minimum = MEMORY_MODEL.searchParentMb(articles) + MEMORY_MODEL.shardMb(MIN_SHARD_ARTICLES)
  const bits = shardBits(articles, perShard)
  const largest = largestShard(articles, bits)
  // Shards of fewer than MIN_SHARD_ARTICLES would make a search open too many of them.
  if ((options.shardArticles === undefined && fits < MIN_SHARD_ARTICLES) || MEMORY_MODEL.shardMb(largest) > forShards)
    throw new BuildError([
      {
        file: 'BUILD_MEMORY_MB',
        message: `the search index of ${articles} articles needs at least ${need(minimum)} MB; the cap is ${capMb} MB`,
        fix: `set BUILD_MEMORY_MB to at least ${need(Math.max(minimum, site))}`,
      },
    ])
  const parallel = Math.max(1, Math.min(cores, Math.floor(forShards / MEMORY_MODEL.shardMb(largest)), 2 ** bits))
  return { capMb, shardBits: bits, shardParallel: parallel }
}
