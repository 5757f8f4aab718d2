// The site search index, in shards (scripts/build/search-shards.ts), searched as one index: a
// few web workers (search-worker.js) hold the shards between them, each shard an instance of
// Pagefind's worker in playground mode, so that each result carries the parts of its score, and
// search-rank.js ranks all the shards' results with the statistics of the whole index.
import { chunksToLoad, isPhrase, queryWords, rankAll, resolveTerm, shardCounts } from './search-rank.js'

/** Workers at most: each compiles Pagefind's module once and searches its shards one at a time. */
const MAX_WORKERS = 4

/**
 * Opens the index under `base`; its `search(query)` answers { total, top(n) }. `keep`: matches
 * per shard whose data the worker keeps (the likely first results); one further down that ranks
 * among the first after all is searched for again.
 */
export async function openSearch(base = '/pagefind/', { keep = 50 } = {}) {
  const response = await fetch(`${base}shards.json`)
  if (!response.ok) throw new Error(`no search index (${response.status})`)
  const { shards, stats } = await response.json()
  const pending = new Map()
  let next = 0
  let broken
  const count = Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 2, shards.length)
  const script = new URL('./search-worker.js', import.meta.url)
  script.searchParams.set('runtime', `${base}${shards[0]}/`)
  const pool = Array.from({ length: count }, () => {
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
  })
  // Shards dealt out in turn: each worker holds about as many pages.
  const workerOf = new Map(shards.map((name, i) => [name, pool[i % count]]))
  const send = (worker, method, args) =>
    broken
      ? Promise.reject(broken)
      : new Promise((resolve, reject) => {
          const id = `q${next++}`
          pending.set(id, { resolve, reject })
          worker.postMessage({ id, method, args })
        })
  const call = (name, method, args) => send(workerOf.get(name), method, [name, ...args])
  const language = document.documentElement.lang || 'unknown'
  await Promise.all(
    pool.map((worker) =>
      send(worker, 'open', [
        shards.filter((name) => workerOf.get(name) === worker).map((name) => ({ name, basePath: `${base}${name}/` })),
        language,
      ]),
    ),
  )

  // The result data the worker keeps for each search, let go two searches later (by then the
  // page no longer asks for it: it reads only the latest search's results).
  const held = []
  const release = () => {
    while (held.length > 2)
      for (const [name, dataId] of held.shift()) call(name, 'releaseData', [dataId]).catch(() => {})
  }

  // The chunks loaded for earlier queries, by shard: searched with, they need no second search.
  const preloaded = new Map(shards.map((name) => [name, new Set()]))
  /** Loads the chunks of shard `name` past the ones Pagefind loads itself (chunksToLoad); true if any. */
  const preload = async (name, stems) => {
    const loaded = preloaded.get(name)
    const chunks = chunksToLoad(stats[name].chunks ?? [], stems).filter((first) => !loaded.has(first))
    await Promise.all(chunks.map((first) => call(name, 'preload', [first])))
    for (const first of chunks) loaded.add(first)
    return chunks.length > 0
  }
  // The stems Pagefind made of words searched before: with them, each shard loads all the chunks
  // a query needs before it is searched, and is searched once.
  const stemOf = new Map()
  const learnStems = (words, answer) => {
    const stems = answer?.idfs?.map((t) => t.term) ?? []
    if (stems.length === words.length) for (const [i, word] of words.entries()) stemOf.set(word, stems[i])
  }
  const searchShard = async (name, query, dataIds) => {
    const found = await call(name, 'search', [query, keep])
    for (const r of found.results) if (r.data !== undefined) dataIds.push([name, r.data])
    return { name, ...stats[name], results: found.results, idfs: found.idfs }
  }
  // Every shard at once: the workers answer in turn, each with only the parts of the scores.
  const searchShards = (answers, each) => Promise.all(answers.map(each))

  // One search at a time: each reads the statistics of all shards for its own query.
  let queue = Promise.resolve()
  const search = (query) => {
    const run = queue.then(() => searchNow(query))
    queue = run.catch(() => {})
    return run
  }

  async function searchNow(query) {
    const dataIds = []
    held.push(dataIds)
    const words = queryWords(query)
    // A word not seen yet: one shard tells its stem (Pagefind stems in its WebAssembly module),
    // searched with the chunks the word itself would need, as most stems are the word.
    const guess = words.map((word) => stemOf.get(word) ?? word)
    let first
    if (shards.length > 0 && words.some((word) => !stemOf.has(word))) {
      await preload(shards[0], guess)
      first = await searchShard(shards[0], query, dataIds)
    }
    learnStems(words, first)
    const known = words.map((word) => stemOf.get(word) ?? word)
    let answers = await searchShards(shards, async (name) => {
      if (name === shards[0] && first) return first
      await preload(name, known)
      return searchShard(name, query, dataIds)
    })
    const stems = answers.find((a) => a.idfs)?.idfs.map((t) => t.term) ?? []
    learnStems(
      words,
      answers.find((a) => a.idfs),
    )
    // Where a term's words run past the chunks loaded, load the rest and search again.
    answers = await searchShards(answers, async (answer) =>
      (await preload(answer.name, stems)) ? searchShard(answer.name, query, dataIds) : answer,
    )
    let ranked
    if (isPhrase(query)) {
      ranked = answers
        .flatMap((answer) => answer.results.map((result) => ({ answer, result, score: result.score })))
        .sort((x, y) => y.score - x.score || (x.result.id < y.result.id ? -1 : 1))
    } else {
      await searchShards(answers, (answer) => countTerms(answer, stems, words, dataIds))
      ranked = rankAll(answers, stems, words)
    }
    release()
    return {
      total: ranked.length,
      /** The first `n` results' data (url, meta, excerpt), in rank order. */
      top: async (n) => {
        const first = ranked.slice(0, n)
        // Shards searched again at most once each, before their results' data is read.
        const shardsAgain = new Set(first.filter((r) => r.result.data === undefined).map((r) => r.answer.name))
        await Promise.all(
          [...shardsAgain].map(async (name) => {
            const ids = first.filter((r) => r.answer.name === name).map((r) => r.result.id)
            const byId = await call(name, 'dataOf', [query, ids])
            for (const r of first) {
              if (r.answer.name !== name || r.result.data !== undefined) continue
              r.result.data = byId[r.result.id]
              dataIds.push([name, r.result.data])
            }
          }),
        )
        return Promise.all(first.map((r) => call(r.answer.name, 'getData', [r.result.data])))
      },
    }
  }

  /** Resolves how many of a shard's pages hold each term, searching a term alone where needed. */
  async function countTerms(answer, stems, words, dataIds) {
    Object.assign(answer, shardCounts(answer, stems))
    for (const i of answer.unknown) {
      const alone = await searchShard(answer.name, words[i] ?? stems[i], dataIds)
      if (!resolveTerm(alone.results, stems[i])) answer.counts[i] = 0
    }
  }

  return { search }
}
