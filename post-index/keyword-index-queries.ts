/**
 * Answers keyword queries from a finished keyword index (keywordIndexFrom): the query's words,
 * their postings and prefix completions summed per article, and the ranking, with scratch space
 * reused by every query so that a query allocates no object per matching article.
 */
import type { KeywordIndexState } from './index-state.ts'
import { normalizeTerm, tokenize } from './search-terms.ts'
import { prefixCompletions } from './term-completions.ts'
import { type Correction, nearWords } from './typo-corrections.ts'

/** The last word matches as a prefix from this length on: shorter stems match most of the index. */
const MIN_PREFIX = 3
/** A prefix match weighs less than the word itself, the less the longer the completion. */
const PREFIX_WEIGHT = 0.5
/**
 * A corrected word (one that matched nothing, see typo-corrections.ts) weighs less than a prefix
 * match, the less the more edits away (MiniSearch's fuzzy weight).
 */
const FUZZY_WEIGHT = 0.4
/**
 * A query word found in more than this share of the articles (and in over COMMON_MIN of them)
 * tells them apart too little to pay for scoring its whole posting list: it is left out of the
 * query unless the query has nothing else (Lucene's "common terms" idea).
 */
const COMMON_SHARE = 0.2
const COMMON_MIN = 1000

/** The search over documents numbered in the order they were added (newest first, so ties go to the lower number). */
export interface KeywordIndex {
  search(query: string, limit: number): number[]
  /** As search, with each result's rank (words matched, score), and only results ranked after `after`. */
  rank(query: string, limit: number, after?: RankPosition): Ranked
}

/**
 * A place in a ranking: results ranked after it have fewer words, else a lower score, else a
 * document number from `doc` on.
 */
export interface RankPosition {
  words: number
  score: number
  doc: number
}

export interface Ranked {
  docs: number[]
  words: number[]
  scores: number[]
  /** The query words that matched nothing, and the indexed word searched in their place. */
  corrected: Correction[]
}

/** A query's quoted phrases: each its words as the index reads them. */
function phrasesOf(query: string): string[][] {
  const out: string[][] = []
  for (const [, inner] of query.matchAll(/"([^"]*)"/g)) {
    const words = termsOf(inner!)
    if (words.length > 1) out.push(words)
  }
  return out
}

const termsOf = (text: string): string[] =>
  tokenize(text)
    .map(normalizeTerm)
    .filter((t) => t !== null)

/** Whether one of `fields` holds `phrase`'s words next to each other (stop words left out, as indexed). */
function holdsPhrase(fields: readonly string[], phrase: readonly string[]): boolean {
  for (const field of fields) {
    const words = termsOf(field)
    each: for (let at = 0; at + phrase.length <= words.length; at++) {
      for (let k = 0; k < phrase.length; k++) if (words[at + k] !== phrase[k]) continue each
      return true
    }
  }
  return false
}

/**
 * The keyword index answering from a finished state (see keywordIndexBuilder). `fieldsOf(doc)`
 * gives a document's searched text (title, tags, description), which a quoted phrase is matched
 * in: the index keeps no word places.
 */
export function keywordIndexFrom(
  state: KeywordIndexState,
  fieldsOf?: (doc: number) => readonly string[],
): KeywordIndex {
  const { n, terms, frequency, start, docs, scores } = state
  const termIds = new Map<string, number>(terms.map((t, i) => [t, i]))
  const completions = prefixCompletions(state)
  const near = nearWords(state)
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
    const corrected: Correction[] = []
    if (words.length === 0 || limit <= 0) return { docs: [], words: [], scores: [], corrected }
    // A quoted phrase of several words matches only where they stand together, as on the site.
    const phrases = fieldsOf ? phrasesOf(query) : []
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
      let prefixed = false
      if (w === words.length - 1 && word.length >= MIN_PREFIX) {
        for (const termId of completions(word)) {
          const length = terms[termId]!.length
          if (length === word.length) continue
          prefixed = true
          add(termId, (PREFIX_WEIGHT * length) / (length + 0.3 * (length - word.length)))
        }
      }
      // A word that matched nothing, neither whole nor as a prefix, searches the words near it.
      const typo = exact === undefined && !prefixed ? near(word) : undefined
      if (typo) {
        for (const { id, distance } of typo.terms) {
          const length = terms[id]!.length
          add(id, (FUZZY_WEIGHT * length) / (length + distance))
        }
        if (!corrected.some((c) => c.from === word)) corrected.push({ from: word, to: typo.best })
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
      // Last, as it reads the document's fields: only for a document that would enter the top.
      if (phrases.length > 0 && !phrases.every((phrase) => holdsPhrase(fieldsOf!(doc), phrase))) continue
      topDoc.splice(at, 0, doc)
      topWords.splice(at, 0, hits)
      topScore.splice(at, 0, score)
      if (topDoc.length > limit) {
        topDoc.pop()
        topWords.pop()
        topScore.pop()
      }
    }
    return { docs: topDoc, words: topWords, scores: topScore, corrected }
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
