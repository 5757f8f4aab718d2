import { mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { sharedStore } from '../../scripts/builder/dist.ts'
import {
  type GroupEntry,
  groupBits,
  groupOf,
  mergeGroup,
  planGroups,
  writeSearchGroups,
} from '../../search/build/groups.ts'
import { BLOCK_FILES, groupEntry, SIGNATURE } from '../../search/formats/group-file.ts'
import { SCORES_DIR } from '../../search/build/scores.ts'
import type { ShardStats } from '../../search/pagefind/adapter.ts'
import { filesFor, readGroupWords, unpackList } from '../../search/browser/search-group-file.js'
import { chunksOf } from '../../search/browser/search-rank.js'
import { readVocabulary, VOCABULARY_FILE, writeVocabulary } from '../../search/build/vocabulary.ts'
import { tempDir } from '../support/temp.ts'

/**
 * Score groups: the score files of several shards merged into one index cut by word range
 * (search/build/groups.ts), which the browser reads in place of the shards' own.
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
  // Its vocabulary, as the score process writes it beside the scores: each word on one page.
  writeVocabulary(dir, new Map(words.map((w) => [w, 1])))
  return names
}

/** A list of a group file as a score file gives it: page difference, weight, fields, … */
function scoreList(list: Parameters<typeof unpackList>[0]): number[] {
  const into = { pages: new Int32Array(0), weights: new Float64Array(0), fields: new Int32Array(0) }
  const out: number[] = []
  for (let i = 0, n = unpackList(list, into); i < n; i++)
    out.push(into.pages[i]! - (i > 0 ? into.pages[i - 1]! : 0), into.weights[i]!, into.fields[i]!)
  return out
}

/** A group's files, read back as the browser reads them: each file's words and, per shard's name, lists. */
const readGroup = (dir: string, files: readonly string[], shards: readonly string[]) =>
  files.map((f) => {
    const words: Record<string, Record<string, number[]>> = {}
    readGroupWords(gunzipSync(readFileSync(join(dir, `${f}.pf_group`))), '', (word, shard, list) => {
      ;(words[word] ??= {})[shards[shard]!] = scoreList(list)
    })
    return words
  })

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
  const files = readGroup(
    out,
    merged.files,
    shards.map((s) => s.name),
  )

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

  it('packs every BLOCK_FILES small files together again as a block, and fetches a block for two of them', () => {
    expect(merged.blockFiles).toBe(BLOCK_FILES)
    expect(merged.blocks.length).toBe(Math.ceil(merged.files.length / BLOCK_FILES))
    for (const [b, block] of merged.blocks.entries()) {
      const own = files.slice(b * BLOCK_FILES, (b + 1) * BLOCK_FILES)
      const [read] = readGroup(
        out,
        [block],
        shards.map((s) => s.name),
      )
      expect(read).toEqual(Object.assign({}, ...own))
    }
    const f = Array.from({ length: 10 }, (_, i) => `f${i}`)
    const blocks = ['b0', 'b1', 'b2']
    const entry = { files: f, blocks, blockFiles: 4 }
    // One file of a block: that file; two or more: the block; across a block's edge, per block.
    expect(filesFor(entry, [1])).toEqual([f[1]])
    expect(filesFor(entry, [1, 2])).toEqual([blocks[0]])
    expect(filesFor(entry, [3, 4])).toEqual([f[3], f[4]])
    expect(filesFor(entry, [2, 3, 4, 5, 6])).toEqual([blocks[0], blocks[1]])
    expect(filesFor(entry, [])).toEqual([])
    // Blocks of another size pair as the group says; an index without blocks: the small files.
    expect(filesFor({ files: f, blocks, blockFiles: 2 }, [1, 2, 3])).toEqual([f[1], blocks[1]])
    expect(filesFor({ files: f }, [1, 2])).toEqual([f[1], f[2]])
  })

  it('finds, for every prefix, every word starting with it in the files chunksOf names, and only those', () => {
    const all = files.flatMap((f) => Object.keys(f))
    const prefixes = new Set(all.flatMap((w) => [w.slice(0, 1), w.slice(0, 2), w.slice(0, 3)]))
    let spanning = 0
    for (const stem of [...prefixes, 'zzzzzz', '', '/']) {
      const at = chunksOf(merged.first, stem)
      if (at.length > 1) spanning++
      const found = new Set<string>()
      for (const i of at)
        readGroupWords(gunzipSync(readFileSync(join(out, `${merged.files[i]}.pf_group`))), stem, (word) =>
          found.add(word),
        )
      expect([...found].sort(), stem).toEqual(all.filter((w) => w.startsWith(stem)).sort())
    }
    expect(spanning).toBeGreaterThan(0)
  })
})

