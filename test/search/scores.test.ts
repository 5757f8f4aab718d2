import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import * as pagefind from 'pagefind'
import { beforeAll, describe, expect, it } from 'vitest'
import { PAGE_FILTER, PLACES_DIR, pageNumbers, SCORES_DIR, writeShardScores } from '../../search/build/scores.ts'
import { readShardIndex, shardStats } from '../../search/pagefind/adapter.ts'
import { readPlaces, wordsStarting } from '../../search/browser/search-excerpt.js'
import { tempDir } from '../support/temp.ts'

/**
 * The scores the browser ranks with, read from a Pagefind index of three records: per word and
 * page, the sum of its places' weights (24 a plain word; 12 each part of a hyphenated word),
 * a word's diacritic variants summed into it, and which ranked fields (the title) hold it; and
 * per page, the places of its words, which excerpts are cut around.
 */
const dir = join(tempDir('search-scores'), 'index')
const records = {
  'second-chance': { title: 'Second-chance café', content: 'Second-chance eviction: the café is a cafe, naïve.' },
  'plain-cafe': { title: 'Plain', content: 'cafe cafe chance second' },
  other: { title: 'Other', content: 'nothing shared here' },
}
const numbers = pageNumbers(Object.keys(records))
let scores: Record<string, number[]>
let order: number[]

beforeAll(async () => {
  const { index } = await pagefind.createIndex({})
  try {
    for (const [slug, r] of Object.entries(records))
      await index!.addCustomRecord({
        url: `/posts/${slug}`,
        content: `${r.title}\n${r.content}`,
        language: 'en',
        meta: { title: r.title },
        filters: { [PAGE_FILTER]: [String(numbers.get(slug))] },
      })
    await index!.writeFiles({ outputPath: dir })
  } finally {
    await pagefind.close()
  }
  order = writeShardScores(dir)
  scores = {}
  for (const file of readdirSync(join(dir, SCORES_DIR)))
    Object.assign(scores, JSON.parse(gunzipSync(readFileSync(join(dir, SCORES_DIR, file))).toString()))
}, 60_000)

/** A word's scores as { page number: [weight, fields] }. */
function pagesOf(word: string): Record<number, [number, number]> {
  const list = scores[word]
  if (!list) throw new Error(`no scores for ${word}`)
  const out: Record<number, [number, number]> = {}
  let page = 0
  for (let i = 0; i < list.length; i += 3) {
    page += list[i]!
    out[page] = [list[i + 1]!, list[i + 2]!]
  }
  return out
}

const n = (slug: keyof typeof records) => numbers.get(slug)!

describe('the scores of a search shard', () => {
  it("numbers the pages by their slugs' hashes, through the page filter", () => {
    expect([...numbers.values()].sort()).toEqual([0, 1, 2])
    // Pagefind numbers pages its own way; each one's number in the scores is its filter value.
    expect([...order].sort()).toEqual([0, 1, 2])
    expect(Object.keys(scores).length).toBeGreaterThan(5)
  })

  it('sums the weights of the places of each word on each page, with the title as field 0', () => {
    // Title and text both say "Second-chance": the whole word twice, at 24.
    expect(pagesOf('secondch')).toEqual({ [n('second-chance')]: [48, 1] })
    // Its parts weigh 12 each; "second" alone on the other page weighs 24.
    expect(pagesOf('second')).toEqual({ [n('second-chance')]: [24, 1], [n('plain-cafe')]: [24, 0] })
    expect(pagesOf('evict')).toEqual({ [n('second-chance')]: [24, 0] })
  })

  it('counts the diacritic variants of a word as the word', () => {
    // "café" twice (title, text) and "cafe" once; on the other page "cafe" twice.
    expect(pagesOf('cafe')).toEqual({ [n('second-chance')]: [72, 1], [n('plain-cafe')]: [48, 0] })
    expect(pagesOf('naiv')).toEqual({ [n('second-chance')]: [24, 0] })
  })

  it("writes each page's fragment and its words' places, as the word index lists them", () => {
    const index = readShardIndex(dir)
    const file = join(dir, PLACES_DIR, index.key, `${n('second-chance')}.pf_places`)
    const { fragment, words: text } = readPlaces(gunzipSync(readFileSync(file)).toString()) as {
      fragment: { url: string; content: string; meta: { title: string } }
      words: string
    }
    const words = wordsStarting(text, [''])
    // With the page's fragment, as Pagefind wrote it.
    expect(fragment.url).toBe('/posts/second-chance')
    expect(fragment.meta.title).toBe('Second-chance café')
    // "Second-chance café\nSecond-chance eviction: the café is a cafe, naïve.": words 0 to 9.
    expect(fragment.content.split(/\s+/)).toHaveLength(10)
    // A weight w is -(w + 1), positions count from 0 after it: "second" at 0 and 2, weighing 12.
    expect(words.second).toEqual([-13, 0, 2])
    expect(words.evict).toEqual([-25, 3])
    // "cafe" at 8, then its variant "café" at 1 and 5.
    expect(words.cafe).toEqual([-25, 8, -25, 1, 4])
    // The fragment on the first line, then a line per word.
    expect(text.startsWith('\n"')).toBe(true)
    expect(readdirSync(join(dir, PLACES_DIR, index.key)).sort()).toEqual(['0.pf_places', '1.pf_places', '2.pf_places'])
  })

  it("gives each page's length by its number, and the fields by theirs", () => {
    const index = readShardIndex(dir)
    const stats = shardStats(dir, order, index)
    expect(stats.fields).toEqual(['title'])
    expect(stats.places).toBe(index.key)
    expect(stats.pages).toBe(3)
    // "Plain" + "cafe cafe chance second": five words.
    expect(stats.lengths[n('plain-cafe')]).toBe(5)
    expect(stats.words).toBe(stats.lengths.reduce((a, b) => a + b, 0))
    expect(stats.scores.map((s) => `${s}.pf_score`).sort()).toEqual(readdirSync(join(dir, SCORES_DIR)).sort())
  })
})
