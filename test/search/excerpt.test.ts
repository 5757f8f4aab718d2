import { describe, expect, it } from 'vitest'
import {
  excerpt,
  excerptStart,
  readPlaces,
  resultData,
  SENTENCE_REACH,
  sentenceWindow,
  weightedPlaces,
  wordsStarting,
} from '../../search/browser/search-excerpt.js'
import { lengthBonus } from '../../search/browser/search-rank.js'

describe("a search result's excerpt, from the places of its words", () => {
  it('weighs each place a term matches once, and doubles a place two terms match', () => {
    // A weight w is -(w + 1); positions count from 0 after it.
    const words = { kalo: [-25, 5, 10], kalt: [-13, 7], mira: [-25, 2] }
    const places = weightedPlaces(words, ['kal', 'mi'])
    expect(places.map((p) => [p.location, p.weight])).toEqual([
      [2, 1],
      [5, 1],
      [7, 0.5],
      [15, 1],
    ])
    expect(places[1]!.balanced).toBeCloseTo(24 * 24 * lengthBonus(1), 3)
    // "kalo" starts with both "ka" and "kal": its places count 2 × 24, with both bonuses.
    const both = weightedPlaces({ kalo: [-25, 5] }, ['ka', 'kal'])
    expect(both.map((p) => p.weight)).toEqual([2])
    expect(both[0]!.balanced).toBeCloseTo(48 * 48 * (lengthBonus(2) + lengthBonus(1)), 2)
    expect(weightedPlaces({ other: [-25, 1] }, ['kal'])).toEqual([])
  })

  it("reads a page's places file, finding only the lines of the words the terms start", () => {
    const fragment = { url: '/posts/a', content: 'x', meta: { title: 'A' } }
    const text = `${JSON.stringify(fragment)}\n"kalo"-25,5,10\n"kalt"-13,7\n"mira"-25,2\n"ca\\"fe"-25,3\n"__proto__"-25,4\n`
    const { fragment: read, words } = readPlaces(text)
    expect(read).toEqual(fragment)
    expect(wordsStarting(words, ['kal', 'mi'])).toEqual({ kalo: [-25, 5, 10], kalt: [-13, 7], mira: [-25, 2] })
    // A word found for two terms once; a word escaped in JSON; a word no term starts; "__proto__".
    expect(Object.keys(wordsStarting(words, ['ka', 'kal']))).toEqual(['kalo', 'kalt'])
    expect(wordsStarting(words, ['ca"'])).toEqual({ 'ca"fe': [-25, 3] })
    expect(wordsStarting(words, ['zz'])).toEqual({})
    expect(Object.entries(wordsStarting(words, ['__']))).toEqual([['__proto__', [-25, 4]]])
    // A word's line is found at its start only: "alo" is inside "kalo".
    expect(wordsStarting(words, ['alo'])).toEqual({})
    // The same places as the earlier format, JSON { fragment, words }, gives.
    const object = { kalo: [-25, 5, 10], kalt: [-13, 7], mira: [-25, 2] }
    const earlier = readPlaces(JSON.stringify({ fragment, words: object }))
    expect(earlier.fragment).toEqual(fragment)
    expect(weightedPlaces(words, ['kal', 'mi'])).toEqual(weightedPlaces(earlier.words, ['kal', 'mi']))
  })

  it('starts where the words are densest, in the middle of equal runs', () => {
    const at = (locations: number[]) => locations.map((location) => ({ location, weight: 1, balanced: 1 }))
    expect(excerptStart([], 30)).toBe(0)
    // Everything within the first 30 words: from the start.
    expect(excerptStart(at([3, 20]), 30)).toBe(0)
    // Two words at 100 and 101: 29 runs hold both; the middle one is taken (Pagefind names each
    // run by the word before it).
    expect(excerptStart(at([5, 100, 101]), 30)).toBe(85)
  })

  it('marks the words at the places, within the words shown', () => {
    const text = Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ')
    const { excerpt: html, plain_excerpt } = excerpt(text, 45, 10, [46, 2])
    // Clamped to the end of the text.
    expect(plain_excerpt).toBe('w40 w41 w42 w43 w44 w45 w46 w47 w48 w49')
    expect(html).toBe('w40 w41 w42 w43 w44 w45 <mark>w46</mark> w47 w48 w49')
  })

  it("gives a result's data as Pagefind does: its url from the site's root, its excerpt escaped", () => {
    const fragment = { url: '/posts/a', content: 'A <b> kalo here', meta: { title: 'A' } }
    const data = resultData(fragment, { kalo: [-25, 2] }, ['kal'], '/')
    expect(data.url).toBe('/posts/a')
    expect(data.meta.title).toBe('A')
    expect(data.excerpt).toBe('A &lt;b&gt; <mark>kalo</mark> here')
  })
})

describe("the page's excerpt, a sentence window around Pagefind's run", () => {
  const words = (text: string) => text.split(' ')

  it('widens the run to the sentences it starts and ends in', () => {
    const text = words('First one here. The cache evicts keys under skew. Then it grows. Last words.')
    // Pagefind's run: "evicts keys under" (words 5..7).
    expect(sentenceWindow(text, 5, 8)).toBe('The cache evicts keys under skew.')
    // A run that ends a sentence and starts one: both sentences, whole.
    expect(sentenceWindow(text, 7, 11)).toBe('The cache evicts keys under skew. Then it grows.')
  })

  it('cuts a sentence longer than its reach with an ellipsis, and none at the text’s ends', () => {
    const long = Array.from({ length: 60 }, (_, i) => `w${i}`)
    expect(sentenceWindow(long, 30, 35)).toBe(`… ${long.slice(30 - SENTENCE_REACH, 35 + SENTENCE_REACH).join(' ')} …`)
    expect(sentenceWindow(long, 0, 5)).toBe(`${long.slice(0, 5 + SENTENCE_REACH).join(' ')} …`)
    expect(sentenceWindow(words('Only this. And that'), 2, 3)).toBe('And that')
  })

  it('keeps the marks, and sees a sentence end inside a quote or bracket', () => {
    const text = words('He said “stop.” The <mark>cache</mark> held. (As planned.) Then more.')
    expect(sentenceWindow(text, 4, 5)).toBe('The <mark>cache</mark> held.')
    expect(sentenceWindow(text, 6, 7)).toBe('(As planned.)')
  })

  it('gives resultData a sentence_excerpt beside the unchanged Pagefind excerpt', () => {
    const run = (name: string) => Array.from({ length: 25 }, (_, i) => `${name}${i + 1}`).join(' ')
    // "evicts" is word 31; Pagefind's run of 30 words starts and ends inside the long sentences.
    const content = `Alpha beta gamma delta. ${run('x')} The cache evicts keys under skew today. ${run('y')}.`
    const data = resultData({ url: '/posts/a', content, meta: { title: 'A' } }, { evicts: [-25, 31] }, ['evicts'])
    expect(data.excerpt.startsWith('x')).toBe(true)
    expect(data.excerpt).not.toMatch(/^x1 |y25[.]$/)
    expect(data.sentence_excerpt).toMatch(/^x1 .* The cache <mark>evicts<\/mark> keys under skew today[.] .* y25[.]$/)
  })
})
