import { describe, expect, it } from 'vitest'
import {
  chunksToLoad,
  containingFromIdf,
  idf,
  queryWords,
  rankAll,
  shardCounts,
} from '../../site/public/scripts/search-rank.js'

/** A result as Pagefind's playground mode reports it: one scored word, no title match. */
const result = (id: string, word: string, frequency: number, length = 100) => ({
  id,
  params: { document_length: length },
  scores: [{ search_term: word, params: { weighted_term_frequency: frequency, length_bonus: 1 } }],
})

describe('ranking the shards of the search index as one index', () => {
  it('recovers how many pages hold a term from the IDF Pagefind reports', () => {
    for (const pages of [1, 35, 300, 3_125, 50_000])
      for (const c of [0, 1, 2, Math.floor(pages / 2), pages])
        expect(containingFromIdf(pages, Math.fround(idf(pages, c))), `${c} of ${pages}`).toBe(c)
  })

  it('reads a query as Pagefind does: lower case, punctuation out', () => {
    expect(queryWords('  Naïve, "Bayes"!  O(n) ')).toEqual(['naïve', 'bayes', 'on'])
  })

  it('loads the chunks that hold the words after a term, beyond the one it falls in', () => {
    const chunks = ['0', 'ka', 'kal', 'kalo', 'kalz', 'mi']
    expect(chunksToLoad(chunks, ['kal'])).toEqual(['kalo', 'kalz'])
    expect(chunksToLoad(chunks, ['kalom'])).toEqual([])
    expect(chunksToLoad(chunks, ['k'])).toEqual(['ka', 'kal', 'kalo', 'kalz'])
  })

  it('drops a shard that matched a term only by a shorter word (gibberish finds nothing)', () => {
    const answer = { pages: 10, results: [result('a', 'q', 1)], idfs: [{ term: 'qwertyuiop', idf: idf(10, 1) }] }
    expect(shardCounts(answer, ['qwertyuiop'])).toEqual({ counts: [0], unknown: [], dropped: true })
    const found = { pages: 10, results: [result('a', 'kalo', 1)], idfs: [{ term: 'kal', idf: idf(10, 3) }] }
    expect(shardCounts(found, ['kal'])).toEqual({ counts: [3], unknown: [], dropped: false })
  })

  it("ranks with the whole index's statistics, whatever the split", () => {
    // Four pages; "rare" is on two. One index, or two shards of two pages each.
    const pages = [result('p1', 'rare', 2, 50), result('p2', 'rare', 1, 300), result('p3', 'rare', 3, 900)]
    const one = { pages: 4, words: 1600, results: pages, counts: [3], dropped: false }
    const left = { pages: 2, words: 350, results: pages.slice(0, 2), counts: [2], dropped: false }
    const right = { pages: 2, words: 1250, results: pages.slice(2), counts: [1], dropped: false }
    const ids = (ranked: Array<{ result: { id: string } }>) => ranked.map((r) => r.result.id)
    const whole = rankAll([one], ['rare'], ['rare'])
    const split = rankAll([left, right], ['rare'], ['rare'])
    expect(ids(split)).toEqual(ids(whole))
    expect(split.map((r) => r.score)).toEqual(whole.map((r) => r.score))
    // A dropped shard's results are not shown, and count for nothing.
    expect(ids(rankAll([left, { ...right, dropped: true }], ['rare'], ['rare']))).toEqual(['p1', 'p2'])
  })
})
