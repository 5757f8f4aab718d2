/**
 * What a shard of the search index holds, for the browser to rank all shards as one index:
 * its number of pages, the sum of their word counts and where its word index is cut into
 * chunks, read from the shard's Pagefind metadata file as Pagefind's runtime reads it
 * (pagefind_web/src/metadata.rs: after a 12-byte signature, a CBOR array of the generator
 * version, the pages, each [hash, word count, …], and the index chunks, each [first word, last
 * word, hash]).
 * CBOR: RFC 8949, section 3.
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
}

const SIGNATURE = 'pagefind_dcd'

/** The pages and words of the Pagefind index in `dir` (every language it holds). */
export function shardStats(dir: string): ShardStats {
  const entry = JSON.parse(readFileSync(join(dir, 'pagefind-entry.json'), 'utf8')) as {
    languages: Record<string, { hash: string }>
  }
  const total: ShardStats = { pages: 0, words: 0, chunks: [] }
  for (const { hash } of Object.values(entry.languages)) {
    const stats = metaStats(readFileSync(join(dir, `pagefind.${hash}.pf_meta`)))
    total.pages += stats.pages
    total.words += stats.words
    total.chunks.push(...stats.chunks)
  }
  total.chunks.sort()
  return total
}

/** Pages and words of one metadata file (gzipped or not). */
export function metaStats(file: Buffer): ShardStats {
  const data = file.subarray(0, SIGNATURE.length).toString('latin1') === SIGNATURE ? file : gunzipSync(file)
  if (data.subarray(0, SIGNATURE.length).toString('latin1') !== SIGNATURE)
    throw new Error('not a Pagefind metadata file (no signature)')
  const cbor = new Cbor(data, SIGNATURE.length)
  cbor.expect(4) // the fixed array
  cbor.skip() // the generator version
  const pages = cbor.expect(4)
  let words = 0
  for (let i = 0; i < pages; i++) {
    const fields = cbor.expect(4)
    cbor.skip() // the page hash
    words += cbor.expect(0)
    for (let f = 2; f < fields; f++) cbor.skip()
  }
  const chunks: string[] = []
  const count = cbor.expect(4)
  for (let i = 0; i < count; i++) {
    const fields = cbor.expect(4)
    chunks.push(cbor.text())
    for (let f = 1; f < fields; f++) cbor.skip()
  }
  return { pages, words, chunks }
}

/** Just enough of a CBOR reader: unsigned integers, strings and arrays of definite length. */
class Cbor {
  private readonly data: Buffer
  private at: number
  constructor(data: Buffer, at: number) {
    this.data = data
    this.at = at
  }

  /** Reads a head of major type `major`; returns its argument (a value, a length). */
  expect(major: number): number {
    const head = this.data[this.at++]
    if (head === undefined) throw new Error('Pagefind metadata ends early')
    if (head >> 5 !== major) throw new Error(`Pagefind metadata: major type ${head >> 5}, expected ${major}`)
    return this.argument(head & 31)
  }

  /** Reads a text string. */
  text(): string {
    const length = this.expect(3)
    this.at += length
    return this.data.toString('utf8', this.at - length, this.at)
  }

  /** Skips one item: an integer, a byte or text string, or an array of those. */
  skip(): void {
    const head = this.data[this.at]
    if (head === undefined) throw new Error('Pagefind metadata ends early')
    const major = head >> 5
    const n = this.expect(major)
    if (major === 2 || major === 3) this.at += n
    else if (major === 4) for (let i = 0; i < n; i++) this.skip()
    else if (major !== 0) throw new Error(`Pagefind metadata: unexpected major type ${major}`)
  }

  private argument(info: number): number {
    if (info < 24) return info
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0
    if (size === 0) throw new Error(`Pagefind metadata: unsupported length ${info}`)
    const value = size === 8 ? Number(this.data.readBigUInt64BE(this.at)) : this.data.readUIntBE(this.at, size)
    this.at += size
    return value
  }
}
