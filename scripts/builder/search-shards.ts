/**
 * The site search index, in shards. Pagefind holds a whole index in memory while it writes it
 * (about a megabyte per article), and rewrites it whole when anything changes. So the articles
 * are split by a hash of their slug into 2^bits shards, each indexed by its own Pagefind process
 * (search-shard-worker.ts), and the browser ranks the articles of all of them as
 * one index would, from the scores each shard's process writes beside its index
 * (search/browser/search-rank.js). A rebuild re-indexes only the shards whose articles
 * changed; the others are linked from the live build.
 *
 * Layout of `site/pagefind/`: one folder per shard (`<bits>-<n>/`, a complete Pagefind index,
 * its scores, `scores/`, and its pages' places, `places/`: search/build/scores.ts), one per group of
 * shards (`g<bits>-<n>/`, their scores merged by word range: search/build/groups.ts), and `shards.json`
 * naming them, with each shard's pages, their lengths, its chunks and its score files
 * (search/pagefind/index-files.ts), from which the browser ranks results with the whole index's statistics,
 * and each group's shards and files. The browser reads the groups' scores, not the shards'.
 * The runtime files, the same in every shard, are hard links.
 */
import { spawn } from 'node:child_process'
import { createHash, hash } from 'node:crypto'
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { getPriority, setPriority } from 'node:os'
import { join } from 'node:path'
import { childFailure, heapFlags, type HeapLimit } from './heap-limits.ts'
import { forEachLimited } from './limited.ts'
import type { SharedStore } from './dist.ts'
import { type GroupPlan, writeSearchGroups } from '../../search/build/groups.ts'
import { mergeVocabularies, writeIndexVocabulary } from '../../search/build/vocabulary.ts'
import { pageOrder } from '../../search/build/scores.ts'
import {
  ENTRY_FILE,
  RUNTIME_FILES,
  RUNTIME_SCRIPT,
  readShardIndex,
  shardStats,
  UI_FILES,
} from '../../search/pagefind/adapter.ts'

/** What the live index's delta shard stands for (search-delta.ts): per article changed since its base, its hash then ('' when new). */
export interface DeltaRecord {
  shard: string
  was: Record<string, string>
}

/** An article as its shard is keyed and indexed. */
export interface ShardArticle {
  slug: string
  /** SHA-256 of its file: its search record is a function of it. */
  hash: string
  title: string
  author: string
  description: string
}

/** What the live build's search index was made of: shard and group folder names to their keys. */
export interface SearchState {
  shards: Record<string, string>
  /** Absent in an index written before its scores were grouped. */
  groups?: Record<string, string>
  /** The delta shard, and what it stands for (search-delta.ts); absent in an index without one. */
  delta?: DeltaRecord
}

export const SHARDS_FILE = 'shards.json'

/** Hashing spreads unevenly: the largest of several shards holds about a fifth above the mean. */
const SPREAD = 1.2

/** How many hash bits split `count` articles into shards of at most about `perShard`. */
export function shardBits(count: number, perShard: number): number {
  return count <= perShard ? 0 : Math.ceil(Math.log2((count * SPREAD) / perShard))
}

/** About how many articles the largest of the 2^bits shards of `count` holds. */
export function largestShard(count: number, bits: number): number {
  return bits === 0 ? count : Math.ceil((count / 2 ** bits) * SPREAD)
}

/**
 * The shard of an article: the top `bits` bits of SHA-256 of its slug; stable while bits is.
 * One-shot `hash` (https://nodejs.org/api/crypto.html#cryptohashalgorithm-data-options) makes
 * no Hash object per slug: a plan of 50,000 articles is made on every build.
 */
export function shardOf(slug: string, bits: number): string {
  const top = bits === 0 ? 0 : hash('sha256', slug, 'buffer').readUInt32BE(0) >>> (32 - bits)
  return `${bits}-${top.toString(16).padStart(Math.ceil(bits / 4), '0')}`
}

/** Every article by shard (only shards with articles), with each shard's key. */
export type ShardPlan = Map<string, { key: string; articles: ShardArticle[] }>

