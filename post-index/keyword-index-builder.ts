/**
 * Builds the keyword index over the posts' title, tags and description, one post at a time, into
 * its finished state (KeywordIndexState: flat posting lists with their BM25 scores, typed arrays
 * and strings). Answering queries from that state is keyword-index-queries.ts's.
 */
import type { IndexEntry } from '../model/article.ts'
import type { KeywordIndexState } from './index-state.ts'
import { keywordIndexFrom } from './keyword-index-queries.ts'
import { documentTokens, normalizeTerm } from './search-terms.ts'
import { completionOrder } from './term-completions.ts'

export interface KeywordSearch {
  /** Slugs ranked by relevance: more query words matched first, then title over tags over description, then newest. */
  search(query: string, limit: number): string[]
}

/** Searched fields in scoring order, with their boosts: title over tags over description. */
const FIELDS = ['title', 'tags', 'description'] as const
const BOOST = [4, 2, 1] as const
/** BM25 parameters (MiniSearch's: k, b, and d, the floor of a matched term's weight). */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 }

type SearchedFields = Pick<IndexEntry, 'title' | 'tags' | 'description'>
const fieldText = (p: SearchedFields, field: number): string =>
  field === 0 ? p.title : field === 1 ? p.tags.join(' ') : p.description

/**
 * Keyword search over title, tags and description: BM25 with per-field boosts, the scoring of
 * MiniSearch (which this replaced), kept as flat posting lists so that a query costs a pass over
 * the postings of its words, with no object per matching article.
 *
 * The order, then: articles matching more distinct query words first; then the sum over query
 * words and fields of boost × BM25 (× a prefix weight for completions of the last word), times
 * the number of words matched; then the newer article. Sums are taken in MiniSearch's order (word
 * by word; the word itself, then its completions in the term tree's order; field by field), so
 * equal inputs give bit-equal scores and ties fall to the newest.
 */
export function buildKeywordSearch(posts: ReadonlyArray<SearchedFields & { slug: string }>): KeywordSearch {
  const builder = keywordIndexBuilder()
  for (const p of posts) builder.add(p)
  const index = builder.finish()
  return { search: (query, limit) => index.search(query, limit).map((doc) => posts[doc]!.slug) }
}

/** Builds the search one document at a time, so that a loader need not keep the documents. */
export function keywordIndexBuilder() {
  let n = 0
  const termIds = new Map<string, number>()
  const terms: string[] = []
  const frequency: number[] = []
  // Each document's last appearance per term, to count a document once per term.
  const lastDoc: number[] = []
  // Postings as they are met: (term × field, document, occurrences), documents ascending per key.
  const keys: number[] = []
  const postingDocs: number[] = []
  const counts: number[] = []
  const lastPosting: number[] = []
  const fieldLength: number[][] = [[], [], []]
  const average = [0, 0, 0]
  // Tokens repeat across articles far more than they differ: normalise each spelling once.
  const normalized = new Map<string, string | null>()
  const add = (document: SearchedFields) => {
    const doc = n++
    for (let field = 0; field < FIELDS.length; field++) {
      const tokens = documentTokens(fieldText(document, field))
      const length = new Set(tokens).size
      fieldLength[field]!.push(length)
      // The running mean, computed as MiniSearch does, so that scores are bit-equal.
      average[field] = (average[field]! * doc + length) / (doc + 1)
      for (const token of tokens) {
        let term = normalized.get(token)
        if (term === undefined) normalized.set(token, (term = normalizeTerm(token)))
        if (term === null) continue
        let id = termIds.get(term)
        if (id === undefined) {
          id = terms.length
          termIds.set(term, id)
          terms.push(term)
          frequency.push(0)
          lastDoc.push(-1)
          lastPosting.push(-1, -1, -1)
        }
        const key = id * 3 + field
        const last = lastPosting[key]!
        if (last >= 0 && postingDocs[last] === doc) counts[last]!++
        else {
          lastPosting[key] = keys.length
          keys.push(key)
          postingDocs.push(doc)
          counts.push(1)
        }
        if (lastDoc[id] !== doc) {
          lastDoc[id] = doc
          frequency[id]!++
        }
      }
    }
  }
  /** The finished index as data: typed arrays and strings. */
  const finishState = (): KeywordIndexState => {
    // Flat postings: for term t and field f, entries start[t*3+f] .. start[t*3+f+1] of docs and
    // scores, the score being the field's boost × BM25 of that term in that document.
    const start = new Int32Array(terms.length * 3 + 1)
    for (const key of keys) start[key + 1]!++
    for (let i = 0; i < terms.length * 3; i++) start[i + 1]! += start[i]!
    const fill = start.slice(0, terms.length * 3)
    const docs = new Int32Array(keys.length)
    const scores = new Float64Array(keys.length)
    const idf = (key: number) => {
      const matching = start[key + 1]! - start[key]!
      return Math.log(1 + (n - matching + 0.5) / (matching + 0.5))
    }
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!
      const field = key % 3
      const doc = postingDocs[i]!
      const tf = counts[i]!
      const at = fill[key]!++
      docs[at] = doc
      // The expression and its order are MiniSearch's calcBM25Score, for bit-equal scores.
      const bm25 =
        idf(key) *
        (BM25.d +
          (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * fieldLength[field]![doc]!) / average[field]!)))
      scores[at] = BOOST[field]! * bm25
    }
    // Building is done: let go of what only building needed.
    for (const list of [keys, postingDocs, counts, lastPosting, lastDoc, ...fieldLength]) list.length = 0
    normalized.clear()

    return { n, terms, frequency: Int32Array.from(frequency), start, docs, scores, ...completionOrder(terms) }
  }
  return { add, finishState, finish: () => keywordIndexFrom(finishState()) }
}
