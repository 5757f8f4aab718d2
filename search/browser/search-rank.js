// Ranks the articles of every shard of the search index as one Pagefind index of all of them
// would, from the scores the build wrote beside each shard's word index (scripts/builder/
// search/build/scores.ts: per word and page, the sum of the weights of its places and the ranked
// metadata fields holding it) and the pages' lengths (shards.json). Pagefind scores a page with
// BM25 from its own index's statistics (how many pages, their average length, how many hold
// each word), so each shard alone would rank by different ones; here they are the whole index's.
// The formulas are Pagefind 1.6's (pagefind_web/src/search.rs: calculate_bm25_word_score,
// word_length_bonus, diacritic_bonus, the meta field boost) with its default ranking weights
// (RankingWeights).
//
// Two rules differ from Pagefind on purpose:
// - a term that no word of the index starts with matches nothing. Pagefind would then match the
//   longest indexed word the term starts with ("qwertyuiop" finding articles with "q"), so a
//   query of gibberish would answer with unrelated articles;
// - a place holding several indexed words (Pagefind indexes "second-chance" as the whole word and
//   as "second" and "chance", at one place) counts for each of them that the query matches.
//   Pagefind counts it once per query term, for whichever of the words its sort puts first (and,
//   where two terms match there, doubles its weight): its score needs the places, which the
//   scores do not keep.

import { filesFor, readGroupWords, seek, varint } from './search-group-file.js'
import { Ranked } from './search-ranked.js'

export { Ranked }

/**
 * Pagefind's default ranking weights: term_saturation (k1), page_length (b), term_similarity,
 * diacritic_similarity, meta_weights (fields not named weigh 1).
 */
export const WEIGHTS = { k1: 1.4, b: 0.75, similarity: 1, diacritic: 0.8, fields: { title: 5 } }
/** The weight of a word in plain text: Pagefind's term frequency counts places in this unit. */
export const UNIT = 24

/** BM25's IDF, as Pagefind computes it (never negative). */
export function idf(pages, containing) {
  return Math.log((pages - containing + 0.5) / (containing + 0.5) + 1)
}

// The punctuation Pagefind removes from a query before searching (pagefind.js, search()).
const PUNCTUATION = /^\p{Pd}|\p{Pe}|\p{Pf}|\p{Pi}|\p{Po}|\p{Ps}$/u

/** The words of a query as Pagefind reads them: lower case, punctuation removed. */
export function queryWords(query) {
  let out = ''
  for (const ch of query) if (!PUNCTUATION.test(ch)) out += ch.toLocaleLowerCase()
  return out.split(/\s+/).filter(Boolean)
}

/**
 * A query's quoted phrases, each as Pagefind is asked for it (its exact search, the phrase alone
 * in quotes): the pages holding every phrase rank as the query's words do, the phrases' words and
 * the loose ones alike (the API's rule, post-index/keyword-index-queries.ts).
 */
export const phrasesOf = (query) => [...query.matchAll(/"([^"]*\S[^"]*)"/g)].map(([, phrase]) => `"${phrase.trim()}"`)

/**
 * The chunks of a shard's word index (by their first words, in order) that may hold words
 * starting with `stem`: the one it falls in, and those after it whose first word starts with it.
 * Returns their positions.
 */
export function chunksOf(chunks, stem) {
  const own = chunks.findLastIndex((first) => first <= stem)
  const out = own >= 0 ? [own] : []
  for (let i = own + 1; i < chunks.length && chunks[i].startsWith(stem); i++) out.push(i)
  return out
}

/**
 * Reads into `ranking` (Ranking) the words of score group `group` (as shards.json lists it) that
 * start with term `t`, `stem`: `load(name)` gives a promise of one of its files' bytes, unpacked;
 * `positions` the ranking's number of each of the group's shards. The files are read in their
 * order, so that each page's sums add up in one order.
 */
export async function rankGroup(ranking, group, positions, t, stem, load) {
  const files = await Promise.all(filesFor(group, chunksOf(group.first, stem)).map(load))
  for (const bytes of files)
    readGroupWords(bytes, stem, (word, shard, list) => ranking.addList(positions[shard], word, t, list))
}

/**
 * The chunks past the ones each stem falls in (chunksOf), which Pagefind would not load itself:
 * it matches a term with every loaded word that starts with it, but loads only the chunk the
 * term falls in. Returns their first words.
 */
export function chunksToLoad(chunks, stems) {
  const wanted = new Set()
  for (const stem of stems) for (const i of chunksOf(chunks, stem).slice(1)) wanted.add(chunks[i])
  // A stem before the first chunk falls in none: its first chunk is loaded by Pagefind.
  return [...wanted]
}

// One encoder and one buffer for every length asked: a TextEncoder made per word, as before,
// cost more than the ranking's own work on a short prefix's thousands of words.
const ENCODER = new TextEncoder()
let scratch = new Uint8Array(256)

