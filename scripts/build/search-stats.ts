/**
 * What a shard of the search index holds, for the browser to rank all shards as one index: its
 * number of pages, each page's word count, where its word index is cut into chunks and the
 * files of scores beside them (search-scores.ts), read from the shard's Pagefind files as
 * Pagefind's runtime reads them (pagefind_web/src/metadata.rs: after a 12-byte signature, a CBOR
 * array of the generator version, the pages, each [hash, word count, …], the index chunks, each
 * [first word, last word, hash], the filters, each [name, hash], the sorts and the names of the
 * metadata fields Pagefind ranks by).
 * CBOR: RFC 8949, section 3 (https://www.rfc-editor.org/rfc/rfc8949#section-3).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'

export interface ShardStats {
  /** Pages (articles) in the shard. */
  pages: number
  /** The sum of the pages' word counts, as Pagefind counted them. */
  words: number
  /** The first word of each chunk of the word index, in order: which chunks hold a prefix's words. */
  chunks: string[]
  /** The file of scores of each chunk (`scores/<name>.pf_score`), in the order of `chunks`. */
  scores: string[]
  /** Each page's word count, by its number in the shard's scores (search-scores.ts). */
  lengths: number[]
  /** The metadata fields Pagefind ranks by, by their number in the scores' field masks. */
  fields: string[]
  /** The folder of the pages' fragments and places (`places/<places>/<page>.pf_places`). */
  places: string
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
  return new Cbor(pagefindData(file), CBOR_START).value()
}

/** The index of the shard in `dir`: one language (the build indexes every article as `en`). */
export function readShardIndex(dir: string): ShardIndex {
  const entry = JSON.parse(readFileSync(join(dir, 'pagefind-entry.json'), 'utf8')) as {
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
 * (search-scores.ts, pageOrder).
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

export type CborValue = number | string | Uint8Array | CborValue[]

/** A CBOR array, or an error naming what it should have been. */
export function array(value: CborValue | undefined, what: string): CborValue[] {
  if (!Array.isArray(value)) throw new Error(`Pagefind file: ${what} is not an array`)
  return value
}

/** Just enough of a CBOR reader: integers, strings and arrays of definite length. */
class Cbor {
  private readonly data: Buffer
  private at: number
  constructor(data: Buffer, at: number) {
    this.data = data
    this.at = at
  }

  /** Reads one item. */
  value(): CborValue {
    const head = this.data[this.at++]
    if (head === undefined) throw new Error('Pagefind file ends early')
    const major = head >> 5
    const n = this.argument(head & 31)
    switch (major) {
      case 0:
        return n
      case 1:
        return -1 - n
      case 2:
        this.at += n
        return this.data.subarray(this.at - n, this.at)
      case 3:
        this.at += n
        return this.data.toString('utf8', this.at - n, this.at)
      case 4: {
        const out: CborValue[] = new Array(n)
        for (let i = 0; i < n; i++) out[i] = this.value()
        return out
      }
      default:
        throw new Error(`Pagefind file: unexpected CBOR major type ${major}`)
    }
  }

  private argument(info: number): number {
    if (info < 24) return info
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0
    if (size === 0) throw new Error(`Pagefind file: unsupported CBOR length ${info}`)
    const value = size === 8 ? Number(this.data.readBigUInt64BE(this.at)) : this.data.readUIntBE(this.at, size)
    this.at += size
    return value
  }
}
