// The search page's own web workers (search-rank-worker.js): they fetch and unpack the index's
// files and rank the score groups, off the page's thread. Without workers, or once one fails,
// the page does it itself (search-client.js).

/** Workers at most. */
const MAX_WORKERS = 2

/**
 * A pool of workers for the index at `base`, `text` its shards.json, started on first use: `count`, `unpack(url)` by the least busy one (the
 * file's bytes, unpacked), `result(url, stems, baseUrl)` likewise (a result's data from its
 * places file, search-excerpt.js), `rank(worker, args)` by worker number `worker` (its score files stay
 * there for the next query), and `broken`, true once a worker failed.
 */
export function rankWorkers(base, text) {
  const count = typeof Worker === 'undefined' ? 0 : Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 2)
  const script = new URL('./search-rank-worker.js', import.meta.url)
  const pool = []
  const pending = new Map()
  let next = 0
  const workers = {
    count,
    broken: count === 0,
    unpack: (url) => send(pool.length < count ? pool.length : least(), 'unpack', { url }),
    result: (url, stems, baseUrl) =>
      send(pool.length < count ? pool.length : least(), 'result', { url, stems, baseUrl }),
    rank: (worker, args) => send(worker, 'rank', args),
  }
  const least = () => pool.reduce((best, entry, i) => (entry.busy < pool[best].busy ? i : best), 0)
  const start = () => {
    const worker = new Worker(script, { type: 'module' })
    const entry = { worker, busy: 0 }
    // Messages are handled in order: the index is kept before any search.
    worker.postMessage({ id: -1, method: 'open', args: { base, text } })
    worker.addEventListener('message', ({ data }) => {
      const call = pending.get(data.id)
      // The answer to `open`: a failure fails the calls after it.
      if (!call) return
      pending.delete(data.id)
      entry.busy--
      if (data.error) call.reject(new Error(data.error))
      else call.resolve(data.result)
    })
    worker.addEventListener('error', (event) => {
      workers.broken = true
      const error = new Error(`search worker failed: ${event.message}`)
      for (const [id, call] of pending)
        if (call.entry === entry) {
          pending.delete(id)
          call.reject(error)
        }
    })
    return entry
  }
  const send = (i, method, args) => {
    if (workers.broken) return Promise.reject(new Error('search workers failed'))
    while (pool.length <= i) pool.push(start())
    const entry = pool[i]
    entry.busy++
    return new Promise((resolve, reject) => {
      const id = next++
      pending.set(id, { entry, resolve, reject })
      entry.worker.postMessage({ id, method, args })
    })
  }
  return workers
}