export function planShards(articles: readonly ShardArticle[], bits: number, version: string): ShardPlan {
  const shards = new Map<string, { key: string; articles: ShardArticle[] }>()
  for (const a of articles) {
    const name = shardOf(a.slug, bits)
    let shard = shards.get(name)
    if (!shard) shards.set(name, (shard = { key: '', articles: [] }))
    shard.articles.push(a)
  }
  for (const shard of shards.values()) {
    shard.articles.sort((a, b) => (a.slug < b.slug ? -1 : 1))
    const h = createHash('sha256').update(version)
    for (const a of shard.articles) h.update(`\0${a.slug}:${a.hash}`)
    shard.key = h.digest('hex')
  }
  return new Map([...shards].sort(([a], [b]) => (a < b ? -1 : 1)))
}

/** True when `state` is the index `plan` and `groups` make: nothing to index or merge. */
export function searchUpToDate(state: SearchState | null | undefined, plan: ShardPlan, groups: GroupPlan): boolean {
  const same = (had: Record<string, string> | undefined, want: ReadonlyMap<string, { key: string }>) =>
    !!had && want.size === Object.keys(had).length && [...want].every(([name, { key }]) => had[name] === key)
  return !!state && same(state.shards, plan) && same(state.groups, groups)
}

export interface WriteShardsOptions {
  /** site/pagefind of the new build: created here. */
  outDir: string
  /** site/pagefind of the live build, whose unchanged shards are linked. */
  previousDir?: string
  /** Where a shard indexed anew is made: a shared folder, linked from outDir as each shard is. */
  store: SharedStore
  previous?: SearchState | null
  /** The articles by shard, with the shards' keys (planShards). */
  plan: ShardPlan
  /** The shards by score group (planGroups). */
  groups: GroupPlan
  /** Shard processes at once. */
  parallel: number
  /**
   * A shard's scores are read (search-score-worker.ts) while the next shards are indexed, one
   * score process at a time beside the shard processes; otherwise each before the next shard.
   */
  scoresBeside?: boolean
  /** The heap limits of a shard's process and of its score process (the memory plan's). */
  heaps?: { shard: HeapLimit; score: HeapLimit }
  /** What the shard process needs to read each article's text from the build cache. */
  cache: { root: string; rendererVersion: string }
  /** With a delta shard: what it stands for, and the base shards' pages it replaces (search-delta.ts). */
  delta?: DeltaRecord & { hidden: ReadonlyMap<string, readonly number[]> }
  log?: (line: string) => void
}

