/**
 * A cursor over CBOR items (RFC 8949, section 3: https://www.rfc-editor.org/rfc/rfc8949#section-3)
 * that reads them in place, without building a tree: a shard's word index holds millions of
 * small arrays, whose allocation and collection cost more than reading them. Integers, strings
 * and arrays of definite length only, as Pagefind writes them (search/pagefind/index-files.ts reads small files
 * into a tree of values with it).
 */
export const UINT = 0
export const NEGINT = 1
export const BYTES = 2
export const TEXT = 3
export const ARRAY = 4

export class CborCursor {
  readonly data: Buffer
  at: number
  /** The major type of the item last read by `head`. */
  major = 0

  constructor(data: Buffer, at: number) {
    this.data = data
    this.at = at
  }

  /** Reads an item's head: sets `major` and returns its argument (a length, or an integer's value). */
  head(): number {
    const head = this.data[this.at++]
    if (head === undefined) throw new Error('Pagefind file ends early')
    this.major = head >> 5
    const info = head & 31
    if (info < 24) return info
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0
    if (size === 0) throw new Error(`Pagefind file: unsupported CBOR length ${info}`)
    const value = size === 8 ? Number(this.data.readBigUInt64BE(this.at)) : this.data.readUIntBE(this.at, size)
    this.at += size
    return value
  }

  /** An array's length, or an error naming what it should have been. */
  array(what: string): number {
    const n = this.head()
    if (this.major !== ARRAY) throw new Error(`Pagefind file: ${what} is not an array`)
    return n
  }

  /** An integer, or an error naming what it should have been. */
  int(what: string): number {
    const n = this.head()
    if (this.major === UINT) return n
    if (this.major === NEGINT) return -1 - n
    throw new Error(`Pagefind file: ${what} is not an integer`)
  }

  /** A text string, or an error naming what it should have been. */
  text(what: string): string {
    const n = this.head()
    if (this.major !== TEXT) throw new Error(`Pagefind file: ${what} is not a string`)
    this.at += n
    return this.data.toString('utf8', this.at - n, this.at)
  }

  /** Steps over one item, whatever it holds. */
  skip(): void {
    const n = this.head()
    if (this.major === BYTES || this.major === TEXT) this.at += n
    else if (this.major === ARRAY) for (let i = 0; i < n; i++) this.skip()
    else if (this.major !== UINT && this.major !== NEGINT)
      throw new Error(`Pagefind file: unexpected CBOR major type ${this.major}`)
  }
}
