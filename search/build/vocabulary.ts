/**
 * The correction vocabulary: the articles' words as readers type them, for the search page to
 * correct a query word that matches nothing (search/browser/search-typos.js). Pagefind's word
 * index holds stems ("evict"), too short to correct "evicton" to within an edit, so the words are
 * counted from the pages' fragments (title and text). Built in three steps, each reused while its
 * input is: per shard, by its score process, `vocabulary.json.gz` beside its scores (each word
 * with the number of the shard's pages holding it); per group of shards, their counts summed
 * (groups.ts); per index, the groups' summed and cut by letter into `vocabulary/` (listed in
 * shards.json), so that correcting a word fetches a few small files (four for one edit, up to
 * nine for two), never the whole vocabulary.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
// The page folds a query word as the vocabulary keeps its words: one function for both.
import { foldWord } from '../browser/search-typos.js'

export const VOCABULARY_FILE = 'vocabulary.json.gz'
export const VOCABULARY_DIR = 'vocabulary'
/** Words outside these lengths are never a correction: the page corrects words of 5 letters and more. */
const MIN_LETTERS = 4
const MAX_LETTERS = 24
const WORD = /[\p{L}\p{N}]+/gu
const LETTER = /\p{L}/u

/** Adds each word of one page's `text` once to `counts`. */
export function countPageWords(text: string, counts: Map<string, number>): void {
  const seen = new Set<string>()
  for (const [match] of text.matchAll(WORD)) {
    const word = foldWord(match)
    if (word.length < MIN_LETTERS || word.length > MAX_LETTERS || !LETTER.test(word) || seen.has(word)) continue
    seen.add(word)
    counts.set(word, (counts.get(word) ?? 0) + 1)
  }
}

export function writeVocabulary(dir: string, counts: ReadonlyMap<string, number>): void {
  writeFileSync(join(dir, VOCABULARY_FILE), gzipSync(JSON.stringify(Object.fromEntries(counts)), { level: 4 }))
}

export function readVocabulary(dir: string): Map<string, number> {
  return new Map(Object.entries(JSON.parse(gunzipSync(readFileSync(join(dir, VOCABULARY_FILE))).toString())))
}

/** The vocabularies in `dirs`, summed. */
export function mergeVocabularies(dirs: readonly string[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const dir of dirs) for (const [word, n] of readVocabulary(dir)) out.set(word, (out.get(word) ?? 0) + n)
  return out
}

/**
 * The index's vocabulary files, by letter: `first` holds the words starting with a letter,
 * `second` those whose second letter it is, `third` those whose third. A word within k edits of
 * a query word has one of its first k + 1 letters at one of the query's first k + 1 places
 * (search-typos.js).
 */
export interface VocabularyFiles {
  first: Record<string, string>
  second: Record<string, string>
  third: Record<string, string>
}

/** Writes `counts` cut by letter into `outDir/vocabulary/`, files named by their bytes. */
export function writeIndexVocabulary(outDir: string, counts: ReadonlyMap<string, number>): VocabularyFiles {
  const parts = [0, 1, 2].map(() => new Map<string, Array<[string, number]>>())
  const add = (part: Map<string, Array<[string, number]>>, letter: string, entry: [string, number]) => {
    let list = part.get(letter)
    if (!list) part.set(letter, (list = []))
    list.push(entry)
  }
  for (const [word, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const [i, letter] of [...word].slice(0, parts.length).entries()) add(parts[i]!, letter, [word, n])
  }
  const dir = join(outDir, VOCABULARY_DIR)
  mkdirSync(dir, { recursive: true })
  const write = (part: Map<string, Array<[string, number]>>) => {
    const files: Record<string, string> = {}
    for (const [letter, list] of part) {
      const bytes = gzipSync(JSON.stringify(Object.fromEntries(list)))
      const name = createHash('sha256').update(bytes).digest('hex').slice(0, 20)
      writeFileSync(join(dir, `${name}.pf_vocab`), bytes)
      files[letter] = name
    }
    return files
  }
  const [first, second, third] = parts.map(write)
  return { first: first!, second: second!, third: third! }
}