/** The length of a string in UTF-8 bytes, as Rust's str::len() counts it. */
export function utf8Length(s) {
  // At most 3 bytes per UTF-16 unit (a surrogate pair: 4 for 2).
  if (scratch.length < s.length * 3) scratch = new Uint8Array(s.length * 3)
  return ENCODER.encodeInto(s, scratch).written
}

/** Pagefind's word_length_bonus for a word `extra` bytes longer than the term (or shorter). */
export function lengthBonus(extra) {
  const differential = Math.min(255, Math.abs(extra) + 1)
  const base = Math.exp((-0.5 * differential ** 2) / 4)
  return Math.exp(base * WEIGHTS.similarity) / Math.exp(WEIGHTS.similarity)
}

const diacriticsMatch = (original, form) => form === original || form.startsWith(original) || original.startsWith(form)

/**
 * The merged ranking. `shards`: per shard, in the order of their names, { pages, words,
 * lengths, fields, found } where `found[i]` is a Map of each word of the shard that starts with
 * `stems[i]` to its scores (a score file's list: page, weight, fields; the pages as differences;
 * or a group file's, search-group-file.js); `stems`: the query's terms as Pagefind stemmed them;
 * `words`: the query's words.
 * Returns { total, ranked: [{ shard, page, score }] }, best first; equal scores in the order of
 * (shard, page), which is the order of the articles' hashes in every shard count.
 */
export function rankPages(shards, stems, words) {
  const ranking = new Ranking(shards, stems, words)
  for (const [s, shard] of shards.entries()) ranking.add(s, shard.found)
  const ranked = ranking.result()
  return { total: ranked.total, ranked: ranked.top(ranked.total) }
}

/**
 * rankPages, a list at a time as the scores arrive: `addList(s, word, t, list)` reads one list of
 * shard `s` found for term `t` (`add(s, found)`, a shard's `found` as rankPages takes it),
 * `result()` ranks every shard's pages once all are read. The scores are read once; a term's IDF
 * needs every shard's pages, so per page and term the reading sums BM25 without it, and counts
 * per field the words of each term it holds; the IDFs multiply in at the end.
 */
export class Ranking {
  constructor(shards, stems, words) {
    this.shards = shards
    this.terms = stems.length
    let pages = 0
    let totalWords = 0
    // A shard's hidden pages are articles changed since it was indexed, found in the delta shard
    // (scripts/builder/search-delta.ts): not counted, not found.
    for (const shard of shards) {
      const hidden = shard.hidden?.pages ?? []
      pages += shard.pages - hidden.length
      totalWords += shard.words
      for (const page of hidden) totalWords -= shard.lengths[page] ?? 0
    }
    this.pages = pages
    this.average = pages > 0 ? totalWords / pages : 0
    this.sums = []
    const stemBytes = stems.map(utf8Length)
    // What a word counts for, worked out once, not per shard listing it: every term it extends
    // puts its pages on that term's; it scores for the first, and in a metadata field for the
    // last (as Pagefind does).
    const counts = new Map()
    this.countOf = (word) => {
      let c = counts.get(word)
      if (!c) {
        const on = []
        for (const [t, stem] of stems.entries()) if (word.startsWith(stem)) on.push(t)
        const term = on[0]
        c = {
          on,
          term,
          fieldTerm: on.at(-1),
          lengthed: lengthBonus(utf8Length(word) - stemBytes[term]) / UNIT,
          bonus: diacriticsMatch(words[term] ?? '', word) ? 1 + WEIGHTS.diacritic : 1,
        }
        counts.set(word, c)
      }
      return c
    }
  }

  /** Reads shard `s`'s words starting with each term, as rankPages takes them. */
  add(s, found) {
    this.sums[s] ??= this.sumsOf(s)
    for (let t = 0; t < this.terms; t++) for (const [word, list] of found[t] ?? []) this.addList(s, word, t, list)
  }

  /** Reads the list of `word` in shard `s`, found as starting with term `t`. */
  addList(s, word, t, list) {
    const c = this.countOf(word)
    // A word extending several terms is found for each: read once.
    if (c.term === t) sumList(list, c, (this.sums[s] ??= this.sumsOf(s)))
  }

  /** Shard `s`'s sums, empty: `on`, `partial` page × term; `inField` (page × field) × term. */
  sumsOf(s) {
    const { terms, average } = this
    const shard = this.shards[s]
    const fieldCount = shard.fields?.length ?? 0
    return {
      on: new Uint8Array(shard.pages * terms),
      partial: new Float64Array(shard.pages * terms),
      inField: new Float64Array(shard.pages * fieldCount * terms),
      norms: normsOf(shard, average),
      terms,
      fieldCount,
    }
  }

  result() {
    const { terms } = this
    const containing = new Array(terms).fill(0)
    for (const [s, shard] of this.shards.entries())
      if (this.sums[s])
        for (const page of shard.hidden?.pages ?? []) this.sums[s].on.fill(0, page * terms, (page + 1) * terms)
    for (const sums of this.sums) if (sums) for (let i = 0; i < sums.on.length; i++) containing[i % terms] += sums.on[i]
    const idfs = containing.map((c) => idf(this.pages, c))
    const ranked = new Ranked()
    // A shard none of whose words a term starts has no page to rank.
    for (const [s, shard] of this.shards.entries())
      if (this.sums[s]) rankShard(s, shard.pages, shard.fields ?? [], this.sums[s], idfs, ranked)
    return ranked
  }
}

