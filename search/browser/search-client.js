// The site search index, in shards (scripts/builder/search-shards.ts), searched as one index. The
// ranking reads the scores the build wrote of each shard's words (search/build/scores.ts), merged per
// group of shards into files by word range (search/build/groups.ts): a query term costs one file per
// group, or the few a prefix spans, whatever the shard count, and only the words a term starts
// are read from them (search-group-file.js). With the pages' lengths
// (shards.json), search-rank.js ranks every shard's articles with the statistics of the whole
// index. The results shown are made from their fragments (Pagefind's JSON of the pages' text)
// and the places of their words, which the build wrote in one file per page (search-excerpt.js).
// Pagefind itself, in a few web workers (search-worker.js), is asked only for the stems of words
// not searched before, and for the pages holding a quoted phrase (ranked as the query's words). A query
// that finds nothing may be corrected from the vocabulary (search-typos.js).
import { resultOfPlaces } from './search-excerpt.js'
import { GROUP_FORMAT } from './search-group-file.js'
import { chunksOf, phrasesOf, queryWords, Ranking, rankGroup } from './search-rank.js'
import { correctFrom, foldWord, maxEdits } from './search-typos.js'
import { fetchUnpacked as fetchHere, filesByUrl } from './search-unpack.js'
import { rankWorkers } from './search-workers.js'

/** Workers at most: each compiles Pagefind's module once and searches its shards one at a time. */
const MAX_WORKERS = 4
/** Score files kept: a session's queries reuse them (a group's small file is some 150 KB unpacked, a block 600 KB). */
const MAX_SCORE_FILES = 128
/** The filter numbering each page in its shard (PAGE_FILTER, search/build/scores.ts). */
const PAGE_FILTER = 'page'
/** What Pagefind's files start with, once unpacked. */
const SIGNATURE = 'pagefind_dcd'

/**
 * Opens the index under `base`; its `search(query)` answers { total, top(n), stems, ranked },
 * and `correct(query)` the query with its typos corrected.
 */
