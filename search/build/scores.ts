/**
 * The scores of a shard of the search index, for the browser to rank without asking Pagefind.
 * Pagefind answers a search with every place each matching word occurs on every page (tens of
 * megabytes of JSON for a word on every page of a shard); the ranking needs, per word and page,
 * only the sum of the weights of those places and which ranked metadata fields (the title) hold
 * the word. They are read here from the shard's word index (pagefind_web/src/index.rs: each chunk
 * a CBOR array of words, each [word, pages, variants], a page [page number delta, places,
 * metadata places], places a list of position deltas in which a negative number -(w + 1) sets the
 * weight w of the places after it, metadata places the same with -(field + 1) naming the field;
 * a variant, the same word with other diacritics, [form, pages]) and written beside it, one file
 * per chunk of the word index: `scores/<chunk hash>.pf_score`, gzip (RFC 1952) of JSON
 * `{ word: [page, weight, fields, page, weight, fields, …] }`, pages in ascending order, each
 * given as the difference from the one before, variants summed into their word. The excerpts of
 * the results shown need the places themselves, of those pages only: they are written per page
 * with the page's fragment (Pagefind's JSON of its url, title and text), so that showing a
 * result is one file: `places/<index hash>/<page>.pf_places`, gzip of the fragment's JSON on one
 * line, then a line per word, `"word"places` (search/formats/places.ts: the places as the word index
 * lists them, a variant's after its word's), the folder named by the hash Pagefind names the
 * index by, so that a page's URL changes with the index. The browser reads the score files
 * merged per group of shards (search/build/groups.ts).
 *
 * Pages are numbered by SHA-256 of their slugs: each record carries its number as the `page`
 * filter (scripts/builder/search-shard-worker.ts), which also lets the browser ask Pagefind for
 * the excerpts of the results it shows only. As a shard holds the articles whose hashes start with its bits,
 * ordering by (shard, number) is ordering by hash: equal scores rank alike in every shard count.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { CborCursor } from '../formats/cbor-cursor.ts'
import { PagePlaces, placesKey } from '../formats/places.ts'
import {
  array,
  CBOR_START,
  filterFile,
  fragmentFile,
  indexChunkFile,
  pagefindData,
  readFragmentJson,
  readPagefindFile,
  readShardIndex,
  type ShardIndex,
} from '../pagefind/adapter.ts'
import { countPageWords, writeVocabulary } from './vocabulary.ts'
import { WordScores } from './word-scores.ts'

export const SCORES_DIR = 'scores'
/** Per page, its fragment and the places of its words (`places/<index hash>/<page>.pf_places`). */
export const PLACES_DIR = 'places'
/** The filter holding each record's number in its shard's scores. */
export const PAGE_FILTER = 'page'

/** Each slug's number in its shard's scores: its place in the order of SHA-256 of the slugs. */
export function pageNumbers(slugs: readonly string[]): Map<string, number> {
  const hashed = slugs.map((slug) => [createHash('sha256').update(slug).digest('hex'), slug] as const)
  hashed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return new Map(hashed.map(([, slug], i) => [slug, i]))
}

/** Each Pagefind page number's number in the scores, from the page filter. */
export function pageOrder(dir: string, index: ShardIndex): number[] {
  const hash = index.filters.get(PAGE_FILTER)
  if (!hash) throw new Error(`search shard ${dir}: no ${PAGE_FILTER} filter`)
  const [, values] = array(readPagefindFile(readFileSync(filterFile(dir, hash))), 'filter')
  const order = new Array<number>(index.pages.length).fill(-1)
  for (const entry of array(values, 'filter values')) {
    const [value, pages] = array(entry, 'filter value')
    for (const page of array(pages, 'filter pages')) order[Number(page)] = Number(value)
  }
  if (new Set(order).size !== order.length || order.some((n) => !(n >= 0 && n < order.length)))
    throw new Error(`search shard ${dir}: the ${PAGE_FILTER} filter does not number every page once`)
  return order
}

