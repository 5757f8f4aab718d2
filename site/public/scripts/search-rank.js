// Ranks the results of every shard of the search index as one Pagefind index of all the articles
// would. Pagefind scores a page with BM25 from its own index's statistics (how many pages, their
// average length, how many hold each word), so each shard alone ranks by different ones. In its
// playground mode Pagefind reports, for each result, the parts of its score (each word's weighted
// frequency and length bonus, the page's length, its title matches) and each query term's IDF in
// the shard; here the score is computed again from those parts with the whole index's statistics.
// The formulas are Pagefind 1.6's (pagefind_web/src/search.rs: calculate_bm25_word_score,
// diacritic_bonus, the meta field boost) with its default ranking weights (RankingWeights).
//
// One rule differs from Pagefind on purpose: a term that no word of the index starts with matches
// nothing. Pagefind would then match the longest indexed word the term starts with ("qwertyuiop"
// finding articles with "q"), so a query of gibberish would answer with unrelated articles.

/** Pagefind's default ranking weights: term_saturation (k1), page_length (b), diacritic_similarity. */
export const WEIGHTS = { k1: 1.4, b: 0.75, diacritic: 0.8 }

/** BM25's IDF, as Pagefind computes it (never negative). */
export function idf(pages, containing) {
  return Math.log((pages - containing + 0.5) / (containing + 0.5) + 1)
}

/** The number of pages holding a term, from the IDF Pagefind computed for it over `pages` pages. */
export function containingFromIdf(pages, value) {
  const r = Math.expm1(value)
  return Math.max(0, Math.round((pages + 0.5 - 0.5 * r) / (r + 1)))
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
 * starting with one of `stems`, besides the one each stem falls in, which Pagefind loads itself.
 * Pagefind matches a term with every loaded word that starts with it, but loads only the chunk
 * the term falls in: the words after the chunk's end would be missed, and differently in each
 * shard, where the chunks end elsewhere.
 */
export function chunksToLoad(chunks, stems) {
  const wanted = new Set()
  for (const stem of stems) {
    const own = chunks.findLastIndex((first) => first <= stem)
    for (let i = own + 1; i < chunks.length && chunks[i].startsWith(stem); i++) wanted.add(chunks[i])
  }
  return [...wanted]
}

/** For each stem, whether one of the result's scored words starts with it. */
function matchedStems(result, stems) {
  return stems.map((stem) => (result.scores ?? []).some((s) => s.search_term.startsWith(stem)))
}

/**
 * How many pages of one shard hold each query term. A term Pagefind matched in the shard only by
 * a shorter word (no word of the shard starts with it) counts none, and the shard's results are
 * dropped (`dropped`). `unknown`: terms the shard's results cannot tell about (it has none, but
 * pages with a word for the term): the caller searches them alone (resolveTerm).
 */
export function shardCounts(answer, stems) {
  const counts = stems.map((_, i) => containingFromIdf(answer.pages, answer.idfs?.[i]?.idf ?? idf(answer.pages, 0)))
  const unknown = []
  let dropped = false
  if (answer.results.length > 0) {
    matchedStems(answer.results[0], stems).forEach((matched, i) => {
      if (!matched) {
        counts[i] = 0
        dropped = true
      }
    })
  } else {
    for (let i = 0; i < counts.length; i++) if (counts[i] > 0) unknown.push(i)
  }
  return { counts, unknown, dropped }
}

/** Whether a shard's results for a term searched alone were words starting with it. */
export function resolveTerm(results, stem) {
  return results.length > 0 && matchedStems(results[0], [stem])[0]
}

const diacriticsMatch = (original, form) => form === original || form.startsWith(original) || original.startsWith(form)

/**
 * The merged ranking. `answers`: per shard, { pages, words, results, counts, dropped } (counts
 * resolved); `stems`: the query's terms as Pagefind stemmed them; `words`: the query's words.
 * Returns [{ answer, result, score }], best first; equal scores in the order of the page ids.
 */
export function rankAll(answers, stems, words) {
  let pages = 0
  let totalWords = 0
  const containing = stems.map(() => 0)
  for (const a of answers) {
    pages += a.pages
    totalWords += a.words
    for (let i = 0; i < stems.length; i++) containing[i] += a.counts[i] ?? 0
  }
  const average = pages > 0 ? totalWords / pages : 0
  const idfs = containing.map((c) => idf(pages, c))
  const queryIdf = idfs.reduce((sum, v) => sum + v, 0)
  // A word counts for the first term it extends; in a title, for the last (as Pagefind does).
  const firstTerm = (word) => stems.findIndex((stem) => word.startsWith(stem))
  const lastTerm = (word) => stems.findLastIndex((stem) => word.startsWith(stem))
  const { k1, b, diacritic } = WEIGHTS

  const score = (result) => {
    const length = result.params?.document_length ?? 0
    let total = 0
    for (const s of result.scores ?? []) {
      const term = firstTerm(s.search_term)
      if (term < 0) continue
      const weighted = s.params.weighted_term_frequency * s.params.length_bonus
      const tf = ((k1 + 1) * weighted) / (k1 * (1 - b + (b * length) / average) + weighted)
      const bonus = diacriticsMatch(words[term] ?? '', s.search_term) ? 1 + diacritic : 1
      total += idfs[term] * tf * bonus
    }
    for (const field of result.verbose_meta_scores ?? []) {
      if (queryIdf <= 0) continue
      let matched = 0
      for (const word of new Set(field.matched_terms)) {
        const term = lastTerm(word)
        if (term >= 0) matched += idfs[term]
      }
      const coverage = matched / queryIdf
      total += field.field_weight * matched * coverage * coverage
    }
    return total
  }

  const ranked = []
  for (const answer of answers) {
    if (answer.dropped) continue
    for (const result of answer.results) ranked.push({ answer, result, score: score(result) })
  }
  const byId = (x, y) => (x.result.id < y.result.id ? -1 : x.result.id > y.result.id ? 1 : 0)
  return ranked.sort((x, y) => y.score - x.score || byId(x, y))
}
