// Ranks the articles of every shard of the search index as one Pagefind index of all of them
// would, from the scores the build wrote beside each shard's word index (scripts/build/
// search-scores.ts: per word and page, the sum of the weights of its places and the ranked
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

/** A quoted query: Pagefind searches the phrase, with no scores to rank by. */
export const isPhrase = (query) => /^\s*".+"\s*$/.test(query)

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

/** The length of a string in UTF-8 bytes, as Rust's str::len() counts it. */
const bytes = (s) => new TextEncoder().encode(s).length

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
 * `stems[i]` to its scores (a score file's list: page, weight, fields; the pages as differences);
 * `stems`: the query's terms as Pagefind stemmed them; `words`: the query's words.
 * Returns { total, ranked: [{ shard, page, score }] }, best first; equal scores in the order of
 * (shard, page), which is the order of the articles' hashes in every shard count.
 */
export function rankPages(shards, stems, words) {
  // Per shard: each word a term starts with, once, and which pages each term is on.
  const perShard = shards.map((shard) => {
    const lists = new Map()
    const on = stems.map((_, term) => {
      const set = new Uint8Array(shard.pages)
      for (const [word, list] of shard.found[term] ?? []) {
        lists.set(word, list)
        forEachPage(list, (page) => (set[page] = 1))
      }
      return set
    })
    return { lists, on }
  })
  let pages = 0
  let totalWords = 0
  const containing = stems.map(() => 0)
  shards.forEach((shard, s) => {
    pages += shard.pages
    totalWords += shard.words
    perShard[s].on.forEach((set, term) => {
      for (const v of set) containing[term] += v
    })
  })
  const average = pages > 0 ? totalWords / pages : 0
  const idfs = containing.map((c) => idf(pages, c))
  const queryIdf = idfs.reduce((sum, v) => sum + v, 0)
  // A word counts for the first term it extends; in a metadata field, for the last (as Pagefind does).
  const firstTerm = (word) => stems.findIndex((stem) => word.startsWith(stem))
  const lastTerm = (word) => stems.findLastIndex((stem) => word.startsWith(stem))
  const stemBytes = stems.map(bytes)
  // Each word's length once, not once per shard holding it.
  const lengths = new Map()
  const wordBytes = (word) => {
    let n = lengths.get(word)
    if (n === undefined) lengths.set(word, (n = bytes(word)))
    return n
  }
  const { k1, b, diacritic } = WEIGHTS

  const ranked = []
  shards.forEach((shard, s) => {
    const { lists, on } = perShard[s]
    const fields = shard.fields ?? []
    const score = new Float64Array(shard.pages)
    // Per page and field, the IDFs of the words the field holds.
    const inField = new Float64Array(shard.pages * fields.length)
    for (const [word, list] of lists) {
      const term = firstTerm(word)
      const wordIdf = idfs[term]
      const lengthed = lengthBonus(wordBytes(word) - stemBytes[term]) / UNIT
      const bonus = diacriticsMatch(words[term] ?? '', word) ? 1 + diacritic : 1
      const fieldIdf = idfs[lastTerm(word)]
      forEachPage(list, (page, weight, mask) => {
        if (weight > 0) {
          const weighted = weight * lengthed
          const norm = k1 * (1 - b + (b * (shard.lengths[page] ?? 0)) / average)
          score[page] += wordIdf * (((k1 + 1) * weighted) / (norm + weighted)) * bonus
        }
        for (let f = 0; mask >> f; f++) if (mask & (1 << f)) inField[page * fields.length + f] += fieldIdf
      })
    }
    for (let page = 0; page < shard.pages; page++) {
      if (!on.every((set) => set[page])) continue
      let total = score[page]
      if (queryIdf > 0)
        fields.forEach((name, f) => {
          const matched = inField[page * fields.length + f]
          const coverage = matched / queryIdf
          total += (WEIGHTS.fields[name] ?? 1) * matched * coverage * coverage
        })
      ranked.push({ shard: s, page, score: total })
    }
  })
  ranked.sort((x, y) => y.score - x.score || x.shard - y.shard || x.page - y.page)
  return { total: ranked.length, ranked }
}

/** Calls `fn(page, weight, fields)` for each page of a score file's list. */
export function forEachPage(list, fn) {
  let page = 0
  for (let i = 0; i < list.length; i += 3) {
    page += list[i]
    fn(page, list[i + 1], list[i + 2])
  }
}
