/**
 * What a shard of the search index holds, for the browser to rank all shards as one index: its
 * number of pages, each page's word count, where its word index is cut into chunks and the
 * files of scores beside them (search/build/scores.ts), read from the shard's Pagefind files as
 * Pagefind's runtime reads them (pagefind_web/src/metadata.rs: after a 12-byte signature, a CBOR
 * array of the generator version, the pages, each [hash, word count, …], the index chunks, each
 * [first word, last word, hash], the filters, each [name, hash], the sorts and the names of the
 * metadata fields Pagefind ranks by).
 * CBOR: RFC 8949, section 3 (https://www.rfc-editor.org/rfc/rfc8949#section-3).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ARRAY, BYTES, CborCursor, NEGINT, TEXT, UINT } from '../formats/cbor-cursor.ts'
import { gunzipSync } from 'node:zlib'

/** A shard's entry file: the language indexes and the version that wrote them. */
export const ENTRY_FILE = 'pagefind-entry.json'

export interface ShardStats {
  /** Pages (articles) in the shard. */
  pages: number
  /** The sum of the pages' word counts, as Pagefind counted them. */
  words: number
  /** The first word of each chunk of the word index, in order: which chunks hold a prefix's words. */
  chunks: string[]
  /** The file of scores of each chunk (`scores/<name>.pf_score`), in the order of `chunks`. */
  scores: string[]
  /** Each page's word count, by its number in the shard's scores (search/build/scores.ts). */
  lengths: number[]
  /** The metadata fields Pagefind ranks by, by their number in the scores' field masks. */
  fields: string[]
  /** The folder of the pages' fragments and places (`places/<places>/<page>.pf_places`). */
  places: string
  /**
   * Pages of articles changed or deleted since the shard was indexed, whose current text is in
   * the delta shard (search-delta.ts): by their number in the scores, and by Pagefind's page
   * hash (a phrase's matches name that).
   */
  hidden?: { pages: number[]; ids: string[] }
}

/** One language's index of a shard, as its metadata file and the page filter describe it. */
export interface ShardIndex {
  /** The hash Pagefind names the index by: it changes with the index. */
  key: string
  pages: Array<{ hash: string; words: number }>
  chunks: Array<{ first: string; hash: string }>
  filters: Map<string, string>
  fields: string[]
}

const SIGNATURE = 'pagefind_dcd'

/** Where a Pagefind file's CBOR starts, after its signature. */
export const CBOR_START = SIGNATURE.length

/** A Pagefind file's bytes: unpacked (gzip) if it is, its signature checked; CBOR from CBOR_START. */
export function pagefindData(file: Buffer): Buffer {
  const data = file.subarray(0, SIGNATURE.length).toString('latin1') === SIGNATURE ? file : gunzipSync(file)
  if (data.subarray(0, SIGNATURE.length).toString('latin1') !== SIGNATURE)
    throw new Error('not a Pagefind file (no signature)')
  return data
}

/** A Pagefind file's CBOR value: unpacked (gzip) if it is, its signature checked. */
export function readPagefindFile(file: Buffer): CborValue {
  return cborValue(new CborCursor(pagefindData(file), CBOR_START))
}

/** The index of the shard in `dir`: one language (the build indexes every article as `en`). */
export function readShardIndex(dir: string): ShardIndex {
  const entry = JSON.parse(readFileSync(join(dir, ENTRY_FILE), 'utf8')) as {
    languages: Record<string, { hash: string }>
  }
  const languages = Object.values(entry.languages)
  if (languages.length !== 1) throw new Error(`search shard ${dir}: ${languages.length} languages, expected one`)
  const { hash } = languages[0]!
  return { ...metaIndex(readFileSync(join(dir, `pagefind.${hash}.pf_meta`))), key: hash }
}

/** The pages, chunks, filters and ranked fields of one metadata file (gzipped or not). */
export function metaIndex(file: Buffer): Omit<ShardIndex, 'key'> {
  const [, pages, chunks, filters, , fields] = array(readPagefindFile(file), 'metadata')
  return {
    pages: array(pages, 'pages').map((p) => {
      const [hash, words] = array(p, 'page')
      return { hash: String(hash), words: Number(words) }
    }),
    chunks: array(chunks, 'chunks').map((c) => {
      const [first, , hash] = array(c, 'chunk')
      return { first: String(first), hash: String(hash) }
    }),
    filters: new Map(
      array(filters ?? [], 'filters').map((f) => {
        const [name, hash] = array(f, 'filter')
        return [String(name), String(hash)] as const
      }),
    ),
    fields: array(fields ?? [], 'fields').map(String),
  }
}

/**
 * The shard's figures for the browser. `order`: each Pagefind page number's number in the scores
 * (search/build/scores.ts, pageOrder).
 */
export function shardStats(dir: string, order: readonly number[], index = readShardIndex(dir)): ShardStats {
  const lengths = new Array<number>(index.pages.length).fill(0)
  for (const [i, page] of index.pages.entries()) lengths[order[i]!] = page.words
  const chunks = [...index.chunks].sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0))
  return {
    pages: index.pages.length,
    words: lengths.reduce((sum, n) => sum + n, 0),
    chunks: chunks.map((c) => c.first),
    scores: chunks.map((c) => c.hash),
    lengths,
    fields: index.fields,
    places: index.key,
  }
}

/** The JSON of a Pagefind JSON file (a fragment), on one line: gzip of its signature and the JSON. */
export function readFragmentJson(file: string): Buffer {
  const data = gunzipSync(readFileSync(file))
  const at = data.indexOf('{')
  if (at < 0) throw new Error(`${file}: not a Pagefind JSON file`)
  const json = data.subarray(at)
  // Pagefind writes it compact; a newline could only be spacing between its tokens.
  return json.includes(0x0a) ? Buffer.from(JSON.stringify(JSON.parse(json.toString()))) : json
}

export type CborValue = number | string | Uint8Array | CborValue[]

/** A CBOR array, or an error naming what it should have been. */
export function array(value: CborValue | undefined, what: string): CborValue[] {
  if (!Array.isArray(value)) throw new Error(`Pagefind file: ${what} is not an array`)
  return value
}

/** One item as a tree of values: integers, strings and arrays of definite length (search/formats/cbor-cursor.ts). */
function cborValue(cursor: CborCursor): CborValue {
  const n = cursor.head()
  switch (cursor.major) {
    case UINT:
      return n
    case NEGINT:
      return -1 - n
    case BYTES:
      cursor.at += n
      return cursor.data.subarray(cursor.at - n, cursor.at)
    case TEXT:
      cursor.at += n
      return cursor.data.toString('utf8', cursor.at - n, cursor.at)
    case ARRAY: {
      const out: CborValue[] = new Array(n)
      for (let i = 0; i < n; i++) out[i] = cborValue(cursor)
      return out
    }
    default:
      throw new Error(`Pagefind file: unexpected CBOR major type ${cursor.major}`)
  }
}
