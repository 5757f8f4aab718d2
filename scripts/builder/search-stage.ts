/**
 * The build's search stage: which shards of the site search index a build needs (planShards,
 * planGroups), whether the live index already is that, and the writing of the index into the
 * new build's folder, before it lands.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { SharedStore } from './dist.ts'
import type { MemoryPlan } from './memory-plan.ts'
import { groupBits, planGroups } from '../../search/build/groups.ts'
import { checkPagefindVersion, installedPagefindVersion, PAGEFIND_VERSION } from '../../search/pagefind/adapter.ts'
import { planShards, searchUpToDate, writeSearchShards, type SearchState, type ShardArticle } from './search-shards.ts'

/** Bump when what a search record holds, or a shard's files (its places, its vocabulary), change: all are indexed again. */
const SEARCH_RECORD_VERSION = 6

export interface SearchWrite {
  /** site/pagefind of the new build. */
  outDir: string
  /** site/pagefind of the live build, if any, and its state. */
  liveDir: string | undefined
  live: SearchState | null
  store: SharedStore
  log: (line: string) => void
}

/** The index the published articles need, for a renderer version and a memory plan. */
export function searchStage(
  articles: readonly ShardArticle[],
  memory: MemoryPlan,
  rendererVersion: string,
  distDir: string,
  pagefind = installedPagefindVersion(),
) {
  // The index is read and written as one Pagefind release's: another fails the build here, by name.
  checkPagefindVersion(pagefind)
  // Shard names carry their bits: with other bits, no shard matches and all are indexed.
  const key = createHash('sha256')
    .update([PAGEFIND_VERSION, rendererVersion, `${SEARCH_RECORD_VERSION}`].join('\0'))
    .digest('hex')
  const shards = planShards(articles, memory.shardBits, key)
  const groups = planGroups(shards, groupBits(articles.length, memory.shardBits))
  return {
    /** Whether an index with state `had` is not the one needed. */
    stale: (had: SearchState | null) => !searchUpToDate(had, shards, groups),
    /** Writes the index, linking the live index's unchanged shards; returns its state and counts. */
    async write(o: SearchWrite): Promise<{ state: SearchState; counts: string }> {
      const written = await writeSearchShards({
        outDir: o.outDir,
        previousDir: o.liveDir,
        store: o.store,
        previous: o.live,
        plan: shards,
        groups,
        parallel: memory.shardParallel,
        scoresBeside: memory.scoresBeside,
        heaps: memory.heaps,
        cache: { root: join(distDir, 'cache', 'articles'), rendererVersion },
        log: o.log,
      })
      const { indexed, merged } = written
      return {
        state: written.state,
        counts: `${indexed} of ${shards.size} shards indexed, ${merged} of ${groups.size} groups merged`,
      }
    },
  }
}
