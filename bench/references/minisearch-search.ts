import MiniSearch from 'minisearch'
import type { IndexEntry } from '../../model/article.ts'
import type { KeywordSearch } from '../../post-index/keyword-index-builder.ts'
import { documentTokens, normalizeTerm, tokenize, typoDistance } from '../../post-index/search-terms.ts'

/** The last word matches as a prefix from this length on: shorter stems match most of the index. */
const MIN_PREFIX = 3

/**
 * A query word found in more than this share of the articles (and in over COMMON_MIN of them)
 * tells them apart too little to pay for scoring its whole posting list: it is left out of the
 * query unless the query has nothing else (Lucene's "common terms" idea).
 */
const COMMON_SHARE = 0.2
const COMMON_MIN = 1000

/** Whether a query word also matches as a prefix: the last one, from MIN_PREFIX letters. */
const prefixed = (term: string, i: number, terms: string[]) => i === terms.length - 1 && term.length >= MIN_PREFIX

/**
 * The service's keyword search as it was, on MiniSearch (BM25 with per-field boosts, kept in
 * memory): the reference the current search must rank exactly as. The last query word also
 * matches as a prefix, so results follow the reader as they type.
 */
export function buildKeywordSearch(posts: ReadonlyArray<Omit<IndexEntry, 'markdown'>>): KeywordSearch {
  const engine = new MiniSearch<{ id: number; title: string; tags: string; description: string }>({
    fields: ['title', 'tags', 'description'],
    processTerm: normalizeTerm,
    tokenize: documentTokens,
    searchOptions: {
      tokenize,
      boost: { title: 4, tags: 2, description: 1 },
      combineWith: 'OR',
      prefix: (term, i, terms) => prefixed(term, i, terms),
      // A word that matches nothing, neither whole nor as a prefix, searches the words near it.
      fuzzy: (term, i, terms) =>
        frequency.has(term) || (prefixed(term, i, terms) && vocabulary().some((t) => t.startsWith(term)))
          ? false
          : typoDistance(term),
      weights: { prefix: 0.5, fuzzy: 0.4 },
    },
  })
  const documents = posts.map((p, id) => ({ id, title: p.title, tags: p.tags.join(' '), description: p.description }))
  engine.addAll(documents)
  const frequency = new Map<string, number>()
  for (const d of documents) {
    const terms = new Set<string>()
    for (const token of [d.title, d.tags, d.description].flatMap(documentTokens)) {
      const term = normalizeTerm(token)
      if (term) terms.add(term)
    }
    for (const t of terms) frequency.set(t, (frequency.get(t) ?? 0) + 1)
  }
  let words: string[] | undefined
  const vocabulary = () => (words ??= [...frequency.keys()])
  const commonAbove = Math.max(COMMON_MIN, COMMON_SHARE * posts.length)
  const informative = (query: string): string => {
    const words = tokenize(query).filter((w) => normalizeTerm(w) !== null)
    const kept = words.filter((w) => (frequency.get(normalizeTerm(w)!) ?? 0) <= commonAbove)
    return kept.length > 0 && kept.length < words.length ? kept.join(' ') : query
  }
  // Index order is newest first, so a lower id is the newer article.
  return {
    search(query, limit) {
      // MiniSearch returns every match by score; only the top `limit` by (words matched, score,
      // newest) are needed, so take them bucket by bucket instead of sorting everything.
      const results = engine.search(informative(query))
      let most = 0
      for (const r of results) if (r.queryTerms.length > most) most = r.queryTerms.length
      const top: typeof results = []
      for (let words = most; words > 0 && top.length < limit; words--) {
        const bucket: typeof results = []
        for (const r of results) {
          if (r.queryTerms.length !== words) continue
          // Past the cut, keep only results tied with the last one kept: ties go to the newest.
          if (bucket.length >= limit - top.length && r.score < bucket[bucket.length - 1]!.score) break
          bucket.push(r)
        }
        bucket.sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number))
        top.push(...bucket.slice(0, limit - top.length))
      }
      return top.map((r) => posts[r.id as number]!.slug)
    },
  }
}