export async function openSearch(base = '/pagefind/') {
  const response = await fetch(`${base}shards.json`)
  if (!response.ok) throw new Error(`no search index (${response.status})`)
  const text = await response.text()
  const index = JSON.parse(text)
  const { shards, stats } = index
  // An index whose groups are in another format (the live one, while a new site waits for its
  // own) is read from its shards' score files.
  const groups = index.groups?.every((group) => group.format === GROUP_FORMAT) ? index.groups : undefined
  const pending = new Map()
  let next = 0
  let broken
  const count = Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 2, shards.length)
  const script = new URL('./search-worker.js', import.meta.url)
  script.searchParams.set('runtime', `${base}${shards[0]}/`)
  // Workers started on first use: most searches need only the first (stems).
  const pool = []
  const startWorker = () => {
    const worker = new Worker(script)
    worker.addEventListener('message', ({ data }) => {
      const call = pending.get(data.id)
      pending.delete(data.id)
      if (data.error) call?.reject(new Error(data.error))
      else call?.resolve(data.result)
    })
    worker.addEventListener('error', (event) => {
      broken = new Error(`search worker failed: ${event.message}`)
      for (const call of pending.values()) call.reject(broken)
      pending.clear()
    })
    return worker
  }
  const language = document.documentElement.lang || 'unknown'
  // Where results' urls are rooted, as Pagefind finds it from the index's folder.
  const baseUrl = new URL(base, location.href).pathname.match(/^(.*\/)_?pagefind/)?.[1] ?? '/'
  // Shards dealt out in turn: each worker holds about as many pages.
  const workerOf = new Map(shards.map((name, i) => [name, i % count]))
  const call = (name, method, args) =>
    broken
      ? Promise.reject(broken)
      : new Promise((resolve, reject) => {
          const id = `q${next++}`
          pending.set(id, { resolve, reject })
          const worker = (pool[workerOf.get(name)] ??= startWorker())
          worker.postMessage({ id, method, args: [[name, `${base}${name}/`, language], ...args] })
        })

  // The page's own workers fetch, unpack and rank (search-workers.js); without them, the page.
  const workers = rankWorkers(base, text)
  const fetchUnpacked = (url) => (workers.broken ? fetchHere(url) : workers.unpack(url).catch(() => fetchHere(url)))
  // Score files by URL (their names are their chunks' hashes): a promise of a shard's { word: list },
  // or of a group's bytes.
  const scoreFiles = filesByUrl(MAX_SCORE_FILES)
  const scoreFile = (url, read = (url) => fetchPacked(url, fetchUnpacked)) => scoreFiles(url, read)
  /** Each word of shard `name` that starts with `stem`, with its scores, from the shard's own files. */
  const wordsOf = async (name, stem) => {
    const { chunks, scores } = stats[name]
    const files = await Promise.all(
      chunksOf(chunks, stem).map((i) => scoreFile(`${base}${name}/scores/${scores[i]}.pf_score`)),
    )
    const found = new Map()
    for (const file of files) for (const word in file) if (word.startsWith(stem)) found.set(word, file[word])
    return found
  }
  // Each shard's position in shards.json, as the ranking numbers them.
  const position = new Map(shards.map((name, i) => [name, i]))
  /** Reads into `ranking` the words of `group` that start with term `t`, `stem`, on this thread. */
  const readGroup = (group, t, stem, ranking) =>
    rankGroup(
      ranking,
      group,
      group.shards.map((shard) => position.get(shard)),
      t,
      stem,
      (file) => scoreFile(`${base}${group.name}/${file}.pf_group`, fetchUnpacked),
    )
  /**
   * A Ranking of the groups' words that start with the terms, each group read by one worker
   * (always the same, which keeps its files): the workers answer each shard's sums.
   */
  const rankInWorkers = async (stems, words) => {
    const ranking = new Ranking(shardStats, stems, words)
    const answers = await Promise.all(
      [...Array(workers.count).keys()].map((w) =>
        workers.rank(w, { base, stems, words, groups: groups.filter((_, i) => i % workers.count === w) }),
      ),
    )
    for (const sums of answers) for (const [s, sum] of sums) ranking.sums[s] = sum
    return ranking
  }

  // The stems Pagefind made of words searched before.
  const stemOf = new Map()
  /** The query's terms as Pagefind stems them: one shard tells those of words not searched before. */
  const stemsOf = async (query, words) => {
    if (shards.length > 0 && words.some((word) => !stemOf.has(word))) {
      const stems = await call(shards[0], 'stems', [query])
      if (stems.length === words.length) for (const [i, word] of words.entries()) stemOf.set(word, stems[i])
      else return stems
    }
    return words.map((word) => stemOf.get(word))
  }

  const shardStats = shards.map((name) => stats[name])
  /** Every shard's pages ranked for `stems` (search-rank.js), each group's files read as soon as they are in. */
  const rankedOf = async (stems, words) => {
    if (groups && !workers.broken)
      try {
        return (await rankInWorkers(stems, words)).result()
      } catch {
        // Read here: a worker failed.
      }
    const ranking = new Ranking(shardStats, stems, words)
    if (!groups)
      // An index without groups, or with groups in a format this page does not read.
      await Promise.all(
        shards.map(async (name, s) => ranking.add(s, await Promise.all(stems.map((stem) => wordsOf(name, stem))))),
      )
    else await Promise.all(groups.flatMap((group) => stems.map((stem, t) => readGroup(group, t, stem, ranking))))
    return ranking.result()
  }

  // One search at a time: a new word's stem is learnt once.
  let queue = Promise.resolve()
  const search = (query) => {
    const phrases = phrasesOf(query)
    const run = queue.then(() => (phrases.length > 0 ? searchPhrases(query, phrases) : searchNow(query)))
    queue = run.catch(() => {})
    return run
  }

  /** Every page with the query's words, ranked: { stems, ranked } (search-ranked.js), or no stems. */
  async function rankWords(query, words) {
    // Most stems are the word: its scores are fetched while Pagefind stems a new word.
    const guess = words.map((word) => stemOf.get(word) ?? word)
    const guessed = rankedOf(guess, words)
    guessed.catch(() => {})
    const stems = await stemsOf(query, words)
    if (stems.length === 0) return { stems }
    const right = stems.length === guess.length && stems.every((stem, i) => stem === guess[i])
    return { stems, ranked: await (right ? guessed : rankedOf(stems, words)) }
  }

  async function searchNow(query) {
    const { stems, ranked } = await rankWords(query, queryWords(query))
    return ranked ? answer(stems, ranked) : { total: 0, top: async () => [] }
  }

  /**
   * A query with quoted phrases: the pages Pagefind finds every phrase in, shard by shard, that
   * hold the loose words too, ranked as all the query's words rank them over the whole index
   * (Pagefind scores every match of a phrase alike, so that each shard's order was its pages'
   * order). A shard's hidden pages are not ranked.
   */
  async function searchPhrases(query, phrases) {
    const words = queryWords(query.replace(/"/g, ' '))
    const [{ stems, ranked }, found] = await Promise.all([
      rankWords(words.join(' '), words),
      Promise.all(
        shards.map(async (name) => {
          const each = await Promise.all(phrases.map((phrase) => call(name, 'phrase', [phrase, PAGE_FILTER])))
          const [first, ...rest] = each.map((pages) => new Set(pages))
          return new Set([...first].filter((page) => rest.every((pages) => pages.has(page))))
        }),
      ),
    ])
    return ranked
      ? answer(
          stems,
          ranked.only((shard, page) => found[shard].has(page)),
        )
      : { total: 0, top: async () => [] }
  }

  /** A search's answer from its `ranked` matches. */
  function answer(stems, ranked) {
    let all
    return {
      total: ranked.total,
      /** The query's terms as Pagefind stemmed them. */
      stems,
      /** Every match's shard (its position in shards.json), page (its number there) and score, best first. */
      get ranked() {
        all ??= ranked.top(ranked.total)
        return all
      },
      /** The first `n` results' data (url, meta, excerpt), in rank order. */
      top: (n) =>
        Promise.all(
          ranked.top(n).map(async ({ shard, page }) => {
            const dir = `${base}${shards[shard]}/`
            const url = `${dir}places/${stats[shards[shard]].places}/${page}.pf_places`
            const here = async () => resultOfPlaces(await fetchHere(url), stems, baseUrl)
            return workers.broken ? here() : workers.result(url, stems, baseUrl).catch(here)
          }),
        ),
    }
  }

  /** The query with its words that no indexed word starts with corrected (search-typos.js), or undefined. */
  async function correct(query) {
    if (!index.vocabulary || phrasesOf(query).length > 0) return undefined
    let changed = false
    const words = await Promise.all(
      query
        .trim()
        .split(/\s+/)
        .map(async (typed) => {
          const word = foldWord(typed)
          if (!/^\p{L}+$/u.test(word) || maxEdits(word.length) === 0) return typed
          const fixed = await correctFrom(word, index.vocabulary, (name) =>
            scoreFile(`${base}vocabulary/${name}.pf_vocab`),
          )
          if (fixed) changed = true
          return fixed ?? typed
        }),
    )
    return changed ? words.join(' ') : undefined
  }

  return { search, correct }
}

/** One of the index's JSON files, Pagefind's with its signature first, fetched by `fetchUnpacked`. */
async function fetchPacked(url, fetchUnpacked) {
  const text = new TextDecoder().decode(await fetchUnpacked(url))
  return JSON.parse(text.startsWith(SIGNATURE) ? text.slice(SIGNATURE.length) : text)
}
