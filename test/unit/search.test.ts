import { describe, expect, it } from 'vitest'
import { buildKeywordSearch } from '../../post-index/keyword-index-builder.ts'
import { normalizeTerm } from '../../post-index/search-terms.ts'
import type { IndexEntry } from '../../model/article.ts'
import { builtIndex, readIndexedPosts, distOf } from '../support/index.ts'

const post = (slug: string, fields: Partial<IndexEntry>): IndexEntry => ({
  slug,
  title: slug,
  description: '',
  date: '2025-01-01',
  lastModified: '2025-01-01T00:00:00.000Z',
  author: 'A',
  tags: [],
  readingMinutes: 1,
  markdown: '',
  ...fields,
})

describe('normalizeTerm', () => {
  it('folds case and accents and drops stop words', () => {
    expect(normalizeTerm('Naïve')).toBe('naive')
    expect(normalizeTerm('CAFÉ')).toBe('cafe')
    expect(normalizeTerm('niño')).toBe('nino')
    expect(normalizeTerm('The')).toBeNull()
  })
})

describe('keyword ranking', () => {
  // Newest first, as the index orders them.
  const posts = [
    post('in-description', { description: 'We study entropy coding of sensor streams.' }),
    post('in-tags', { title: 'Sensor streams', tags: ['entropy'] }),
    post('in-title', { title: 'Entropy of Sensor Streams' }),
    post('two-words', { title: 'Delta coding', description: 'entropy bounds' }),
    post('older-title', { title: 'Entropy Revisited', date: '2020-01-01' }),
  ]
  const search = buildKeywordSearch(posts)

  it('ranks a title match over a tag match over a description match', () => {
    const ranked = search.search('entropy', 10)
    expect(ranked.indexOf('in-title')).toBeLessThan(ranked.indexOf('in-tags'))
    expect(ranked.indexOf('in-tags')).toBeLessThan(ranked.indexOf('in-description'))
  })

  it('ranks posts that match more of the query words higher', () => {
    const ranked = search.search('delta entropy', 10)
    expect(ranked[0]).toBe('two-words')
  })

  it('matches a partial last word, but only the last', () => {
    expect(search.search('entro', 10)).toContain('in-title')
    expect(search.search('entro streams', 10)).not.toContain('older-title')
  })

  it('breaks ties by date, newest first, and honours the limit', () => {
    const twins = buildKeywordSearch([
      post('newer', { title: 'Same words' }),
      post('older', { title: 'Same words', date: '2020-01-01' }),
    ])
    expect(twins.search('same words', 10)).toEqual(['newer', 'older'])
    expect(twins.search('same words', 1)).toEqual(['newer'])
  })

  it('counts words matched past the 32nd distinct query word', () => {
    const words = Array.from({ length: 33 }, (_, i) => `word${i}`)
    const ranked = buildKeywordSearch([
      post('thirty-two', { title: words.slice(0, 32).join(' ') }),
      post('thirty-three', { title: words.join(' '), date: '2020-01-01' }),
    ]).search(words.join(' '), 10)
    expect(ranked).toEqual(['thirty-three', 'thirty-two'])
  })

  it('answers each query alone, whatever queries of other lengths came before it', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`)
    const posts = [
      post('many', { title: words.join(' '), date: '2024-01-01' }),
      post('first', { title: 'word0 word1', date: '2023-01-01' }),
      post('last', { title: 'word39', date: '2022-01-01' }),
    ]
    const queries = [words.join(' '), 'word0', words.slice(30).join(' '), 'word39 word1', words.join(' '), 'word1']
    const used = buildKeywordSearch(posts)
    for (const q of queries) expect(used.search(q, 10), q).toEqual(buildKeywordSearch(posts).search(q, 10))
  })

  it('keeps the newest of equal answers when the limit cuts among them', () => {
    const same = Array.from({ length: 30 }, (_, i) =>
      post(`same-${String(i).padStart(2, '0')}`, { title: 'Identical words' }),
    )
    const ranked = buildKeywordSearch(same).search('identical words', 10)
    expect(ranked).toEqual(same.slice(0, 10).map((p) => p.slug))
  })

  it('adds a repeated query word twice to the score but once to the words matched', () => {
    const twice = buildKeywordSearch([
      post('delta-only', { title: 'Delta delta delta' }),
      post('both', { title: 'Delta gamma' }),
    ])
    expect(twice.search('delta delta gamma', 10)[0]).toBe('both')
  })

  it('finds nothing for a query of stop words or punctuation, without failing', () => {
    expect(search.search('the of and', 10)).toEqual([])
    expect(search.search('!!! ??? ---', 10)).toEqual([])
  })
})

describe('search over the shipped articles', () => {
  const posts = readIndexedPosts(distOf('shipped'))
  const index = builtIndex('shipped')

  it('ships at least 12 articles', () => {
    expect(posts.length).toBeGreaterThanOrEqual(12)
  })

  it('ranks every article first for its exact title, in any case and without accents', () => {
    for (const p of posts) {
      expect(index.search(p.title, 20)[0]?.slug, p.title).toBe(p.slug)
      const plain = p.title.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase()
      expect(index.search(plain, 20)[0]?.slug, plain).toBe(p.slug)
    }
  })

  it('finds every article by each of its tags', () => {
    for (const p of posts)
      for (const tag of p.tags)
        expect(
          index.search(tag, 50).map((r) => r.slug),
          tag,
        ).toContain(p.slug)
  })
})

describe('forgiving search (issue 39)', () => {
  const posts = [
    post('latency', { title: 'Latency budgets' }),
    post('eviction', { title: 'Eviction budgets' }),
    post('garcia', { title: 'Notes', description: 'After García and Müller.' }),
    post('garcia-plain', { title: 'More notes', description: 'After Garcia.' }),
    post('compound', { title: 'W-TinyLFU admission' }),
  ]
  const search = buildKeywordSearch(posts)

  it('ranks a corrected word below a word matched as typed', () => {
    expect(search.search('latency evicton', 10)).toEqual(['latency', 'eviction'])
    expect(search.search('latncy eviction', 10)).toEqual(['eviction', 'latency'])
  })

  it('corrects only a word that matched nothing, neither whole nor as the last word’s prefix', () => {
    // "budge" is a prefix of "budgets": no correction to "budget"-like words is needed or made.
    expect(search.search('budge', 10).sort()).toEqual(['eviction', 'latency'])
    expect(search.search('evic', 10)).toEqual(['eviction'])
  })

  it('folds diacritics both ways', () => {
    expect(search.search('Garcia', 10).sort()).toEqual(['garcia', 'garcia-plain'])
    expect(search.search('García', 10).sort()).toEqual(['garcia', 'garcia-plain'])
    expect(search.search('muller', 10)).toEqual(['garcia'])
  })

  it('indexes a hyphenated word by its parts and its whole', () => {
    for (const q of ['tinylfu', 'w-tinylfu', 'w tinylfu', 'wtinylfu', 'W–TinyLFU'])
      expect(search.search(q, 10)).toEqual(['compound'])
  })
})
