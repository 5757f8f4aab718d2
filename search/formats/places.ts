/**
 * Each page's places file (search/build/scores.ts) as it is read from the word index: per page, the
 * text of its words' places, a line per word, `\n"word"place,place,…` (the word as a JSON string,
 * the places as JSON numbers), held as UTF-8 bytes in a buffer of its own. Bytes take a fraction
 * of the memory of millions of small strings and none of their collection, and are what gzip is
 * given. The browser finds the words of a query's terms by searching the text for their lines
 * and parses those only (search-excerpt.js): a page lists some 1,500 words, and parsing them all
 * as JSON cost more than the rest of a result.
 */
import type { CborCursor } from './cbor-cursor.ts'

/** A plain word's weight in the places: Pagefind 1.6 starts a list with its weight unless it is this. */
const PLAIN = 24
const PLAIN_TEXT = Buffer.from(`${-(PLAIN + 1)},`)
/** Room for one integer and a comma: at most 20 characters, a sign and the comma. */
const INT_ROOM = 22
const COMMA = 0x2c
const MINUS = 0x2d
const ZERO = 0x30

/** A word's line start in a places file: a newline and the word as a JSON string. */
export const placesKey = (word: string): Buffer => Buffer.from(`\n${JSON.stringify(word)}`)

export class PagePlaces {
  private readonly texts: Buffer[]
  private readonly lengths: Int32Array
  /** The word each page's text ends in: a variant's places continue its word's list. */
  private readonly last: Array<string | undefined>

  constructor(pages: number) {
    this.texts = Array.from({ length: pages }, () => Buffer.allocUnsafe(4096))
    this.lengths = new Int32Array(pages)
    this.last = new Array(pages).fill(undefined)
  }

  /**
   * Reads a list of `count` places (count > 0) of `word` (`key`: placesKey(word)) on `page` from
   * `cbor`, appends them to the page's text, and returns the sum of their weights.
   */
  read(page: number, word: string, key: Buffer, cbor: CborCursor, count: number): number {
    let text = this.texts[page]!
    let at = this.lengths[page]!
    if (at + key.length + 1 + PLAIN_TEXT.length > text.length) text = this.grow(page, at + key.length + 8)
    if (this.last[page] === word) text[at++] = COMMA
    else {
      at += key.copy(text, at)
      this.last[page] = word
    }
    let weight = PLAIN
    let sum = 0
    for (let i = 0; i < count; i++) {
      const n = cbor.int('place')
      if (i === 0 && n >= 0) at += PLAIN_TEXT.copy(text, at)
      else if (i > 0) text[at++] = COMMA
      if (at + INT_ROOM > text.length) {
        this.lengths[page] = at
        text = this.grow(page, at + INT_ROOM)
      }
      at = writeInt(text, at, n)
      if (n < 0) weight = -n - 1
      else sum += weight
    }
    this.lengths[page] = at
    return sum
  }

  /** The page's text, its lines `\n"word"places`; empty if it has none. */
  take(page: number): Buffer {
    const text = this.texts[page]!.subarray(0, this.lengths[page])
    this.texts[page] = Buffer.alloc(0)
    return text
  }

  private grow(page: number, needed: number): Buffer {
    const old = this.texts[page]!
    const text = Buffer.allocUnsafe(Math.max(needed, old.length * 2))
    old.copy(text, 0, 0, this.lengths[page])
    this.texts[page] = text
    return text
  }
}

/** Writes `n`, an integer, in decimal as JSON does; returns the position after it. */
function writeInt(text: Buffer, at: number, n: number): number {
  if (n < 0) {
    text[at++] = MINUS
    n = -n
  }
  if (n < 10) {
    text[at] = ZERO + n
    return at + 1
  }
  if (!Number.isSafeInteger(n)) return at + text.write(String(n), at, 'latin1')
  let end = at
  for (let m = n; m > 0; m = Math.floor(m / 10)) end++
  for (let i = end - 1; i >= at; i--) {
    text[i] = ZERO + (n % 10)
    n = Math.floor(n / 10)
  }
  return end
}
