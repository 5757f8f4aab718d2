/**
 * A small change's search index: the live index's shards kept as they are (the base), and one
 * more shard, the delta, holding every article changed since the base was indexed (new or
 * edited); the old pages of changed and deleted articles are hidden in their base shards
 * (shards.json lists them per shard), so the browser neither finds them nor counts them in the
 * whole index's statistics (search/browser/search-rank.js). Indexing the few changed
 * articles takes about a second, where indexing their shards again took tens of seconds at
 * 50,000 articles, and the build lands only once its index is whole (scripts/build.ts).
 *
 * The delta is cumulative: each build indexes every article changed since the base, so an
 * article edited twice is in it once. A change beyond DELTA_ARTICLES, another shard plan (the
 * article count or the memory plan changed), or a base that does not match what the build
 * records indexes the changed shards anew instead, and that index has no delta (the compaction).
 */
import { createHash } from 'node:crypto'
import { pageNumbers } from '../../search/build/scores.ts'
import { planShards, shardOf, type DeltaRecord, type ShardArticle, type ShardPlan } from './search-shards.ts'

/** Changed articles a delta holds at most: past them, the changed shards are indexed anew. */
export const DELTA_ARTICLES = 64

/** The index a build needs with a delta: the base shards, the delta shard, and what the base hides. */
export interface DeltaPlan {
  /** The base shards (the live index's, with their keys), then the delta shard. */
  shards: ShardPlan
  /** The delta shard's name. */
  shard: string
  was: Record<string, string>
  /** Per base shard, the pages (numbered as in its scores) of articles changed or deleted since. */
  hidden: Map<string, number[]>
}

/**
 * The delta index for `published` when the live index (`live`, made for the articles and
 * hashes in `liveArticles`) can take one; undefined when the changed shards must be indexed anew.
 * `bits` and `version` are the shard plan's (planShards).
 */
export function planDelta(
  published: readonly ShardArticle[],
  bits: number,
  version: string,
  live: { shards: Record<string, string>; delta?: DeltaRecord } | null | undefined,
  liveArticles: ReadonlyMap<string, string> | undefined,
): DeltaPlan | undefined {
  if (!live || !liveArticles) return undefined
  const now = new Map(published.map((a) => [a.slug, a]))
  const was: Record<string, string> = { ...live.delta?.was }
  for (const slug of new Set([...liveArticles.keys(), ...now.keys()]))
    if (!(slug in was) && liveArticles.get(slug) !== now.get(slug)?.hash) was[slug] = liveArticles.get(slug) ?? ''
  // An article edited back to what the base holds is the base's again.
  for (const slug of Object.keys(was)) if ((now.get(slug)?.hash ?? '') === was[slug]) delete was[slug]
  const changed = Object.keys(was).sort()
  const articles = published.filter((a) => a.slug in was).sort((a, b) => (a.slug < b.slug ? -1 : 1))
  // Deletions alone leave nothing to index: their shards are indexed anew.
  if (articles.length === 0 || changed.length > DELTA_ARTICLES) return undefined
  // The base, as it was indexed: today's articles, those changed as they were then.
  const base: ShardArticle[] = []
  for (const a of published) if (!(a.slug in was)) base.push(a)
  for (const slug of changed)
    if (was[slug]) base.push({ slug, hash: was[slug]!, title: '', author: '', description: '' })
  const baseShards = planShards(base, bits, version)
  const liveBase = Object.entries(live.shards).filter(([name]) => name !== live.delta?.shard)
  // The keys prove it: each base shard is exactly what the live one was indexed from.
  if (liveBase.length !== baseShards.size || liveBase.some(([name, key]) => baseShards.get(name)?.key !== key))
    return undefined
  const hidden = new Map<string, number[]>()
  for (const slug of changed) {
    if (!was[slug]) continue
    const shard = shardOf(slug, bits)
    const page = pageNumbers(baseShards.get(shard)!.articles.map((a) => a.slug)).get(slug)!
    hidden.set(
      shard,
      [...(hidden.get(shard) ?? []), page].sort((a, b) => a - b),
    )
  }
  // The key covers what the base hides too: a deletion changes the index.
  const h = createHash('sha256').update(`${version}\0delta`)
  for (const slug of changed) h.update(`\0${slug}:${was[slug]}:${now.get(slug)?.hash ?? ''}`)
  const key = h.digest('hex')
  const shard = `d-${key.slice(0, 16)}`
  return { shards: new Map([...baseShards, [shard, { key, articles }]]), shard, was, hidden }
}