describe('a score group file', () => {
  const file = (...entries: Buffer[]) => Buffer.concat([SIGNATURE, ...entries])
  const read = (bytes: Uint8Array, stem = '') => {
    const out: [string, number, number[]][] = []
    readGroupWords(bytes, stem, (word, shard, list) => out.push([word, shard, scoreList(list)]))
    return out
  }

  it('reads back numbers of any size a score can take, weights in any unit, and words in any script', () => {
    // Page differences, weights and field bits: one byte, two, three, the largest of each.
    const big = [0, 300, 5, 127, 2 ** 40, 2 ** 31 - 1, 16_383, 16_384, 3, 128, 0, 1, 24, 0, 0]
    const bytes = file(
      groupEntry('z', [[0, [1, 24, 0]]]),
      groupEntry('ça', [
        [3, big],
        [200, [0, 0, 0]],
        [201, [0, 48, 0, 5, 48, 0, 2, 96, 1, 1, 0, 0]],
      ]),
      groupEntry('数学', [[1, [7, 48, 1]]]),
    )
    expect(read(bytes)).toEqual([
      ['z', 0, [1, 24, 0]],
      ['ça', 3, big],
      ['ça', 200, [0, 0, 0]],
      ['ça', 201, [0, 48, 0, 5, 48, 0, 2, 96, 1, 1, 0, 0]],
      ['数学', 1, [7, 48, 1]],
    ])
    expect(read(bytes, 'ç').map(([word, shard]) => [word, shard])).toEqual([
      ['ça', 3],
      ['ça', 200],
      ['ça', 201],
    ])
    expect(read(bytes, '数')).toEqual([['数学', 1, [7, 48, 1]]])
    expect(read(bytes, 'x')).toEqual([])
  })

  it('takes most pages in one byte', () => {
    // Of Pagefind's unit, no fields: a byte per page, past the word's and list's heads.
    const pages = Array.from({ length: 100 }, () => [3, 24, 0]).flat()
    expect(groupEntry('w', [[0, pages]]).length).toBeLessThanOrEqual(100 + 10)
  })

  it('refuses what is not a group file, or is cut short, with a clear error', () => {
    const whole = file(groupEntry('abc', [[0, [1, 24, 0, 2, 24, 0]]]))
    expect(() => read(gzipSync(whole))).toThrow('not a search score group file')
    expect(() => read(Buffer.from('{"abc":{}}'))).toThrow('not a search score group file')
    expect(() => read(whole.subarray(0, whole.length - 2))).toThrow('cut short')
    // A list claiming more pages than it has bytes: word "a", one list of shard 0, 200 pages in 2 bytes.
    const forged = file(Buffer.from([1, 0x61, 8, 1, 0, 200, 1, 48, 2, 2, 2]))
    expect(() => read(forged)).toThrow('a list runs past its entry')
    expect(() => read(file(Buffer.from([0xff, 0xff, 0xff])))).toThrow('cut short')
    expect(() => groupEntry('abc', [[0, [1, 24]]])).toThrow('not of triples')
    expect(() => groupEntry('abc', [[0, [1, -24, 0]]])).toThrow('not a count or score')
    expect(() => groupEntry('abc', [[0, [1, 2.5, 0]]])).toThrow('not a count or score')
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
    // A group's vocabulary: its shards' summed, each word counted on the pages of both.
    const vocabulary = readVocabulary(join(first.dir, 'g1-0'))
    for (const seed of [1, 2])
      for (const word of Object.keys(shardScores(seed))) expect(vocabulary.get(word)).toBeGreaterThan(0)
    const both = Object.keys(shardScores(1)).filter((w) => w in shardScores(2))
    for (const word of both) expect(vocabulary.get(word)).toBe(2)
    expect(vocabulary.size).toBe(new Set([...Object.keys(shardScores(1)), ...Object.keys(shardScores(2))]).size)
    // Shard 2-3 changed: its group is merged again; the other is the live build's folder.
    const second = write('b2', [1, 2, 3, 5], first)
    expect(second.merged).toBe(1)
    const link = (b: { dir: string }, g: string) => readlinkSync(join(b.dir, g))
    expect(link(second, 'g1-0')).toBe(link(first, 'g1-0'))
    expect(link(second, 'g1-1')).not.toBe(link(first, 'g1-1'))
    expect(second.entries[0]).toEqual(first.entries[0])
    const listed = (b: { dir: string }, g: GroupEntry) =>
      readdirSync(join(b.dir, g.name)).filter((f) => f !== 'group.json' && f !== VOCABULARY_FILE)
    expect(listed(second, second.entries[1]!).sort()).toEqual(
      second.entries[1]!.files.map((f) => `${f}.pf_group`).sort(),
    )
    expect(second.entries[1]!.files).not.toEqual(first.entries[1]!.files)
  })
})