/** Writes the sharded index; returns its state and how many shards were indexed and groups merged anew. */
export async function writeSearchShards(
  o: WriteShardsOptions,
): Promise<{ state: SearchState; indexed: number; merged: number }> {
  const { plan } = o
  mkdirSync(o.outDir, { recursive: true })
  const stale: Array<[string, ShardArticle[]]> = []
  for (const [name, shard] of plan) {
    if (o.previousDir && o.previous?.shards[name] === shard.key && existsSync(join(o.previousDir, name, ENTRY_FILE)))
      symlinkSync(readlinkSync(join(o.previousDir, name)), join(o.outDir, name))
    else stale.push([name, shard.articles])
  }
  let runtime = [...plan.keys()].find((name) => existsSync(join(o.outDir, name, RUNTIME_SCRIPT)))
  // One score process at a time; with scoresBeside, the shard's slot is free for the next shard
  // while it runs. The first failure stops further shards from starting.
  let scoring: Promise<unknown> = Promise.resolve()
  const finishing: Array<Promise<void>> = []
  let failed = false
  await forEachLimited(stale, o.parallel, async ([name, articles]) => {
    if (failed) return
    const { path: dir, link } = o.store.folder(name)
    const started = performance.now()
    const job: ShardJob = { outputPath: dir, articles, ...o.cache }
    const shardHeap = o.heaps?.shard
    await runProcess(SHARD_WORKER, [], `search shard ${dir}`, { input: JSON.stringify(job), heap: shardHeap })
    const indexed = performance.now()
    const scored = scoring.then(async () => {
      const start = performance.now()
      // Below the shards' priority: Pagefind uses both cores at times, and should not wait for it.
      await runProcess(SCORE_WORKER, [dir], `the scores of search shard ${dir}`, {
        nice: o.scoresBeside ? SCORE_NICE : 0,
        heap: o.heaps?.score,
      })
      return performance.now() - start
    })
    scoring = scored.catch(() => {})
    const finished = scored.then((scoreMs) => {
      for (const file of readdirSync(dir)) if (UI_FILES.test(file)) unlinkSync(join(dir, file))
      if (runtime === undefined) runtime = name
      else if (runtime !== name) shareRuntime(join(o.outDir, runtime), dir)
      // Linked once whole; a runtime shared from it is read through its link.
      symlinkSync(link, join(o.outDir, name))
      const s = (ms: number) => (ms / 1000).toFixed(1)
      const times = `Pagefind ${s(indexed - started)} s, scores ${s(scoreMs)} s`
      o.log?.(`search shard ${name}: ${articles.length} articles (${times})`)
    })
    finished.catch(() => (failed = true))
    finishing.push(finished)
    if (!o.scoresBeside) await finished
  })
  await Promise.all(finishing)
  // Each shard's pages, their lengths and its chunks: the browser ranks with the whole index's statistics.
  const stats = Object.fromEntries(
    [...plan.keys()].map((name) => {
      const dir = join(o.outDir, name)
      const index = readShardIndex(dir)
      const order = pageOrder(dir, index)
      const stats = shardStats(dir, order, index)
      const hidden = o.delta?.hidden.get(name)
      if (hidden) {
        const ids = index.pages.filter((_, i) => hidden.includes(order[i]!)).map((p) => p.hash)
        stats.hidden = { pages: [...hidden], ids }
      }
      return [name, stats]
    }),
  )
  // The shards' scores merged per group: what the browser fetches.
  const { entries: groups, merged } = writeSearchGroups({
    outDir: o.outDir,
    previousDir: o.previousDir,
    previous: o.previous?.groups,
    store: o.store,
    groups: o.groups,
    stats,
    log: o.log,
  })
  // The groups' vocabularies summed, cut by letter: what the page corrects a typo from.
  const vocabulary = writeIndexVocabulary(o.outDir, mergeVocabularies(groups.map((g) => join(o.outDir, g.name))))
  writeFileSync(join(o.outDir, SHARDS_FILE), JSON.stringify({ shards: [...plan.keys()], stats, groups, vocabulary }))
  const keys = (m: ReadonlyMap<string, { key: string }>) => Object.fromEntries([...m].map(([name, s]) => [name, s.key]))
  const delta = o.delta && { shard: o.delta.shard, was: o.delta.was }
  return {
    state: { shards: keys(plan), groups: keys(o.groups), ...(delta && { delta }) },
    indexed: stale.length,
    merged,
  }
}

/** Replaces a shard's runtime files with links to another's: one copy on disk, whatever the shard count. */
function shareRuntime(from: string, to: string): void {
  for (const file of readdirSync(to)) {
    if (!RUNTIME_FILES.test(file) || !existsSync(join(from, file))) continue
    rmSync(join(to, file))
    linkSync(join(from, file), join(to, file))
  }
}

const SHARD_WORKER = join(import.meta.dirname, 'search-shard-worker.ts')
const SCORE_WORKER = join(import.meta.dirname, 'search-score-worker.ts')
/** How much lower a score process beside the shards runs (setpriority(2): 0 to 19 above this process's). */
const SCORE_NICE = 10

/** The input of one shard process (search-shard-worker.ts), on its standard input. */
export interface ShardJob {
  outputPath: string
  articles: ShardArticle[]
  root: string
  rendererVersion: string
}

/**
 * Runs a step of a shard in a process of its own (its memory is given back when it exits), with
 * this process's pid and `args`, and `input` on its standard input, `nice` below this process's
 * priority, its heap limited to `heap`; `what` names it in an error.
 */
function runProcess(
  script: string,
  args: string[],
  what: string,
  { input = '', nice = 0, heap }: { input?: string; nice?: number; heap?: HeapLimit | undefined } = {},
): Promise<void> {
  const flags = heap ? heapFlags(heap) : []
  const child = spawn(process.execPath, [...flags, script, String(process.pid), ...args], {
    // Its lines through this process's stream, which a warm builder sends to its client.
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (c: Buffer) => process.stdout.write(c))
  if (nice > 0 && child.pid !== undefined) {
    try {
      setPriority(child.pid, Math.min(19, getPriority() + nice))
    } catch {
      // Not allowed here: it runs at this process's priority.
    }
  }
  let stderr = ''
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)))
  child.stdin!.end(input)
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code, signal) =>
      code === 0 ? resolve() : reject(childFailure(what, signal ?? `exit ${code}`, stderr)),
    )
  })
}
