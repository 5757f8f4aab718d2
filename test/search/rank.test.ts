import { describe, expect, it } from 'vitest'
import {
  chunksOf,
  chunksToLoad,
  idf,
  lengthBonus,
  queryWords,
  Ranked,
  rankPages,
  UNIT,
} from '../../search/browser/search-rank.js'

/** A score file's list for pages `pages` ([page, places, fields]): pages as differences, weights in Pagefind's unit. */
const list = (pages: Array<[number, number, number?]>) => {
  let last = 0
  return pages.flatMap(([page, places, fields = 0]) => {
    const out = [page - last, places * UNIT, fields]
    last = page
    return out
  })
}

/** A shard as rankPages reads it, with one term's words. */
const shard = (lengths: number[], words: Record<string, Array<[number, number, number?]>>) => ({
  pages: lengths.length,
  words: lengths.reduce((a, b) => a + b, 0),
  lengths,
  fields: ['title'],
  found: [new Map(Object.entries(words).map(([w, pages]) => [w, list(pages)]))],
})

describe('ranking the shards of the search index as one index', () => {
  it('reads a query as Pagefind does: lower case, punctuation out', () => {
    expect(queryWords('  Naïve, "Bayes"!  O(n) ')).toEqual(['naïve', 'bayes', 'on'])
  })

  it('finds the chunks that hold the words starting with a term, and those Pagefind would not load', () => {
    const chunks = ['0', 'ka', 'kal', 'kalo', 'kalz', 'mi']
    expect(chunksOf(chunks, 'kal')).toEqual([2, 3, 4])
    expect(chunksOf(chunks, 'kalom')).toEqual([3])
    expect(chunksOf(chunks, 'k')).toEqual([0, 1, 2, 3, 4])
    expect(chunksToLoad(chunks, ['kal'])).toEqual(['kalo', 'kalz'])
    expect(chunksToLoad(chunks, ['kalom'])).toEqual([])
    expect(chunksToLoad(chunks, ['k'])).toEqual(['ka', 'kal', 'kalo', 'kalz'])
  })

  it("weighs a longer word than the term less, as Pagefind's word_length_bonus does", () => {
    // Pagefind 1.6, term_similarity 1: exp(exp(-d²/8)) / e, d = length difference + 1.
    expect(lengthBonus(0)).toBeCloseTo(Math.exp(Math.exp(-1 / 8) - 1), 12)
    expect(lengthBonus(3)).toBeCloseTo(Math.exp(Math.exp(-16 / 8) - 1), 12)
    expect(lengthBonus(3)).toBeLessThan(lengthBonus(1))
  })

  it("ranks with the whole index's statistics, whatever the split", () => {
    // Four pages; "rare" is on three of them, "rarest" on one, in a title.
    const whole = [
      shard([50, 300, 900, 350], {
        rare: [
          [0, 2],
          [1, 1],
          [2, 3],
        ],
        rarest: [[3, 1, 1]],
      }),
    ]
    const split = [
      shard([50, 300], {
        rare: [
          [0, 2],
          [1, 1],
        ],
      }),
      shard([900, 350], { rare: [[0, 3]], rarest: [[1, 1, 1]] }),
    ]
    const one = rankPages(whole, ['rare'], ['rare'])
    const two = rankPages(split, ['rare'], ['rare'])
    expect(one.total).toBe(4)
    expect(two.total).toBe(4)
    const pageOf = (r: { shard: number; page: number }, split: boolean) => (split ? r.shard * 2 + r.page : r.page)
    expect(two.ranked.map((r) => pageOf(r, true))).toEqual(one.ranked.map((r) => pageOf(r, false)))
    for (const [i, r] of two.ranked.entries()) expect(r.score).toBeCloseTo(one.ranked[i]!.score, 12)
    // The title match (a boost of 5 × the term's IDF) ranks first.
    expect(one.ranked[0]!.page).toBe(3)
    // BM25 by hand for page 0: 2 places in 50 words, among 4 pages averaging 400 words.
    const w = 2 * lengthBonus(0)
    const tf = (2.4 * w) / (1.4 * (0.25 + (0.75 * 50) / 400) + w)
    const page0 = one.ranked.find((r) => r.page === 0)!
    expect(page0.score).toBeCloseTo(idf(4, 4) * tf * 1.8, 12)
  })

  it('matches a page only when every term is on it, and a term on no page matches nothing', () => {
    const two = (stems: string[]) => ({
      ...shard([100, 100, 100], {}),
      found: [
        new Map([
          [
            'kalo',
            list([
              [0, 1],
              [1, 1],
            ]),
          ],
        ]),
        new Map(
          stems[1] === 'mi'
            ? [
                [
                  'mira',
                  list([
                    [1, 1],
                    [2, 1],
                  ]),
                ],
              ]
            : [],
        ),
      ],
    })
    const found = rankPages([two(['kal', 'mi'])], ['kal', 'mi'], ['kal', 'mi'])
    expect(found.ranked.map((r) => r.page)).toEqual([1])
    expect(rankPages([two(['kal', 'qwerty'])], ['kal', 'qwerty'], ['kal', 'qwerty']).total).toBe(0)
  })

  it('ranks equal scores by shard, then page: the order of the articles’ hashes', () => {
    const ranked = rankPages(
      [
        shard([100, 100], {
          a: [
            [0, 1],
            [1, 1],
          ],
        }),
        shard([100], { a: [[0, 1]] }),
      ],
      ['a'],
      ['a'],
    ).ranked
    expect(ranked.map((r) => [r.shard, r.page])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
    ])
  })

  it('picks the best n as sorting them all would, ties by shard and page', () => {
    let x = 7
    const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31)
    const ranked = new Ranked()
    const all: { shard: number; page: number; score: number }[] = []
    // Few distinct scores, so that many tie; pages pushed in no order.
    for (let i = 0; i < 500; i++) {
      const entry = { shard: next() % 8, page: i, score: (next() % 12) / 4 }
      ranked.push(entry.shard, entry.page, entry.score)
      all.push(entry)
    }
    all.sort((a, b) => b.score - a.score || a.shard - b.shard || a.page - b.page)
    expect(ranked.total).toBe(500)
    for (const n of [0, 1, 2, 20, 499, 500, 600]) expect(ranked.top(n), String(n)).toEqual(all.slice(0, n))
    expect(new Ranked().top(20)).toEqual([])
  })

  it('ranks pages whose titles hold more of the query first, whatever their scores', () => {
    const ranked = new Ranked()
    ranked.push(0, 0, 9, 0)
    ranked.push(0, 1, 1, 0.5)
    ranked.push(1, 0, 2, 0.5)
    ranked.push(1, 1, 0.5, 1)
    const order = (n: number) => ranked.top(n).map(({ shard, page }) => [shard, page])
    expect(order(4)).toEqual([
      [1, 1],
      [1, 0],
      [0, 1],
      [0, 0],
    ])
    expect(order(2)).toEqual(order(4).slice(0, 2))
  })

  it('ranks a match in the description above one in the body alone, below one in the title', () => {
    // Page 0: "rare" in its body only, twenty times; page 1: once, in its description (which is
    // text too); page 2: once, in its title. Fields: description is bit 0, title bit 1.
    const words = list([
      [0, 20],
      [1, 1, 0b01],
      [2, 0, 0b10],
    ])
    const one = {
      pages: 3,
      words: 300,
      lengths: [100, 100, 100],
      fields: ['description', 'title'],
      found: [new Map([['rare', words]])],
    }
    const { ranked } = rankPages([one], ['rare'], ['rare'])
    expect(ranked.map((r) => r.page)).toEqual([2, 1, 0])
    // By its score alone (Pagefind's), the body's twenty places outrank the description's one.
    const score = (page: number) => ranked.find((r) => r.page === page)!.score
    expect(score(0)).toBeGreaterThan(score(1))
  })
})

describe("a shard's hidden pages (a delta shard holds their articles now)", () => {
  it('neither finds them nor counts them: the ranking is that of the index without them', () => {
    // Page 1 of the first shard was edited: its new text is the delta shard's page 0.
    const withDelta = [
      {
        ...shard([50, 300, 900], {
          rare: [
            [0, 2],
            [1, 5],
            [2, 1],
          ],
        }),
        hidden: { pages: [1], ids: ['en_old'] },
      },
      shard([320], { rare: [[0, 1]] }),
    ]
    const fromScratch = [
      shard([50, 900], {
        rare: [
          [0, 2],
          [1, 1],
        ],
      }),
      shard([320], { rare: [[0, 1]] }),
    ]
    const a = rankPages(withDelta, ['rare'], ['rare'])
    const b = rankPages(fromScratch, ['rare'], ['rare'])
    expect(a.total).toBe(3)
    expect(a.ranked.some((r: { shard: number; page: number }) => r.shard === 0 && r.page === 1)).toBe(false)
    // The same scores: pages 0 and 2 of the first shard are pages 0 and 1 of the other.
    expect(a.ranked.map((r: { score: number }) => r.score)).toEqual(b.ranked.map((r: { score: number }) => r.score))
  })
})
