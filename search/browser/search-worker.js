// A web worker that holds several shards of the search index (search-client.js), each as an
// instance of Pagefind's own worker (pagefind-worker.js, loaded here from one shard's folder:
// the runtime is the same in every shard). Its messages are Pagefind's (init, search, each naming
// its instance by `instanceId`), answered in this worker rather than
// posted back, so that the WebAssembly module is fetched and compiled once for all the
// instances here (Pagefind's wasm-bindgen glue keeps one module per worker, and reuses it once
// it is set up). Each method names its shard as [name, basePath, language].
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
// The files of the instance that stems queries (methods.stems) are a shard's, under this prefix,
// but for its word index: every chunk is empty.
const STEMS = '/.stems'
const EMPTY_CHUNK = new Uint8Array([...new TextEncoder().encode('pagefind_dcd'), 0x81, 0x80])
self.fetch = (input, init) => {
  let url = new URL(String(input), self.location.href)
  if (url.pathname.startsWith(`${STEMS}/`)) {
    if (url.pathname.endsWith('.pf_index')) return Promise.resolve(new Response(EMPTY_CHUNK))
    url = new URL(url.pathname.slice(STEMS.length) + url.search, url)
    input = url.href
  }
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

let next = 0
const pagefind = (instanceId, method, args) =>
  new Promise((resolve, reject) => {
    const id = `w${next++}`
    pending.set(id, { resolve, reject })
    for (const handle of handlers) handle({ data: { id, instanceId, method, args } })
  })

// Each shard's instance is opened on its first use: a search reads the scores the build wrote,
// not Pagefind, and asks Pagefind only for the stems of new words (from an instance whose word
// index is empty) and for the matches of a quoted phrase.
const opened = new Map()
let first
/** Opens shard `name` (at `basePath`) once, in playground mode (its searches report their terms' stems). */
function ensure(name, basePath, language) {
  if (!opened.has(name)) {
    if (!basePath.startsWith(STEMS)) prefetch(basePath, language)
    const open = async () => {
      await pagefind(name, 'init', [{ basePath, language }])
      await pagefind(name, 'enterPlaygroundMode', [])
    }
    // The first instance alone: the glue sets up its module once only if no other instance is
    // setting it up meanwhile.
    const done = first ? first.catch(() => {}).then(open) : open()
    first ??= done
    opened.set(name, done)
    // A shard that failed to open is opened again by its next use.
    done.catch(() => opened.delete(name))
  }
  return opened.get(name)
}

const methods = {
  /**
   * The stems Pagefind makes of the query's words (its terms' IDFs name them), from an instance
   * of the shard whose word index is empty: nothing to fetch but the shard's metadata, no page
   * in the answer.
   */
  async stems([, basePath, language], query) {
    await ensure(STEMS, `${STEMS}${new URL(basePath, self.location.href).pathname}`, language)
    const found = await pagefind(STEMS, 'search', [query, {}])
    return found?.query_term_idfs?.map((t) => t.term) ?? []
  },
  /**
   * The numbers of the shard's pages (its `pageFilter` values, search/build/scores.ts) that hold
   * the phrase. Pagefind scores every match of a phrase alike; the page ranks them itself. A
   * filter that keeps every page (none is numbered -1) loads the page filter, whose counts among
   * the results then name them.
   */
  async phrase(shard, query, pageFilter) {
    await ensure(...shard)
    const found = await pagefind(shard[0], 'search', [query, { filters: { [pageFilter]: { not: '-1' } } }])
    const counts = found?.filters?.[pageFilter] ?? {}
    return Object.keys(counts)
      .filter((page) => counts[page] > 0)
      .map(Number)
  },
}

realAdd('message', async ({ data }) => {
  const { id, method, args } = data
  try {
    realPost({ id, result: await methods[method](...args) })
  } catch (error) {
    realPost({ id, error: error instanceof Error ? error.message : String(error) })
  }
})
