// A web worker that holds several shards of the search index (search-client.js), each as an
// instance of Pagefind's own worker (pagefind-worker.js, loaded here from one shard's folder:
// the runtime is the same in every shard). Its messages are Pagefind's (init, search, getData,
// releaseData, each naming its instance by `instanceId`), answered in this worker rather than
// posted back, so that:
// - the WebAssembly module is fetched and compiled once for all the instances here (Pagefind's
//   wasm-bindgen glue keeps one module per worker, and reuses it once it is set up);
// - a search's answer is cut down here to what the ranking reads (search-rank.js) before it
//   crosses to the page: a common word's answer carries every place it occurs on every page.
/* global importScripts */

const runtime = new URL(self.location.href).searchParams.get('runtime') ?? '/pagefind/'

// Pagefind's files are gzip (RFC 1952) with a signature inside; given them unpacked, with the
// signature, its runtime takes them as they are (pagefind-worker.js, decompress()): the browser's
// own gunzip is several times faster than the runtime's, written in JavaScript.
const PACKED = /\.(pagefind|pf_meta|pf_index|pf_fragment|pf_filter)$/
const unpacked = async (url) => {
  const response = await realFetch(url)
  if (!response.ok) throw new Error(`${response.status} fetching ${url}`)
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer()
}
// Every shard's copy of the module is the same file: fetch one, once.
const realFetch = self.fetch.bind(self)
const modules = new Map()
// Fetches started before Pagefind asks for them, by path: the runtime asks for a shard's entry
// file (with a query to pass caches) and then its metadata only once the module is set up.
const early = new Map()
self.fetch = (input, init) => {
  const url = new URL(String(input), self.location.href)
  const started = early.get(url.pathname)
  if (started) {
    early.delete(url.pathname)
    return started.then((bytes) => new Response(bytes))
  }
  const module = /\/(wasm\.[^/]+\.pagefind)$/.exec(url.pathname)?.[1]
  if (module) {
    if (!modules.has(module)) modules.set(module, unpacked(new URL(runtime + module, self.location.href)))
    return modules.get(module).then((bytes) => new Response(bytes))
  }
  if (PACKED.test(url.pathname)) return unpacked(url).then((bytes) => new Response(bytes))
  return realFetch(input, init)
}

/** Starts fetching a shard's entry file and the metadata of its index for `language`. */
function prefetch(basePath, language) {
  const entryUrl = new URL(`${basePath}pagefind-entry.json`, self.location.href)
  const entry = realFetch(`${entryUrl}?ts=${Date.now()}`).then((r) => {
    if (!r.ok) throw new Error(`${r.status} fetching ${entryUrl}`)
    return r.arrayBuffer()
  })
  early.set(entryUrl.pathname, entry)
  entry
    .then((bytes) => {
      // The index Pagefind picks (pagefind-worker.js, findIndex()).
      const { languages } = JSON.parse(new TextDecoder().decode(bytes))
      const index =
        languages[language] ??
        languages[language.split('-')[0]] ??
        Object.values(languages).sort((a, b) => b.page_count - a.page_count)[0]
      if (!index) return
      const meta = new URL(`${basePath}pagefind.${index.hash}.pf_meta`, self.location.href)
      const metaBytes = unpacked(meta)
      metaBytes.catch(() => {}) // reported to the runtime when it asks
      early.set(meta.pathname, metaBytes)
    })
    .catch(() => {})
}

// Pagefind's message handler, called in this worker; its answers come back through postMessage.
const handlers = []
const realAdd = self.addEventListener.bind(self)
const realPost = self.postMessage.bind(self)
const pending = new Map()
self.addEventListener = (type, fn, options) => (type === 'message' ? handlers.push(fn) : realAdd(type, fn, options))
self.postMessage = (message) => {
  const call = pending.get(message?.id)
  if (!call) return realPost(message)
  pending.delete(message.id)
  if (message.error) call.reject(new Error(message.error))
  else call.resolve(message.result)
}
importScripts(`${runtime}pagefind-worker.js`)
self.addEventListener = realAdd

// The places a common word occurs are most of its answer: tens of megabytes of JSON per shard,
// which Pagefind's runtime parses into an object per place. Only the results whose excerpt may
// be shown need them: the others' lists of places are emptied before the runtime reads the answer.
// The answer is read as Pagefind 1.6's pagefind-worker.js reads it (search(): each result
// {"p","g","s","params","scores","l":[places],"mf","vms"}, a place {"w","s","l","v"} holding no
// array); an answer that does not read so is left whole.
// What the searches under way keep ({ top, ids }): the module's answer does not say whose it is,
// so each is cut to what all of them keep.
const keeping = new Set()
const search = wasm_bindgen.search
wasm_bindgen.search = (...args) => {
  const json = search(...args)
  if (keeping.size === 0) return json
  const ids = new Set([...keeping].flatMap((k) => [...(k.ids ?? [])]))
  return withoutPlaces(json, { top: Math.max(...[...keeping].map((k) => k.top)), ids })
}
/** Runs `search` with the places of the results `keep` names left in its answer. */
async function keepingPlaces(keep, search) {
  keeping.add(keep)
  try {
    return await search()
  } finally {
    keeping.delete(keep)
  }
}