/** Writes the shard's score, places and vocabulary files; returns the pages' order (pageOrder). */
export function writeShardScores(dir: string, index = readShardIndex(dir)): number[] {
  const order = pageOrder(dir, index)
  mkdirSync(join(dir, SCORES_DIR), { recursive: true })
  // Read in place, one chunk of the word index at a time; each page's places are kept as the
  // bytes of its file's text (search/formats/places.ts) until every chunk has been read.
  const places = new PagePlaces(index.pages.length)
  const scores = new WordScores(index.pages.length)
  for (const chunk of index.chunks) {
    const cbor = new CborCursor(pagefindData(readFileSync(indexChunkFile(dir, chunk.hash))), CBOR_START)
    if (cbor.array('index') < 1) throw new Error('Pagefind file: words is not an array')
    const out: Record<string, number[]> = {}
    const words = cbor.array('words')
    for (let w = 0; w < words; w++) {
      const parts = cbor.array('word')
      const word = cbor.text('word')
      const key = placesKey(word)
      if (parts < 2) throw new Error('Pagefind file: pages is not an array')
      addPages(cbor, word, key, order, scores, places)
      if (parts > 2) {
        const variants = cbor.array('variants')
        for (let v = 0; v < variants; v++) {
          const fields = cbor.array('variant')
          if (fields < 2) throw new Error('Pagefind file: pages is not an array')
          cbor.skip()
          addPages(cbor, word, key, order, scores, places)
          for (let i = 2; i < fields; i++) cbor.skip()
        }
      }
      for (let i = 3; i < parts; i++) cbor.skip()
      out[word] = scores.take()
    }
    writeFileSync(join(dir, SCORES_DIR, `${chunk.hash}.pf_score`), gzipSync(JSON.stringify(out)))
  }
  const placesDir = join(dir, PLACES_DIR, index.key)
  mkdirSync(placesDir, { recursive: true })
  const vocabulary = new Map<string, number>()
  for (const [page, { hash }] of index.pages.entries()) {
    const fragment = readFragmentJson(fragmentFile(dir, hash))
    const { content, meta } = JSON.parse(fragment.toString()) as { content: string; meta: { title?: string } }
    countPageWords(`${meta.title ?? ''}\n${content}`, vocabulary)
    const file = Buffer.concat([fragment, places.take(page), NEWLINE])
    // Level 4: twice as fast as the default, 4% larger.
    writeFileSync(join(placesDir, `${order[page]}.pf_places`), gzipSync(file, { level: 4 }))
  }
  writeVocabulary(dir, vocabulary)
  return order
}

const NEWLINE = Buffer.from('\n')

/**
 * Reads one word's (or variant's) pages from `cbor`: adds each place's weight and each field's
 * bit to `scores`, and the places to each page's in `places` (by Pagefind's page number).
 */
function addPages(
  cbor: CborCursor,
  word: string,
  key: Buffer,
  order: readonly number[],
  scores: WordScores,
  places: PagePlaces,
): void {
  const pages = cbor.array('pages')
  let page = 0
  for (let p = 0; p < pages; p++) {
    const parts = cbor.array('page')
    if (parts < 2) throw new Error('Pagefind file: places is not an array')
    page += cbor.int('page delta')
    const number = order[page]
    if (number === undefined) throw new Error(`Pagefind index: page ${page} out of range`)
    const count = cbor.array('places')
    const weight = count > 0 ? places.read(page, word, key, cbor, count) : 0
    let fields = 0
    if (parts > 2) {
      const meta = cbor.array('metadata places')
      for (let i = 0; i < meta; i++) {
        const n = cbor.int('metadata place')
        if (n < 0) fields |= 1 << (-n - 1)
      }
    }
    for (let i = 3; i < parts; i++) cbor.skip()
    scores.add(number, weight, fields)
  }
}
