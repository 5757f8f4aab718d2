/**
 * The build's search stage: which shards of the site search index a build needs (planShards,
 * planGroups), whether the live index already is that, and the writing of the index into the
 * new build's folder, before it lands.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { SharedStore } from './dist.ts'
import type { MemoryPlan } from './memory-plan.ts'
import type { Previous } from './previous.ts'
import { deltaGroup, groupBits, planGroups, type GroupPlan } from '../../search/build/groups.ts'
import {
  checkPagefindVersion,
  ENTRY_FILE,
  installedPagefindVersion,
  PAGEFIND_VERSION,
} from '../../search/pagefind/adapter.ts'
import { planDelta, type DeltaPlan } from './search-delta.ts'
import {
  planShards,
  searchUpToDate,
  writeSearchShards,
  type SearchState,
  type ShardArticle,
  type ShardPlan,
} from './search-shards.ts'

/** Bump when what a search record holds, or a shard's files (its places, its vocabulary), change: all are indexed again. */
const SEARCH_RECORD_VERSION = 7

export interface SearchWrite {
  /** site/pagefind of the new build. */
  outDir: string
  /** site/pagefind of the live build, if any, and its state. */
  liveDir: string | undefined
  live: SearchState | null
  store: SharedStore
  log: (line: string) => void
}

/** The live index a build starts from: its folder, its state, and the articles it was made from (slug to hash). */
export interface LiveSearch {
  dir: string
  state: SearchState
  articles: ReadonlyMap<string, string>
}

/** The live build's index and the articles it was made from: a small change adds a delta to it. */
export function liveIndexOf(prev: Previous | undefined): LiveSearch | undefined {
  if (!prev?.state.search) return undefined
  const order = prev.state.order ?? []
  return {
    dir: join(prev.dir, 'site', 'pagefind'),
    state: prev.state.search,
    articles: new Map(order.map((slug) => [slug, prev.bySlug.get(slug)?.hash ?? ''])),
  }
}

/**
 * The index the published articles need, for a renderer version and a memory plan: the live
 * index (`liveIndex`, asked for once a plan is) and a delta shard for a small change
 * (search-delta.ts), else each changed shard anew.
 */
export function searchStage(
  articles: readonly ShardArticle[],
  memory: MemoryPlan,
  rendererVersion: string,
  distDir: string,
  liveIndex: () => LiveSearch | undefined = () => undefined,
  pagefind = installedPagefindVersion(),
) {
  // The index is read and written as one Pagefind release's: another fails the build here, by name.
  checkPagefindVersion(pagefind)
  // Shard names carry their bits: with other bits, no shard matches and all are indexed.
  const key = createHash('sha256')
    .update([PAGEFIND_VERSION, rendererVersion, `${SEARCH_RECORD_VERSION}`].join('\0'))
    .digest('hex')
  const bits = groupBits(articles.length, memory.shardBits)
  // Every plan hashes each slug (0.25 s at 50,000 articles): made when first asked, which an
  // edit does once its pages are live. The whole plan only when no delta over the live index will do.
  type Plan = { shards: ShardPlan; delta: DeltaPlan | undefined }
  let fullPlan: Plan | undefined
  const full = (): Plan => (fullPlan ??= { shards: planShards(articles, memory.shardBits, key), delta: undefined })
  let deltaPlan: { live: LiveSearch | undefined; withDelta?: Plan; groups?: GroupPlan } | undefined
  const deltaOf = () => {
    if (deltaPlan) return deltaPlan
    const live = liveIndex()
    const planned = live && planDelta(articles, memory.shardBits, key, live.state, live.articles)
    // The base shards must be on disk to be kept; the delta's own is made anew when missing.
    const delta =
      planned &&
      [...planned.shards.keys()].every((name) => name === planned.shard || existsSync(join(live.dir, name, ENTRY_FILE)))
        ? planned
        : undefined
    if (!delta) return (deltaPlan = { live })
    const groups = new Map([
      ...planGroups(new Map([...delta.shards].filter(([name]) => name !== delta.shard)), bits),
      deltaGroup(delta.shard, delta.shards.get(delta.shard)!.key),
    ])
    return (deltaPlan = { live, withDelta: { shards: delta.shards, delta }, groups })
  }
  // The delta is kept only over the live index it was planned on.
  const chosen = (had: SearchState | null): Plan => {
    const { live, withDelta } = deltaOf()
    return withDelta && had === live?.state ? withDelta : full()
  }
  const groupsFor = (had: SearchState | null) =>
    chosen(had) === deltaOf().withDelta ? deltaOf().groups! : planGroups(full().shards, bits)
  return {
    /** Whether an index with state `had` is not the one needed. */
    stale: (had: SearchState | null) => !searchUpToDate(had, chosen(had).shards, groupsFor(had)),
    /** Writes the index, linking the live index's unchanged shards; returns its state and counts. */
    async write(o: SearchWrite): Promise<{ state: SearchState; counts: string }> {
      const { shards, delta: used } = chosen(o.live)
      const groups = groupsFor(o.live)
      const written = await writeSearchShards({
        outDir: o.outDir,
        previousDir: o.liveDir,
        store: o.store,
        previous: o.live,
        plan: shards,
        groups,
        ...(used && { delta: { shard: used.shard, was: used.was, hidden: used.hidden } }),
        parallel: memory.shardParallel,
        scoresBeside: memory.scoresBeside,
        heaps: memory.heaps,
        cache: { root: join(distDir, 'cache', 'articles'), rendererVersion },
        log: o.log,
      })
      const { indexed, merged } = written
      const changed = used ? `, ${Object.keys(used.was).length} articles in the delta` : ''
      return {
        state: written.state,
        counts: `${indexed} of ${shards.size} shards indexed, ${merged} of ${groups.size} groups merged${changed}`,
      }
    },
  }
}
