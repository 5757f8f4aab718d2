import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  countPageWords,
  mergeVocabularies,
  VOCABULARY_DIR,
  writeIndexVocabulary,
  writeVocabulary,
} from '../../search/build/vocabulary.ts'
import { typoDistance } from '../../post-index/search-terms.ts'
import { nearWords } from '../../post-index/typo-corrections.ts'
import {
  correctFrom,
  correctWord,
  editDistance,
  foldWord,
  maxEdits,
  vocabularyFiles,
} from '../../search/browser/search-typos.js'
import { tempDir } from '../support/temp.ts'

/**
 * Typo correction (issue 39): the vocabulary the build writes, cut by letter, and the page's
 * choice of a correction from the few files a word needs.
 */
describe('the edit distance', () => {
  it('counts insertions, deletions, substitutions and a swap of neighbours as one edit each', () => {
    expect(editDistance('evicton', 'eviction', 2)).toBe(1)
    expect(editDistance('eviction', 'evicton', 2)).toBe(1)
    expect(editDistance('evixtion', 'eviction', 2)).toBe(1)
    expect(editDistance('evcition', 'eviction', 2)).toBe(1)
    expect(editDistance('hyperloglg', 'hyperloglog', 2)).toBe(1)
    expect(editDistance('cardnality', 'cardinality', 2)).toBe(1)
    expect(editDistance('kitten', 'sitting', 5)).toBe(3)
  })

  it('stops past the bound', () => {
    expect(editDistance('qwertyuiop', 'question', 2)).toBe(3)
    expect(editDistance('abc', 'abcdef', 1)).toBe(2)
  })

  it('allows one edit from 5 letters, two from 9', () => {
    expect([4, 5, 8, 9, 12].map(maxEdits)).toEqual([0, 1, 1, 2, 2])
  })

  it('holds the page to the rule of the API (post-index/search-terms.ts), which the browser cannot import', () => {
    for (let letters = 1; letters <= 30; letters++) expect(maxEdits(letters)).toBe(typoDistance('a'.repeat(letters)))
  })

  it('corrects every typo to the same word in the API as on the page, a swap of neighbours one edit in both', async () => {
    // Counts all apart, so that the commonest of words as near is one word in both.
    const vocabulary: Record<string, number> = {
      eviction: 40,
      evictions: 3,
      cardinality: 12,
      replication: 9,
      replica: 20,
      hyperloglog: 5,
      latency: 7,
      skewed: 11,
      quorum: 2,
      partition: 8,
    }
    const terms = Object.keys(vocabulary)
    const near = nearWords({ terms, frequency: Int32Array.from(terms, (t) => vocabulary[t]!) })
    // Of two edits, one in 13: enough of each kind, in a few seconds.
    let compared = 0
    let swaps = 0
    for (const word of terms)
      for (const once of edits(word))
        for (const typo of maxEdits(word.length) === 2
          ? [once, ...[...edits(once)].filter((_, i) => i % 13 === 0)]
          : [once]) {
          // A word some word starts with matches as typed: neither corrects it.
          if (terms.some((t) => t.startsWith(typo))) continue
          const page = correctWord(typo, [vocabulary])
          expect(near(typo)?.best, `${typo} (from ${word})`).toBe(page)
          compared++
          if (page && editDistance(typo, page, 2) < levenshtein(typo, page)) swaps++
        }
    expect(compared).toBeGreaterThan(10_000)
    expect(swaps).toBeGreaterThan(100)

    // The site looks a word up in the vocabulary files its first letters name: two edits both in
    // the first two letters find in them the API's word, which the files of one edit may lack.
    const out = tempDir('vocab-api')
    const files = writeIndexVocabulary(out, new Map(Object.entries(vocabulary)))
    const load = async (name: string) => readFile(out, name)
    let inPrefix = 0
    let beyondOneEdit = 0
    for (const word of terms.filter((t) => maxEdits(t.length) === 2))
      for (const typo of inFirstLetters(word, 2, 2)) {
        if (maxEdits(typo.length) < 2 || terms.some((t) => t.startsWith(typo))) continue
        const api = near(typo)?.best
        expect(await correctFrom(typo, files, load), `${typo} (from ${word})`).toBe(api)
        inPrefix++
        const oneEdit = vocabularyFiles(files, typo, 1).map((name: string) => readFile(out, name))
        if (correctWord(typo, oneEdit) !== api) beyondOneEdit++
      }
    expect(inPrefix).toBeGreaterThan(5_000)
    expect(beyondOneEdit).toBeGreaterThan(100)
  })
})

/** One of the vocabulary files written under `dir`. */
function readFile(dir: string, name: string): Record<string, number> {
  return JSON.parse(gunzipSync(readFileSync(join(dir, VOCABULARY_DIR, `${name}.pf_vocab`))).toString())
}

/** Every word `count` edits (each of `edits`) from `word` that all fall in its first `size` letters. */
function inFirstLetters(word: string, count: number, size: number, letters?: string): Set<string> {
  let heads = new Set([word.slice(0, size)])
  for (let i = 0; i < count; i++) heads = new Set([...heads].flatMap((head) => [...edits(head, letters)]))
  return new Set([...heads].map((head) => head + word.slice(size)))
}

/** Levenshtein's distance, which counts a swap of neighbours as two edits. */
function levenshtein(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++)
      next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)))
    row = next
  }
  return row[b.length]!
}

