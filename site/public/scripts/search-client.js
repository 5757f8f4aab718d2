// The site search index, in shards (scripts/build/search-shards.ts), searched as one index: a
// Pagefind web worker per shard holds its index, in playground mode so that each result carries
// the parts of its score, and search-rank.js ranks all the shards' results with the statistics of
// the whole index. The messages are those Pagefind's own pagefind.js sends its worker
// (pagefind-worker.js: init, enterPlaygroundMode, search, getData, releaseData).
import { chunksToLoad, isPhrase, queryWords, rankAll, resolveTerm, shardCounts } from './search-rank.js'

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
  // A worker per shard: Pagefind's WebAssembly module holds one index's memory per worker.
  const workers = new Map(
    shards.map((name) => {
      const worker = new Worker(`${base}${name}/pagefind-worker.js`)
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
      return [name, worker]
    }),
  )
  const call = (name, method, args) =>
    broken
      ? Promise.reject(broken)
      : new Promise((resolve, reject) => {
          const id = `q${next++}`
          pending.set(id, { resolve, reject })
          workers.get(name).postMessage({ id, instanceId: name, method, args })
        })
  const language = document.documentElement.lang || 'unknown'
  await Promise.all(
    shards.map(async (name) => {
      await call(name, 'init', [{ basePath: `${base}${name}/`, language }])
      await call(name, 'enterPlaygroundMode', [])
    }),
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
  // Shards searched at once: a word on every page brings each shard's every match, with every
  // place it occurs, so all shards at once could exhaust the tab's memory on a large site.
  const PARALLEL = 4
  const searchShard = async (name, query, dataIds) => {
    const found = await call(name, 'search', [query, {}])
    const results = found?.results ?? []
    const kept = new Set([...results].sort((x, y) => y.score - x.score).slice(0, keep))
    for (const r of results) {
      // The places of each match: not used here, and most of a common word's answer.
      r.words = undefined
      if (!kept.has(r)) {
        call(name, 'releaseData', [r.data]).catch(() => {})
        r.data = undefined
      } else dataIds.push([name, r.data])
    }
    return { name, ...stats[name], results, idfs: found?.query_term_idfs }
  }
  const searchShards = async (answers, each) => {
    const out = new Array(answers.length)
    let next = 0
    const lane = async () => {
      while (next < answers.length) {
        const i = next++
        out[i] = await each(answers[i], i)
      }
    }
    await Promise.all(Array.from({ length: PARALLEL }, lane))
    return out
  }

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
    let answers = await searchShards(shards, (name) => searchShard(name, query, dataIds))
    const stems = answers.find((a) => a.idfs)?.idfs.map((t) => t.term) ?? []
    // Where a term's words run past the chunk Pagefind loaded, load the rest and search again.
    answers = await searchShards(answers, async (answer) => {
      const loaded = preloaded.get(answer.name)
      const chunks = chunksToLoad(stats[answer.name].chunks ?? [], stems).filter((first) => !loaded.has(first))
      if (chunks.length === 0) return answer
      await Promise.all(chunks.map((first) => call(answer.name, 'preload', [first, {}])))
      for (const first of chunks) loaded.add(first)
      return searchShard(answer.name, query, dataIds)
    })
    const words = queryWords(query)
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
        for (const name of shardsAgain) {
          const found = await call(name, 'search', [query, {}])
          const wanted = new Set(first.filter((r) => r.answer.name === name).map((r) => r.result.id))
          const byId = new Map()
          for (const r of found?.results ?? []) {
            if (wanted.has(r.id)) {
              byId.set(r.id, r.data)
              dataIds.push([name, r.data])
            } else call(name, 'releaseData', [r.data]).catch(() => {})
          }
          for (const r of first) if (r.answer.name === name) r.result.data ??= byId.get(r.result.id)
        }
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
