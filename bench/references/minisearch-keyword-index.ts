/**
 * The keyword index on MiniSearch as it is, configured as well as it goes: its own BM25+ scoring,
 * `boost` by field, `prefix` for the last word, `fuzzy` for a word that matches nothing,
 * `processTerm`/`tokenize` for folding and compounds, `combineWith: 'OR'`. It has the shape of
 * post-index/keyword-index-builder.ts and keyword-index-queries.ts (same exports), so that the
 * service can run on it unchanged (minisearch-service.ts) and the bench pairs the two on the
 * API and MCP search rows.
 */
import MiniSearch, { type SearchResult } from 'minisearch'
import type { KeywordIndexState } from '../../post-index/index-state.ts'
import type { KeywordIndex, Ranked, RankPosition } from '../../post-index/keyword-index-queries.ts'
import { documentTokens, normalizeTerm, tokenize, typoDistance } from '../../post-index/search-terms.ts'
import { nearWords } from '../../post-index/typo-corrections.ts'

interface Fields {
  title: string
  tags: string[]
  description: string
}
type Doc = { id: number; title: string; tags: string; description: string }

/** The rules of keyword-index-queries.ts, so that both answer alike. */
const MIN_PREFIX = 3
const COMMON_SHARE = 0.2
const COMMON_MIN = 1000

/** What the service's state carries in place of flat postings: the engine and its vocabulary. */
interface EngineState {
  engine: MiniSearch<Doc>
  n: number
  terms: string[]
  frequency: Int32Array
  termIds: Map<string, number>
  /** The terms sorted by code unit: whether a word is a prefix of one is a binary search. */
  sorted: string[]
}

export function keywordIndexBuilder() {
  const documents: Doc[] = []
  const add = (p: Fields) => {
    documents.push({ id: documents.length, title: p.title, tags: p.tags.join(' '), description: p.description })
  }
  const finishState = (): KeywordIndexState => {
    const termIds = new Map<string, number>()
    const counts: number[] = []
    for (const d of documents) {
      const seen = new Set<string>()
      for (const token of [d.title, d.tags, d.description].flatMap(documentTokens)) {
        const term = normalizeTerm(token)
        if (!term || seen.has(term)) continue
        seen.add(term)
        let id = termIds.get(term)
        if (id === undefined) termIds.set(term, (id = counts.push(0) - 1))
        counts[id]!++
      }
    }
    const terms = [...termIds.keys()]
    const state: EngineState = {
      engine: engineFor(documents),
      n: documents.length,
      terms,
      frequency: Int32Array.from(counts),
      termIds,
      sorted: [...terms].sort(),
    }
    documents.length = 0
    return state as unknown as KeywordIndexState
  }
  return { add, finishState, finish: () => keywordIndexFrom(finishState()) }
}

function engineFor(documents: Doc[]): MiniSearch<Doc> {
  const engine = new MiniSearch<Doc>({
    fields: ['title', 'tags', 'description'],
    processTerm: normalizeTerm,
    tokenize: documentTokens,
    searchOptions: { tokenize, boost: { title: 4, tags: 2, description: 1 }, combineWith: 'OR' },
  })
  engine.addAll(documents)
  return engine
}

export function keywordIndexFrom(raw: KeywordIndexState): KeywordIndex {
  const { engine, n, terms, frequency, termIds, sorted } = raw as unknown as EngineState
  const near = nearWords({ terms, frequency })
  const commonAbove = Math.max(COMMON_MIN, COMMON_SHARE * n)
  const known = (term: string) => termIds.has(term)
  const hasCompletion = (prefix: string) => {
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (sorted[mid]! < prefix) lo = mid + 1
      else hi = mid
    }
    return lo < sorted.length && sorted[lo]!.startsWith(prefix) && sorted[lo] !== prefix
  }
  const prefixed = (term: string, i: number, all: string[]) => i === all.length - 1 && term.length >= MIN_PREFIX
  const informative = (query: string): string => {
    const words = tokenize(query).filter((w) => normalizeTerm(w) !== null)
    const kept = words.filter((w) => (frequency[termIds.get(normalizeTerm(w)!) ?? -1] ?? 0) <= commonAbove)
    return kept.length > 0 && kept.length < words.length ? kept.join(' ') : query
  }
  const options = {
    prefix: prefixed,
    // A word that matched nothing, neither whole nor as a prefix, searches the words near it.
    fuzzy: (term: string, i: number, all: string[]) =>
      known(term) || (prefixed(term, i, all) && hasCompletion(term)) ? false : typoDistance(term),
    weights: { prefix: 0.5, fuzzy: 0.4 },
  }

  const rank = (query: string, limit: number, after?: RankPosition): Ranked => {
    const asked = informative(query)
    const results = limit > 0 ? engine.search(asked, options) : []
    const corrected: Ranked['corrected'] = []
    const words = tokenize(asked)
      .map(normalizeTerm)
      .filter((t): t is string => t !== null)
    words.forEach((word, i) => {
      if (options.fuzzy(word, i, words) === false || corrected.some((c) => c.from === word)) return
      const typo = near(word)
      if (typo) corrected.push({ from: word, to: typo.best })
    })
    // Results come by score; the order is words matched, then score, then the newer (lower id):
    // take the best `limit` bucket by bucket rather than sorting every match again.
    const ranks = (r: SearchResult) => r.queryTerms.length
    let most = 0
    for (const r of results) most = Math.max(most, ranks(r))
    const top: SearchResult[] = []
    for (let w = most; w > 0 && top.length < limit; w--) {
      const bucket: SearchResult[] = []
      for (const r of results) {
        if (ranks(r) !== w) continue
        if (after && !later(w, r.score, r.id, after)) continue
        // Past the cut, keep only results tied with the last one kept: ties go to the newest.
        if (bucket.length >= limit - top.length && r.score < bucket[bucket.length - 1]!.score) break
        bucket.push(r)
      }
      bucket.sort((a, b) => b.score - a.score || a.id - b.id)
      top.push(...bucket.slice(0, limit - top.length))
    }
    return {
      docs: top.map((r) => r.id as number),
      words: top.map(ranks),
      scores: top.map((r) => r.score),
      corrected,
    }
  }
  return { rank, search: (query, limit) => rank(query, limit).docs }
}

/** Whether a result ranks after a place: fewer words, else a lower score, else from `doc` on. */
function later(words: number, score: number, doc: number, at: RankPosition): boolean {
  return words !== at.words ? words < at.words : score !== at.score ? score < at.score : doc >= at.doc
}

export function buildKeywordSearch(posts: ReadonlyArray<Fields & { slug: string }>) {
  const builder = keywordIndexBuilder()
  for (const p of posts) builder.add(p)
  const index = builder.finish()
  return { search: (query: string, limit: number) => index.search(query, limit).map((doc) => posts[doc]!.slug) }
}
