import MiniSearch from 'minisearch'
import type { IndexedPost } from './post.ts'

/** Words too common to tell articles apart; dropped from documents and queries alike. */
const STOP_WORDS = new Set(
  'a an and are as at be but by for from how in into is it its of on or that the their this to was what when where which why with'.split(' '),
)

/** Case- and accent-insensitive: "Naïve" and "NAIVE" are the same term. */
export function normalizeTerm(term: string): string | null {
  const t = term.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()
  return t.length === 0 || STOP_WORDS.has(t) ? null : t
}

export interface KeywordSearch {
  /** Slugs ranked by relevance: more query words matched first, then title over tags over description, then newest. */
  search(query: string, limit: number): string[]
}

/**
 * Keyword search over title, tags and description (MiniSearch: BM25 with per-field boosts, kept in
 * memory). The last query word also matches as a prefix, so results follow the reader as they type.
 */
export function buildKeywordSearch(posts: readonly IndexedPost[]): KeywordSearch {
  const engine = new MiniSearch<{ id: number; title: string; tags: string; description: string }>({
    fields: ['title', 'tags', 'description'],
    processTerm: normalizeTerm,
    searchOptions: {
      boost: { title: 4, tags: 2, description: 1 },
      combineWith: 'OR',
      prefix: (_term, i, terms) => i === terms.length - 1,
      weights: { prefix: 0.5, fuzzy: 0.4 },
    },
  })
  engine.addAll(posts.map((p, id) => ({ id, title: p.title, tags: p.tags.join(' '), description: p.description })))
  // Index order is newest first, so a lower id is the newer article.
  return {
    search(query, limit) {
      return engine
        .search(query)
        .sort((a, b) => new Set(b.queryTerms).size - new Set(a.queryTerms).size || b.score - a.score || a.id - b.id)
        .slice(0, limit)
        .map((r) => posts[r.id as number]!.slug)
    },
  }
}