/** `json` with the places of every result emptied but the `keep.top` best and those in `keep.ids`. */
function withoutPlaces(json, keep) {
  const spans = []
  for (let at = json.indexOf('],"l":['); at >= 0; at = json.indexOf('],"l":[', at + 1)) {
    const start = at + 7
    const end = json.indexOf(']', start)
    const from = json.lastIndexOf('{"p":"', at)
    const score = /^\{"p":"([^"]*)","g":"[^"]*","s":([-\d.e+]+),/.exec(json.slice(from, from + 200))
    if (end < 0 || !score || !/^\](,"mf"|,"vms"|\})/.test(json.slice(end, end + 7))) return json
    spans.push({ start, end, id: score[1], score: Number(score[2]) })
  }
  const kept = new Set([...spans].sort((x, y) => y.score - x.score).slice(0, keep.top))
  let out = ''
  let from = 0
  for (const span of spans) {
    if (kept.has(span) || keep.ids?.has(span.id)) continue
    out += json.slice(from, span.start)
    from = span.end
  }
  return out + json.slice(from)
}

let next = 0
const pagefind = (instanceId, method, args) =>
  new Promise((resolve, reject) => {
    const id = `w${next++}`
    pending.set(id, { resolve, reject })
    for (const handle of handlers) handle({ data: { id, instanceId, method, args } })
  })

/** A result as the ranking reads it: the parts of its score, not the places its words occur. */
const slim = (r, data) => ({
  id: r.id,
  score: r.score,
  data,
  params: r.params && { document_length: r.params.document_length },
  scores: r.scores?.map((s) => ({
    search_term: s.search_term,
    params: { weighted_term_frequency: s.params.weighted_term_frequency, length_bonus: s.params.length_bonus },
  })),
  verbose_meta_scores: r.verbose_meta_scores?.map((f) => ({
    field_weight: f.field_weight,
    matched_terms: f.matched_terms,
  })),
})

const methods = {
  /**
   * Opens `shards` ([{ name, basePath }]) in playground mode (each result carries its score's
   * parts). The first one alone: the glue sets up its module once only if no other instance is
   * setting it up meanwhile.
   */
  async open(shards, language) {
    const open = async ({ name, basePath }) => {
      await pagefind(name, 'init', [{ basePath, language }])
      await pagefind(name, 'enterPlaygroundMode', [])
    }
    for (const { basePath } of shards) prefetch(basePath, language)
    if (shards.length > 0) await open(shards[0])
    await Promise.all(shards.slice(1).map(open))
    return true
  },
  /** Searches one shard; keeps the data of the `keep` best results (by the shard's own score). */
  async search(name, query, keep) {
    const found = await keepingPlaces({ top: keep }, () => pagefind(name, 'search', [query, {}]))
    const results = found?.results ?? []
    const kept = new Set([...results].sort((x, y) => y.score - x.score).slice(0, keep))
    const out = results.map((r) => {
      if (kept.has(r)) return slim(r, r.data)
      pagefind(name, 'releaseData', [r.data])
      return slim(r, undefined)
    })
    return { results: out, idfs: found?.query_term_idfs }
  },
  /** The data of the results `ids` of a search run again (their data was let go). */
  async dataOf(name, query, ids) {
    const found = await keepingPlaces({ top: 0, ids }, () => pagefind(name, 'search', [query, {}]))
    const wanted = new Set(ids)
    const out = {}
    for (const r of found?.results ?? []) {
      if (wanted.has(r.id)) out[r.id] = r.data
      else pagefind(name, 'releaseData', [r.data])
    }
    return out
  },
  /** Loads the index chunks that hold `term`'s words. */
  preload: (name, term) => pagefind(name, 'preload', [term, {}]),
  getData: (name, dataId) => pagefind(name, 'getData', [dataId]),
  releaseData: (name, dataId) => pagefind(name, 'releaseData', [dataId]),
}

realAdd('message', async ({ data }) => {
  const { id, method, args } = data
  try {
    realPost({ id, result: await methods[method](...args) })
  } catch (error) {
    realPost({ id, error: error instanceof Error ? error.message : String(error) })
  }
})