// Each shard's pages' BM25 length norms, by the average length they were worked out with: the
// same for every query of an index, and worked out for each shard a query finds words in.
const NORMS = new WeakMap()

/** The BM25 length norm of each page of `shard`, the index's pages `average` words long. */
function normsOf(shard, average) {
  const kept = NORMS.get(shard)
  if (kept?.average === average) return kept.norms
  const { k1, b } = WEIGHTS
  const norms = new Float64Array(shard.pages)
  for (let page = 0; page < shard.pages; page++) norms[page] = k1 * (1 - b + (b * (shard.lengths[page] ?? 0)) / average)
  NORMS.set(shard, { average, norms })
  return norms
}

// The loops of the ranking, each a function of its own called many times rather than a loop
// inside another: the engine optimizes a function once, where it would replace a hot inner loop
// on every turn of the outer one (V8's on-stack replacement), and the browser spent more time
// compiling than running them.

/** Adds one word's list, which counts as `c` (Ranking.countOf), to a shard's sums. */
function sumList(list, c, sums) {
  if (Array.isArray(list)) sumArray(list, c, sums)
  else sumPacked(list, c, sums)
}

/**
 * sumList for a group file's list, its pages read where they lie (search-group-file.js tells
 * the layout): reading them into arrays first took twice as long.
 */
function sumPacked(
  { bytes, at, count, unit, fields: hasFields },
  c,
  { on, partial, inField, norms, terms, fieldCount },
) {
  const k = WEIGHTS.k1 + 1
  const { lengthed, bonus, term, fieldTerm } = c
  const others = c.on.length > 1 ? c.on : undefined
  seek(at)
  let page = 0
  for (let i = 0; i < count; i++) {
    // The difference from the page before, times two, plus one if a weight follows.
    const step = varint(bytes)
    page += Math.floor(step / 2)
    const weighted = (step % 2 === 1 ? varint(bytes) * unit : unit) * lengthed
    const slot = page * terms
    on[slot + term] = 1
    if (others) for (const other of others) on[slot + other] = 1
    if (weighted > 0) partial[slot + term] += ((k * weighted) / (norms[page] + weighted)) * bonus
    if (hasFields) {
      const mask = varint(bytes)
      for (let f = 0; mask >> f; f++) if (mask & (1 << f)) inField[(page * fieldCount + f) * terms + fieldTerm] += 1
    }
  }
}

/** sumList for a score file's list: page (the difference from the one before), weight, fields, … */
function sumArray(list, c, { on, partial, inField, norms, terms, fieldCount }) {
  const k = WEIGHTS.k1 + 1
  const { lengthed, bonus, term, fieldTerm } = c
  const others = c.on.length > 1 ? c.on : undefined
  let page = 0
  for (let i = 0; i < list.length; i += 3) {
    page += list[i]
    const weighted = list[i + 1] * lengthed
    const slot = page * terms
    on[slot + term] = 1
    if (others) for (const other of others) on[slot + other] = 1
    if (weighted > 0) partial[slot + term] += ((k * weighted) / (norms[page] + weighted)) * bonus
    const mask = list[i + 2]
    for (let f = 0; mask >> f; f++) if (mask & (1 << f)) inField[(page * fieldCount + f) * terms + fieldTerm] += 1
  }
}

/** Adds to `ranked` (Ranked) shard `s`'s pages that every term is on, scored. */
function rankShard(s, pages, fields, { on, partial, inField }, idfs, ranked) {
  const terms = idfs.length
  const queryIdf = idfs.reduce((sum, v) => sum + v, 0)
  each: for (let page = 0; page < pages; page++) {
    let total = 0
    for (let t = 0; t < terms; t++) {
      if (!on[page * terms + t]) continue each
      total += idfs[t] * partial[page * terms + t]
    }
    let titled = 0
    let described = 0
    if (queryIdf > 0)
      for (let f = 0; f < fields.length; f++) {
        let matched = 0
        let share = 0
        for (let t = 0; t < terms; t++) {
          const count = inField[(page * fields.length + f) * terms + t]
          matched += idfs[t] * count
          if (count > 0) share += idfs[t] / queryIdf
        }
        const coverage = matched / queryIdf
        total += (WEIGHTS.fields[fields[f]] ?? 1) * matched * coverage * coverage
        if (fields[f] === 'title') titled = share
        else if (fields[f] === 'description') described = share
      }
    // Title matches rank first, then description matches, then the body's (issue 39), where
    // Pagefind only boosts them: a body that repeats a word, or many words it starts, outscored
    // an article titled or described with it.
    ranked.push(s, page, total, titled, described)
  }
}
