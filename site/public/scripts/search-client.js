// The site search index, in shards (scripts/build/search-shards.ts), searched as one index. The
// ranking reads the scores the build wrote of each shard's words (search-scores.ts), merged per
// group of shards into files by word range (search-groups.ts): a query term costs one file per
// group, or the few a prefix spans, whatever the shard count. With the pages' lengths
// (shards.json), search-rank.js ranks every shard's articles with the statistics of the whole
// index. The results shown are made from their fragments (Pagefind's JSON of the pages' text)
// and the places of their words, which the build wrote in one file per page (search-excerpt.js).
// Pagefind itself, in a few web workers (search-worker.js), is asked only for the stems of words
// not searched before, and for the matches of a quoted phrase.
import { resultData } from './search-excerpt.js'
import { chunksOf, isPhrase, queryWords, rankPages } from './search-rank.js'

/** Workers at most: each compiles Pagefind's module once and searches its shards one at a time. */
const MAX_WORKERS = 4
/** Score files kept: a session's queries reuse them (a group's file is some 300 KB of JSON). */
const MAX_SCORE_FILES = 128
/** What Pagefind's files start with, once unpacked. */
const SIGNATURE = 'pagefind_dcd'

/**
 * Opens the index under `base`; its `search(query)` answers { total, top(n) } (and `stems`,
 * `ranked`, but for a phrase).
 */
export async function openSearch(base = '/pagefind/') {
  const response = await fetch(`${base}shards.json`)
  if (!response.ok) throw new Error(`no search index (${response.status})`)
  const { shards, stats, groups } = await response.json()
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

  // Score files by URL (their names are their chunks' hashes): a promise of { word: list }.
  const scoreFiles = new Map()
  const scoreFile = (url) => {
    let file = scoreFiles.get(url)
    if (!file) {
      file = fetchPacked(url)
      file.catch(() => scoreFiles.delete(url))
      scoreFiles.set(url, file)
      if (scoreFiles.size > MAX_SCORE_FILES) scoreFiles.delete(scoreFiles.keys().next().value)
    }
    return file
  }
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
  /** Per shard of a group, each of its words that starts with `stem`, with its scores. */
  const groupWordsOf = async ({ name, shards: members, first, files }, stem) => {
    const read = await Promise.all(chunksOf(first, stem).map((i) => scoreFile(`${base}${name}/${files[i]}.pf_group`)))
    const found = new Map(members.map((shard) => [shard, new Map()]))
    for (const file of read)
      for (const word in file)
        if (word.startsWith(stem)) for (const shard in file[word]) found.get(shard).set(word, file[word][shard])
    return found
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

  /** Every shard's words starting with each stem, with their scores, as rankPages reads them. */
  const scoresOf = async (stems) => {
    if (!groups)
      // An index written before its scores were grouped.
      return Promise.all(
        shards.map(async (name) => ({ ...stats[name], found: await Promise.all(stems.map((s) => wordsOf(name, s))) })),
      )
    const found = new Map(shards.map((name) => [name, stems.map(() => new Map())]))
    await Promise.all(
      groups.flatMap((group) =>
        stems.map(async (stem, term) => {
          for (const [shard, words] of await groupWordsOf(group, stem)) found.get(shard)[term] = words
        }),
      ),
    )
    return shards.map((name) => ({ ...stats[name], found: found.get(name) }))
  }

  // The result data a phrase search holds in the workers, let go at the next search (by then the
  // page reads only the latest search's results).
  let held = []
  const release = () => {
    for (const { name, result } of held) call(name, 'releaseData', [result.data]).catch(() => {})
    held = []
  }

  // One search at a time: a new word's stem is learnt once.
  let queue = Promise.resolve()
  const search = (query) => {
    const run = queue.then(() => {
      release()
      return isPhrase(query) ? searchPhrase(query) : searchNow(query)
    })
    queue = run.catch(() => {})
    return run
  }

  async function searchNow(query) {
    const words = queryWords(query)
    // Most stems are the word: its scores are fetched while Pagefind stems a new word.
    const guess = words.map((word) => stemOf.get(word) ?? word)
    const guessed = scoresOf(guess)
    guessed.catch(() => {})
    const stems = await stemsOf(query, words)
    if (stems.length === 0) return { total: 0, top: async () => [] }
    const right = stems.length === guess.length && stems.every((stem, i) => stem === guess[i])
    const found = await (right ? guessed : scoresOf(stems))
    const { total, ranked } = rankPages(found, stems, words)
    return {
      total,
      /** The query's terms as Pagefind stemmed them. */
      stems,
      /** Every match's shard (its position in shards.json), page (its number there) and score, best first. */
      ranked,
      /** The first `n` results' data (url, meta, excerpt), in rank order. */
      top: (n) =>
        Promise.all(
          ranked.slice(0, n).map(async ({ shard, page }) => {
            const dir = `${base}${shards[shard]}/`
            const { fragment, words } = await fetchPacked(
              `${dir}places/${stats[shards[shard]].places}/${page}.pf_places`,
            )
            return resultData(fragment, words, stems, baseUrl)
          }),
        ),
    }
  }

  /** A quoted query: Pagefind's own matches of the phrase in every shard, by its scores. */
  async function searchPhrase(query) {
    const answers = await Promise.all(
      shards.map(async (name) => (await call(name, 'phrase', [query])).map((result) => ({ name, result }))),
    )
    const ranked = answers
      .flat()
      .sort((x, y) => y.result.score - x.result.score || (x.result.id < y.result.id ? -1 : 1))
    held = ranked
    return {
      total: ranked.length,
      top: (n) => Promise.all(ranked.slice(0, n).map((r) => call(r.name, 'getData', [r.result.data]))),
    }
  }

  return { search }
}

/**
 * One of the index's JSON files: gzip (unpacked here unless the server already did), Pagefind's
 * with its signature first.
 */
async function fetchPacked(url) {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${response.status} fetching ${url}`)
  const bytes = new Uint8Array(await response.arrayBuffer())
  const text =
    bytes[0] === 0x1f && bytes[1] === 0x8b
      ? // Streamed from the bytes: a Blob per file costs more than the unpacking (Chromium).
        await new Response(new Response(bytes).body.pipeThrough(new DecompressionStream('gzip'))).text()
      : new TextDecoder().decode(bytes)
  return JSON.parse(text.startsWith(SIGNATURE) ? text.slice(SIGNATURE.length) : text)
}
