import { mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { sharedStore } from '../../scripts/build/dist.ts'
import {
  type GroupEntry,
  groupBits,
  groupOf,
  mergeGroup,
  planGroups,
  writeSearchGroups,
} from '../../scripts/build/search-groups.ts'
import { SCORES_DIR } from '../../scripts/build/search-scores.ts'
import type { ShardStats } from '../../scripts/build/search-stats.ts'
import { chunksOf } from '../../site/public/scripts/search-rank.js'
import { tempDir } from '../support/temp.ts'

/**
 * Score groups: the score files of several shards merged into one index cut by word range
 * (scripts/build/search-groups.ts), which the browser reads in place of the shards' own.
 */
type Scores = Record<string, number[]>

/** A made-up shard's scores: words of a few letters, some integer-like or accented, on some of its pages. */
function shardScores(seed: number, words = 600): Scores {
  let x = seed
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  const letters = 'abcdeéz0129'
  const out: Scores = {}
  for (let i = 0; i < words; i++) {
    const length = 1 + Math.floor(next() * 5)
    const word = Array.from({ length }, () => letters[Math.floor(next() * letters.length)]).join('')
    out[word] = Array.from({ length: 1 + Math.floor(next() * 4) }, () => [1 + Math.floor(next() * 9), 24, 0]).flat()
  }
  return out
}

/** Writes a shard folder whose score files cut `scores` into chunks of `perChunk` words; returns its score files. */
function writeShard(dir: string, scores: Scores, perChunk = 70): string[] {
  mkdirSync(join(dir, SCORES_DIR), { recursive: true })
  const words = Object.keys(scores).sort((a, b) => (a < b ? -1 : 1))
  const names: string[] = []
  for (let at = 0; at < words.length; at += perChunk) {
    const name = `chunk${at}`
    const chunk = Object.fromEntries(words.slice(at, at + perChunk).map((w) => [w, scores[w]!]))
    writeFileSync(join(dir, SCORES_DIR, `${name}.pf_score`), gzipSync(JSON.stringify(chunk)))
    names.push(name)
  }
  return names
}

/** A group's files, read back: each file's words and lists. */
const readGroup = (dir: string, files: readonly string[]) =>
  files.map(
    (f) =>
      JSON.parse(gunzipSync(readFileSync(join(dir, `${f}.pf_group`))).toString()) as Record<
        string,
        Record<string, number[]>
      >,
  )

describe('a score group', () => {
  const tmp = tempDir('search-groups')
  const shards = ['3-0', '3-1', '3-2'].map((name, i) => {
    const scores = shardScores(i + 1)
    const dir = join(tmp, 'shards', name)
    return { name, dir, scores, files: writeShard(dir, scores) }
  })
  const out = join(tmp, 'group')
  const target = 2048
  const merged = mergeGroup(
    shards.map(({ name, dir, files }) => ({ name, dir, scores: files })),
    out,
    target,
  )
  const files = readGroup(out, merged.files)

  it("holds every shard's scores, each word once, in order, and nothing else", () => {
    expect(merged.files.length).toBeGreaterThan(3)
    const words = files.flatMap((f) => Object.keys(f).sort((a, b) => (a < b ? -1 : 1)))
    expect(words).toEqual([...new Set(shards.flatMap((s) => Object.keys(s.scores)))].sort((a, b) => (a < b ? -1 : 1)))
    for (const [i, first] of merged.first.entries()) expect(Object.keys(files[i]!)).toContain(first)
    for (const { name, scores } of shards) {
      const back: Scores = {}
      for (const file of files)
        for (const [word, lists] of Object.entries(file)) if (lists[name]) back[word] = lists[name]
      expect(back).toEqual(scores)
    }
  })

  it('keeps each file within the size target, and names it by its bytes', () => {
    for (const [i, name] of merged.files.entries()) {
      const size = statSync(join(out, `${name}.pf_group`)).size
      expect(size).toBeLessThanOrEqual(target)
      // Cut near the target, but the last.
      if (i < merged.files.length - 1) expect(size).toBeGreaterThan(target / 2)
    }
    // The same shards merged again: the same files.
    expect(
      mergeGroup(
        shards.map(({ name, dir, files }) => ({ name, dir, scores: files })),
        join(tmp, 'again'),
        target,
      ),
    ).toEqual(merged)
  })

  it('finds, for every prefix, every word starting with it in the files chunksOf names', () => {
    const all = files.flatMap((f) => Object.keys(f))
    const prefixes = new Set(all.flatMap((w) => [w.slice(0, 1), w.slice(0, 2), w.slice(0, 3)]))
    let spanning = 0
    for (const stem of [...prefixes, 'zzzzzz', '', '/']) {
      const at = chunksOf(merged.first, stem)
      if (at.length > 1) spanning++
      const found = at.flatMap((i) => Object.keys(files[i]!)).filter((w) => w.startsWith(stem))
      expect(found.sort(), stem).toEqual(all.filter((w) => w.startsWith(stem)).sort())
    }
    expect(spanning).toBeGreaterThan(0)
  })
})

describe('score groups of a build', () => {
  it('groups shards by their top bits, about GROUP_ARTICLES articles a group', () => {
    expect(groupOf('6-2a', 3)).toBe('g3-5')
    expect(groupOf('6-2a', 0)).toBe('g0-0')
    expect(groupOf('9-1e2', 5)).toBe('g5-1e')
    expect(groupBits(40, 3)).toBe(0)
    expect(groupBits(50_000, 6)).toBe(3)
    expect(groupBits(50_000, 2)).toBe(2)
  })

  it('merges again only the group of a changed shard, and links the others from the live build', () => {
    const tmp = tempDir('search-groups-build')
    const names = ['2-0', '2-1', '2-2', '2-3']
    const write = (id: string, seeds: number[], previous?: { dir: string; groups: Record<string, string> }) => {
      const outDir = join(tmp, 'builds', id, 'site', 'pagefind')
      const stats: Record<string, ShardStats> = {}
      const plan = new Map(
        names.map((name, i) => {
          const scores = writeShard(join(outDir, name), shardScores(seeds[i]!))
          stats[name] = { scores } as ShardStats
          return [name, { key: `key of ${seeds[i]}` }] as const
        }),
      )
      const groups = planGroups(plan, 1)
      const written = writeSearchGroups({
        outDir,
        previousDir: previous?.dir,
        previous: previous?.groups,
        store: sharedStore(tmp, 'search', 'config', id),
        groups,
        stats,
      })
      const keys = Object.fromEntries([...groups].map(([name, g]) => [name, g.key]))
      return { dir: outDir, groups: keys, ...written }
    }
    const first = write('b1', [1, 2, 3, 4])
    expect(first.merged).toBe(2)
    expect(first.entries.map((g) => [g.name, g.shards])).toEqual([
      ['g1-0', ['2-0', '2-1']],
      ['g1-1', ['2-2', '2-3']],
    ])
    // Shard 2-3 changed: its group is merged again; the other is the live build's folder.
    const second = write('b2', [1, 2, 3, 5], first)
    expect(second.merged).toBe(1)
    const link = (b: { dir: string }, g: string) => readlinkSync(join(b.dir, g))
    expect(link(second, 'g1-0')).toBe(link(first, 'g1-0'))
    expect(link(second, 'g1-1')).not.toBe(link(first, 'g1-1'))
    expect(second.entries[0]).toEqual(first.entries[0])
    const listed = (b: { dir: string }, g: GroupEntry) =>
      readdirSync(join(b.dir, g.name)).filter((f) => f !== 'group.json')
    expect(listed(second, second.entries[1]!).sort()).toEqual(
      second.entries[1]!.files.map((f) => `${f}.pf_group`).sort(),
    )
    expect(second.entries[1]!.files).not.toEqual(first.entries[1]!.files)
  })
})
