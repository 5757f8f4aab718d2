/**
 * Score groups: the scores of consecutive search shards (search/build/scores.ts), merged into one index
 * cut by word range, so that the browser fetches for a query term one file per group (or the few
 * a prefix spans) rather than one per shard and word-index chunk: each request costs the browser
 * far more than the bytes it carries.
 *
 * A group holds the shards whose names share their top `bits` bits (`g<bits>-<n>`, as shard names
 * are `<bits>-<n>`). Its folder holds files `<hash>.pf_group`, each gzip (RFC 1952) of the
 * binary entries of search/formats/group-file.ts: every word of the group's shards in a range, in
 * JavaScript's string order, with each shard's list as its score file gives it. Files are cut at
 * about GROUP_FILE_BYTES packed, and named by a hash of their bytes: a group merged again from
 * the same shards makes the same files. `shards.json` lists per group its format, its shards and,
 * per file, its first word and name (as does `group.json` in the group's folder); the files that
 * may hold a prefix's words are the one it falls in and those after it whose first word starts
 * with it (search-rank.js, chunksOf). A group whose shards are unchanged is the live build's
 * folder, linked; an edit merges again only its shard's group.
 *
 * A group is merged one word at a time, one score file per shard in memory, once the shard
 * processes have exited: well within the memory planned for them. At 50,000 articles a group
 * of 8 shards takes about 2 s of CPU, packing most of it.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { GROUP_FORMAT } from '../browser/search-group-file.js'
import { BLOCK_FILES, GROUP_FILE_BYTES, groupEntry, type GroupFiles, GroupWriter } from '../formats/group-file.ts'
import { SCORES_DIR } from './scores.ts'
import { mergeVocabularies, writeVocabulary } from './vocabulary.ts'
import type { ShardStats } from '../pagefind/adapter.ts'

/** Articles per group at most, about: fewer groups, fewer requests per term; more to merge after an edit. */
export const GROUP_ARTICLES = 8000
/** Bump when what a group file holds changes: every group is merged again. */
const GROUP_VERSION = GROUP_FORMAT

/** How many of the `shardBits` top bits name a group of `count` articles' shards. */
export function groupBits(count: number, shardBits: number): number {
  // As shards are sized: the largest of several groups holds about a fifth above the mean.
  const bits = count <= GROUP_ARTICLES ? 0 : Math.ceil(Math.log2((count * 1.2) / GROUP_ARTICLES))
  return Math.min(bits, shardBits)
}

/** The group of a shard (`<bits>-<hex>`): its top `bits` bits. */
export function groupOf(shard: string, bits: number): string {
  const [shardBits, hex] = shard.split('-') as [string, string]
  const top = Number.parseInt(hex, 16) >>> (Number(shardBits) - bits)
  return `g${bits}-${top.toString(16).padStart(Math.ceil(bits / 4), '0')}`
}

/** A group as `shards.json` lists it. */
export interface GroupEntry extends GroupFiles {
  name: string
  /** The format of its files (search-group-file.js): a browser reads only the one it knows. */
  format: number
  shards: string[]
}

/** The file in a group's folder that lists it (GroupEntry). */
const GROUP_FILE = 'group.json'

/** Each group's shards (in order) and key: a group is merged again only when its key changes. */
export type GroupPlan = Map<string, { key: string; shards: string[] }>

/** The groups of shards named with their keys (`shards`, in the order of their names). */
export function planGroups(shards: ReadonlyMap<string, { key: string }>, bits: number): GroupPlan {
  const groups: GroupPlan = new Map()
  for (const name of shards.keys()) {
    const group = groupOf(name, bits)
    let g = groups.get(group)
    if (!g) groups.set(group, (g = { key: '', shards: [] }))
    g.shards.push(name)
  }
  for (const g of groups.values()) {
    // The files' cut and blocks are part of what a group holds: merged again when they change.
    const h = createHash('sha256').update(`group ${GROUP_VERSION} ${GROUP_FILE_BYTES} ${BLOCK_FILES}`)
    for (const name of g.shards) h.update(`\0${name}:${shards.get(name)!.key}`)
    g.key = h.digest('hex')
  }
  return groups
}

