import MiniSearch from 'minisearch'
import SearchableMap from 'minisearch/SearchableMap'
import type { IndexEntry } from '../model/article.ts'

/** Words too common to tell articles apart; dropped from documents and queries alike. */
const STOP_WORDS = new Set(
  'a an and are as at be but by for from how in into is it its of on or that the their this to was what when where which why with'.split(
    ' ',
  ),
)

/** Case- and accent-insensitive: "Naïve" and "NAIVE" are the same term. */
export function normalizeTerm(term: string): string | null {
  const t = term
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
  return t.length === 0 || STOP_WORDS.has(t) ? null : t
}

export interface KeywordSearch {
  /** Slugs ranked by relevance: more query words matched first, then title over tags over description, then newest. */
  search(query: string, limit: number): string[]
}

/** Searched fields in scoring order, with their boosts: title over tags over description. */
const FIELDS = ['title', 'tags', 'description'] as const
const BOOST = [4, 2, 1] as const
/** The last word matches as a prefix from this length on: shorter stems match most of the index. */
const MIN_PREFIX = 3
/** A prefix match weighs less than the word itself, the less the longer the completion. */
const PREFIX_WEIGHT = 0.5
/** BM25 parameters (MiniSearch's: k, b, and d, the floor of a matched term's weight). */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 }

/**
 * A query word found in more than this share of the articles (and in over COMMON_MIN of them)
 * tells them apart too little to pay for scoring its whole posting list: it is left out of the
 * query unless the query has nothing else (Lucene's "common terms" idea).
 */
const COMMON_SHARE = 0.2
const COMMON_MIN = 1000
/** Splits on spaces and punctuation, as MiniSearch does. */
const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[]

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

/** The search over documents numbered in the order they were added (newest first, so ties go to the lower number). */
export interface KeywordIndex {
  search(query: string, limit: number): number[]
  /** As search, with each result's rank (words matched, score), and only results ranked after `after`. */
  rank(query: string, limit: number, after?: RankPosition): Ranked
}

/** A place in a ranking: results ranked after it have fewer words, else a lower score, else a document number from `doc` on. */
export interface RankPosition {
  words: number
  score: number
  doc: number
}

