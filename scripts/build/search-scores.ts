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
 * result is one file: `places/<index hash>/<page>.pf_places`, gzip of JSON `{ fragment, words:
 * { word: places } }` (the places as the word index lists them, a variant's after its word's),
 * the folder named by the hash Pagefind names the index by, so that a page's URL changes with
 * the index. The browser reads the score files merged per group of shards (search-groups.ts).
 *
 * Pages are numbered by SHA-256 of their slugs: each record carries its number as the `page`
 * filter (search-shard-worker.ts), which also lets the browser ask Pagefind for the excerpts of
 * the results it shows only. As a shard holds the articles whose hashes start with its bits,
 * ordering by (shard, number) is ordering by hash: equal scores rank alike in every shard count.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { array, type CborValue, readPagefindFile, readShardIndex, type ShardIndex } from './search-stats.ts'

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
  const [, values] = array(readPagefindFile(readFileSync(join(dir, 'filter', `${hash}.pf_filter`))), 'filter')
  const order = new Array<number>(index.pages.length).fill(-1)
  for (const entry of array(values, 'filter values')) {
    const [value, pages] = array(entry, 'filter value')
    for (const page of array(pages, 'filter pages')) order[Number(page)] = Number(value)
  }
  if (new Set(order).size !== order.length || order.some((n) => !(n >= 0 && n < order.length)))
    throw new Error(`search shard ${dir}: the ${PAGE_FILTER} filter does not number every page once`)
  return order
}

/** Writes the shard's score and places files; returns the pages' order (pageOrder). */
export function writeShardScores(dir: string, index = readShardIndex(dir)): number[] {
  const order = pageOrder(dir, index)
  mkdirSync(join(dir, SCORES_DIR), { recursive: true })
  // Per page (by Pagefind's number), each word's places as JSON, written as they are read (a
  // page's words come in order, each word's variants after it): a shard's places held as
  // numbers would take several times the memory.
  const places = index.pages.map(() => ({ json: [] as string[], last: '' }))
  for (const chunk of index.chunks) {
    const words = array(readPagefindFile(readFileSync(join(dir, 'index', `${chunk.hash}.pf_index`))), 'index')[0]
    const out: Record<string, number[]> = {}
    for (const entry of array(words, 'words')) {
      const [word, pages, variants] = array(entry, 'word')
      const byPage = new Map<number, { weight: number; fields: number }>()
      addPages(byPage, pages, order, places, String(word))
      for (const variant of array(variants ?? [], 'variants'))
        addPages(byPage, array(variant, 'variant')[1], order, places, String(word))
      const flat: number[] = []
      let last = 0
      for (const [page, { weight, fields }] of [...byPage].sort(([a], [b]) => a - b)) {
        flat.push(page - last, weight, fields)
        last = page
      }
      out[String(word)] = flat
    }
    writeFileSync(join(dir, SCORES_DIR, `${chunk.hash}.pf_score`), gzipSync(JSON.stringify(out)))
  }
  const placesDir = join(dir, PLACES_DIR, index.key)
  mkdirSync(placesDir, { recursive: true })
  for (const [page, { json }] of places.entries()) {
    const fragment = pagefindJson(join(dir, 'fragment', `${index.pages[page]!.hash}.pf_fragment`))
    const file = `{"fragment":${fragment},"words":{${json.map((w) => `${w}]`).join(',')}}}`
    // Level 4: twice as fast as the default, 4% larger.
    writeFileSync(join(placesDir, `${order[page]}.pf_places`), gzipSync(file, { level: 4 }))
    places[page] = { json: [], last: '' }
  }
  return order
}

/** The JSON text of a Pagefind JSON file (a fragment): gzip of its signature and the JSON. */
function pagefindJson(file: string): string {
  const data = gunzipSync(readFileSync(file))
  const at = data.indexOf('{')
  if (at < 0) throw new Error(`${file}: not a Pagefind JSON file`)
  return data.toString('utf8', at)
}

/**
 * Adds one word's (or variant's) pages to `byPage` (each place's weight, each field's bit) and
 * its places to each page's in `places` (by Pagefind's page number).
 */
function addPages(
  byPage: Map<number, { weight: number; fields: number }>,
  pages: CborValue | undefined,
  order: readonly number[],
  places: Array<{ json: string[]; last: string }>,
  word: string,
): void {
  let page = 0
  for (const entry of array(pages, 'pages')) {
    const [delta, placeList, metaPlaces] = array(entry, 'page')
    page += Number(delta)
    const number = order[page]
    if (number === undefined) throw new Error(`Pagefind index: page ${page} out of range`)
    let score = byPage.get(number)
    if (!score) byPage.set(number, (score = { weight: 0, fields: 0 }))
    const list = array(placeList, 'places') as number[]
    if (list.length > 0) {
      // A variant's places follow the word's: each list starts with its weight (positions count
      // from 0 again after it).
      const json = `${list[0]! < 0 ? '' : '-25,'}${list.join(',')}`
      const held = places[page]!
      if (held.last === word) held.json[held.json.length - 1] += `,${json}`
      else held.json.push(`${JSON.stringify(word)}:[${json}`)
      held.last = word
    }
    // Pagefind 1.6 starts each list with its weight; a plain word's is 24.
    let weight = 24
    for (const n of list) {
      if (n < 0) weight = -n - 1
      else score.weight += weight
    }
    for (const place of array(metaPlaces ?? [], 'metadata places')) {
      const n = Number(place)
      if (n < 0) score.fields |= 1 << (-n - 1)
    }
  }
}
