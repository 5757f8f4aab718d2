import { describe, expect, it } from 'vitest'
import { CborCursor } from '../../search/formats/cbor-cursor.ts'
import { PagePlaces, placesKey } from '../../search/formats/places.ts'
import { wordsStarting } from '../../search/browser/search-excerpt.js'
import { WordScores } from '../../search/build/word-scores.ts'

/** CBOR (RFC 8949) of integers, as Pagefind writes a list of places. */
function cborInts(ints: number[]): Buffer {
  const head = (major: number, n: number) =>
    n < 24
      ? [(major << 5) | n]
      : n < 256
        ? [(major << 5) | 24, n]
        : n < 65536
          ? [(major << 5) | 25, n >> 8, n & 255]
          : [(major << 5) | 26, n >>> 24, (n >> 16) & 255, (n >> 8) & 255, n & 255]
  return Buffer.from(ints.flatMap((n) => (n < 0 ? head(1, -1 - n) : head(0, n))))
}

/** Reads `lists` of places into page 0 as the word index gives them; returns the text and the weights. */
function read(lists: Array<[string, number[]]>) {
  const places = new PagePlaces(1)
  const weights = lists.map(([word, ints]) =>
    places.read(0, word, placesKey(word), new CborCursor(cborInts(ints), 0), ints.length),
  )
  return { text: places.take(0).toString(), weights }
}

describe("a page's places as the text of its file", () => {
  it('writes a line per word, the places as JSON numbers, a plain list led by its weight, and sums the weights', () => {
    const { text, weights } = read([
      ['alpha', [0, 9, 10, 255, 256, 70000, 2 ** 31]],
      ['beta', [-13, 7, 1234567]],
    ])
    expect(text).toBe(`\n"alpha"-25,0,9,10,255,256,70000,${2 ** 31}\n"beta"-13,7,1234567`)
    expect(wordsStarting(text, [''])).toEqual({
      alpha: [-25, 0, 9, 10, 255, 256, 70000, 2 ** 31],
      beta: [-13, 7, 1234567],
    })
    expect(weights).toEqual([7 * 24, 2 * 12])
  })

  it("continues a word's list with its variant's, and escapes the word as JSON does", () => {
    const { text } = read([
      ['caf"e', [8]],
      ['caf"e', [1, 4]],
      ['line\nbreak', [2]],
    ])
    expect(text).toBe('\n"caf\\"e"-25,8,-25,1,4\n"line\\nbreak"-25,2')
    expect(wordsStarting(text, ['caf', 'line'])).toEqual({ 'caf"e': [-25, 8, -25, 1, 4], 'line\nbreak': [-25, 2] })
  })

  it('grows past its first buffer without losing what it holds', () => {
    const many = Array.from({ length: 5000 }, (_, i) => i * 7)
    const { text, weights } = read([['w', many]])
    expect(wordsStarting(text, ['w']).w).toEqual([-25, ...many])
    expect(weights[0]).toBe(5000 * 24)
  })

  it('is empty for a page without places', () => {
    expect(new PagePlaces(2).take(1).length).toBe(0)
  })
})

describe("a word's scores across pages", () => {
  it('lists pages ascending as differences, sums weights and fields, and starts afresh', () => {
    const scores = new WordScores(10)
    scores.add(7, 24, 0)
    scores.add(2, 48, 1)
    scores.add(7, 12, 2)
    expect(scores.take()).toEqual([2, 48, 1, 5, 36, 2])
    scores.add(3, 24, 0)
    expect(scores.take()).toEqual([3, 24, 0])
  })
})