export interface Ranked {
  docs: number[]
  words: number[]
  scores: number[]
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
      const tokens = tokenize(fieldText(document, field))
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

/** A finished keyword index as data: see keywordIndexBuilder. */
export interface KeywordIndexState {
  n: number
  terms: string[]
  frequency: Int32Array
  start: Int32Array
  docs: Int32Array
  scores: Float64Array
  walk: Int32Array
  rank: Int32Array
  sorted: Int32Array
}

export function keywordIndexFrom(state: KeywordIndexState): KeywordIndex {
  const { n, terms, frequency, start, docs, scores } = state
  const termIds = new Map<string, number>(terms.map((t, i) => [t, i]))
  const completions = prefixCompletions(state)
  const commonAbove = Math.max(COMMON_MIN, COMMON_SHARE * n)
  const informative = (query: string): string => {
    const words = tokenize(query).filter((w) => normalizeTerm(w) !== null)
    const kept = words.filter((w) => {
      const id = termIds.get(normalizeTerm(w)!)
      return (id === undefined ? 0 : frequency[id]!) <= commonAbove
    })
    return kept.length > 0 && kept.length < words.length ? kept.join(' ') : query
  }

  // Scratch space reused by every query (a query runs start to end without yielding).
  const sum = new Float64Array(n)
  const wordSum = new Float64Array(n)
  const touched = new Int32Array(n)
  const isTouched = new Uint8Array(n)
  const wordTouched = new Int32Array(n)
  const isWordTouched = new Uint8Array(n)
  // Which distinct words each document matched, as a bit set of `width` 32-bit words per document;
  // grown for longer queries, and cleared document by document as the ranking reads it.
  let matched = new Uint32Array(n)

  const rank = (query: string, limit: number, after?: RankPosition): Ranked => {
    const words: string[] = []
    for (const token of tokenize(informative(query))) {
      const term = normalizeTerm(token)
      if (term) words.push(term)
    }
    if (words.length === 0 || limit <= 0) return { docs: [], words: [], scores: [] }
    const distinct = [...new Set(words)]
    const width = Math.ceil(distinct.length / 32)
    if (matched.length < n * width) matched = new Uint32Array(n * width)
    let count = 0

    for (let w = 0; w < words.length; w++) {
      const word = words[w]!
      const bit = distinct.indexOf(word)
      const slot = bit >>> 5
      const mask = 1 << (bit & 31)
      let wordCount = 0
      const add = (termId: number, weight: number) => {
        for (let field = 0; field < 3; field++) {
          const key = termId * 3 + field
          for (let at = start[key]!, end = start[key + 1]!; at < end; at++) {
            const doc = docs[at]!
            wordSum[doc] = wordSum[doc]! + weight * scores[at]!
            if (!isWordTouched[doc]) {
              isWordTouched[doc] = 1
              wordTouched[wordCount++] = doc
            }
          }
        }
      }
      const exact = termIds.get(word)
      if (exact !== undefined) add(exact, 1)
      if (w === words.length - 1 && word.length >= MIN_PREFIX) {
        for (const termId of completions(word)) {
          const length = terms[termId]!.length
          if (length === word.length) continue
          add(termId, (PREFIX_WEIGHT * length) / (length + 0.3 * (length - word.length)))
        }
      }
      for (let i = 0; i < wordCount; i++) {
        const doc = wordTouched[i]!
        sum[doc] = sum[doc]! + wordSum[doc]!
        wordSum[doc] = 0
        isWordTouched[doc] = 0
        matched[doc * width + slot]! |= mask
        if (!isTouched[doc]) {
          isTouched[doc] = 1
          touched[count++] = doc
        }
      }
    }

    // The best `limit` by (words matched, score, newest), kept sorted while scanning.
    const topDoc: number[] = []
    const topWords: number[] = []
    const topScore: number[] = []
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!
      let hits = 0
      for (let s = 0; s < width; s++) {
        hits += popcount(matched[doc * width + s]!)
        matched[doc * width + s] = 0
      }
      const score = sum[doc]! * hits
      sum[doc] = 0
      isTouched[doc] = 0
      if (after && before(hits, score, doc, after.words, after.score, after.doc)) continue
      let at = topDoc.length
      while (at > 0 && before(hits, score, doc, topWords[at - 1]!, topScore[at - 1]!, topDoc[at - 1]!)) at--
      if (at >= limit) continue
      topDoc.splice(at, 0, doc)
      topWords.splice(at, 0, hits)
      topScore.splice(at, 0, score)
      if (topDoc.length > limit) {
        topDoc.pop()
        topWords.pop()
        topScore.pop()
      }
    }
    return { docs: topDoc, words: topWords, scores: topScore }
  }
  return { rank, search: (query, limit) => rank(query, limit).docs }
}

/** Whether a result ranks before another: more words matched, then a higher score, then newer (a lower index). */
function before(
  words: number,
  score: number,
  doc: number,
  otherWords: number,
  otherScore: number,
  otherDoc: number,
): boolean {
  return words !== otherWords ? words > otherWords : score !== otherScore ? score > otherScore : doc < otherDoc
}

function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}

/**
 * The terms that start with a prefix, in the order a walk of MiniSearch's radix tree yields
 * them, since that order fixes how scores are summed. The tree is walked once: the terms under a
 * prefix are one contiguous run of that walk, found from the terms sorted by code unit, so a query
 * never walks the tree.
 */
function completionOrder(terms: readonly string[]): { walk: Int32Array; rank: Int32Array; sorted: Int32Array } {
  const tree = new SearchableMap<number>()
  terms.forEach((term, id) => {
    tree.set(term, id)
  })
  const walk = Int32Array.from(tree.values())
  const rank = new Int32Array(terms.length)
  walk.forEach((id, r) => {
    rank[id] = r
  })
  const sorted = Int32Array.from(terms.keys()).sort((a, b) =>
    terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0,
  )
  return { walk, rank, sorted }
}

function prefixCompletions({ terms, walk, rank, sorted }: KeywordIndexState): (prefix: string) => Int32Array {
  return (prefix) => {
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (terms[sorted[mid]!]! < prefix) lo = mid + 1
      else hi = mid
    }
    let first = walk.length
    let last = -1
    for (let i = lo; i < sorted.length && terms[sorted[i]!]!.startsWith(prefix); i++) {
      const r = rank[sorted[i]!]!
      if (r < first) first = r
      if (r > last) last = r
    }
    return walk.subarray(first, last + 1)
  }
}