/** The group of the delta shard (search-delta.ts): that shard alone, `g<shard>`. */
export function deltaGroup(shard: string, key: string): [string, { key: string; shards: string[] }] {
  const h = createHash('sha256').update(`group ${GROUP_VERSION} ${GROUP_FILE_BYTES} ${BLOCK_FILES}`)
  return [`g${shard}`, { key: h.update(`\0${shard}:${key}`).digest('hex'), shards: [shard] }]
}

/**
 * Where a group merged anew is made: a folder shared by builds (the build's store,
 * scripts/builder/dist.ts), and the link to it from a build's site/pagefind/.
 */
export interface SharedStore {
  folder(name: string): { path: string; link: string }
}

export interface WriteGroupsOptions {
  /** site/pagefind of the new build, holding a link per shard. */
  outDir: string
  /** site/pagefind of the live build, whose unchanged groups are linked. */
  previousDir?: string
  /** The live build's groups: name to key. */
  previous?: Record<string, string>
  store: SharedStore
  groups: GroupPlan
  /** Each shard's figures (search/pagefind/adapter.ts): its score files. */
  stats: Record<string, ShardStats>
  log?: (line: string) => void
}

/** Links or merges every group; returns them as `shards.json` lists them, and how many were merged. */
export function writeSearchGroups(o: WriteGroupsOptions): { entries: GroupEntry[]; merged: number } {
  let merged = 0
  const entries = [...o.groups].map(([name, group]): GroupEntry => {
    const live = o.previousDir && join(o.previousDir, name)
    if (live && o.previous?.[name] === group.key && existsSync(join(live, GROUP_FILE)))
      symlinkSync(readlinkSync(live), join(o.outDir, name))
    else {
      const { path, link } = o.store.folder(name)
      const started = performance.now()
      const shards = group.shards.map((shard) => ({ name: shard, dir: join(o.outDir, shard), ...o.stats[shard]! }))
      const entry: GroupEntry = { name, format: GROUP_FORMAT, shards: group.shards, ...mergeGroup(shards, path) }
      writeVocabulary(path, mergeVocabularies(shards.map((s) => s.dir)))
      writeFileSync(join(path, GROUP_FILE), JSON.stringify(entry))
      symlinkSync(link, join(o.outDir, name))
      merged++
      o.log?.(`search group ${name}: ${entry.files.length} files in ${Math.round(performance.now() - started)} ms`)
    }
    return JSON.parse(readFileSync(join(o.outDir, name, GROUP_FILE), 'utf8')) as GroupEntry
  })
  return { entries, merged }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** A shard's words in order, each with its list: one score file read at a time. */
function* shardWords(dir: string, scores: readonly string[]): Generator<[string, number[]]> {
  for (const name of scores) {
    const chunk = JSON.parse(gunzipSync(readFileSync(join(dir, SCORES_DIR, `${name}.pf_score`))).toString()) as Record<
      string,
      number[]
    >
    // Sorted again: JSON objects put integer-like keys ("2019") first.
    for (const word of Object.keys(chunk).sort(compare)) yield [word, chunk[word]!]
  }
}

/** A shard to merge: its name, folder and score files in the order of their chunks' first words. */
export interface GroupShard {
  name: string
  dir: string
  scores: readonly string[]
}

/** Merges the shards' scores into `outDir` (created); returns its files. */
export function mergeGroup(shards: readonly GroupShard[], outDir: string, target = GROUP_FILE_BYTES): GroupFiles {
  mkdirSync(outDir, { recursive: true })
  const out = new GroupWriter(outDir, target)
  const cursors = shards.map((s) => shardWords(s.dir, s.scores))
  const heads = cursors.map((c) => c.next())
  for (;;) {
    let word: string | undefined
    for (const head of heads) if (!head.done && (word === undefined || head.value[0] < word)) word = head.value[0]
    if (word === undefined) break
    const lists: [number, number[]][] = []
    for (const [i, head] of heads.entries()) {
      if (head.done || head.value[0] !== word) continue
      lists.push([i, head.value[1]])
      heads[i] = cursors[i]!.next()
    }
    out.add(word, groupEntry(word, lists))
  }
  return out.end()
}