/** Every word one edit from `word`: a letter of `letters` put in or changed, one taken out, or two neighbours swapped. */
function edits(word: string, letters = 'aceilnorstuy'): Set<string> {
  const out = new Set<string>()
  for (let i = 0; i <= word.length; i++) {
    for (const c of letters) out.add(word.slice(0, i) + c + word.slice(i))
    if (i < word.length) {
      out.add(word.slice(0, i) + word.slice(i + 1))
      for (const c of letters) out.add(word.slice(0, i) + c + word.slice(i + 1))
      if (i + 1 < word.length) out.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2))
    }
  }
  out.delete(word)
  return out
}

describe('the vocabulary', () => {
  it('counts each word once per page, folded, of 4 to 24 letters', () => {
    const counts = new Map<string, number>()
    countPageWords('García García eviction, W-TinyLFU 2019 cat', counts)
    countPageWords('Garcia EVICTION', counts)
    expect(Object.fromEntries(counts)).toEqual({ garcia: 2, eviction: 2, tinylfu: 1 })
    expect(foldWord('Naïve')).toBe('naive')
  })

  it('is summed per group and cut by first, second and third letter, each file named by its bytes', () => {
    const [a, b, out] = [tempDir('vocab-a'), tempDir('vocab-b'), tempDir('vocab-out')]
    writeVocabulary(
      a,
      new Map([
        ['eviction', 2],
        ['cache', 1],
      ]),
    )
    writeVocabulary(
      b,
      new Map([
        ['eviction', 1],
        ['vector', 4],
      ]),
    )
    const merged = mergeVocabularies([a, b])
    expect(Object.fromEntries(merged)).toEqual({ eviction: 3, cache: 1, vector: 4 })
    const files = writeIndexVocabulary(out, merged)
    const read = (name: string) =>
      JSON.parse(gunzipSync(readFileSync(join(out, VOCABULARY_DIR, `${name}.pf_vocab`))).toString())
    expect(read(files.first.e!)).toEqual({ eviction: 3 })
    // Second letter "e": "vector"; "v": "eviction".
    expect(read(files.second.e!)).toEqual({ vector: 4 })
    expect(read(files.second.v!)).toEqual({ eviction: 3 })
    expect(read(files.third.c!)).toEqual({ cache: 1, vector: 4 })
    // Eight lists, four contents: a file is named by its bytes, so lists alike share it.
    expect(files.first.e).toBe(files.second.v)
    expect(files.third.i).toBe(files.second.v)
    expect(readdirSync(join(out, VOCABULARY_DIR))).toHaveLength(4)
  })
})

describe('a correction', () => {
  const vocabulary = { eviction: 40, evictions: 3, cardinality: 12, replication: 9, replica: 20, hyperloglog: 5 }

  it('is the nearest word, within one edit from 5 letters and two from 9', () => {
    expect(correctWord('evicton', [vocabulary])).toBe('eviction')
    expect(correctWord('replicaton', [vocabulary])).toBe('replication')
    expect(correctWord('cardinalty', [vocabulary])).toBe('cardinality')
    expect(correctWord('hyprloglg', [vocabulary])).toBe('hyperloglog')
    // Four letters: never corrected.
    expect(correctWord('evic', [vocabulary])).toBeUndefined()
  })

  it('is the most common of words as near', () => {
    expect(correctWord('evictios', [{ evictions: 3, eviction: 40 }])).toBe('eviction')
  })

  it('is none for a word some word starts with, nor for gibberish', () => {
    expect(correctWord('evict', [vocabulary])).toBeUndefined()
    expect(correctWord('qwertyuiop', [vocabulary])).toBeUndefined()
    expect(correctWord('zzxqv', [vocabulary])).toBeUndefined()
  })

  it('finds every word within one edit, or two, in the files the typed word names', () => {
    const words = ['eviction', 'cardinality', 'zebra', 'abacus', 'quorum', 'hyperloglog']
    const out = tempDir('vocab-edits')
    const files = writeIndexVocabulary(out, new Map(words.map((w) => [w, 1])))
    const read = new Map<string, string[]>()
    const held = (typo: string, reach: number) =>
      vocabularyFiles(files, typo, reach).flatMap((name: string) => {
        if (!read.has(name)) read.set(name, Object.keys(readFile(out, name)))
        return read.get(name)!
      })
    const alphabet = 'abcdefghijklmnopqrstuvwxyz'
    for (const word of words) {
      for (const typo of edits(word, alphabet)) expect(held(typo, 1), `${typo} -> ${word}`).toContain(word)
      if (maxEdits(word.length) < 2) continue
      // Two edits among the first three letters (where they change which files a word is in),
      // or one there and one after.
      const twice = [
        ...inFirstLetters(word, 2, 3, alphabet),
        ...[...edits(word, 'xz')].flatMap((w) => [...edits(w, 'q')]),
      ]
      for (const typo of twice)
        if (editDistance(typo, word, 2) <= 2) expect(held(typo, 2), `${typo} -> ${word}`).toContain(word)
    }
    // An index written before the third letter was kept: one edit's files still.
    expect(vocabularyFiles({ first: files.first, second: files.second }, 'cardinalty', 2)).toEqual(
      vocabularyFiles(files, 'cardinalty', 1),
    )
  })
})
