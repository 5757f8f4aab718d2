import { hash } from 'node:crypto'
import { toPost, type IndexEntry, type Post } from '../model/article.ts'
import { fileValidators } from './edge-files.ts'
import { keywordIndexBuilder, keywordIndexFrom, type KeywordIndexState } from './search.ts'

/** A response body prepared once per index, with its validators, so a read costs a lookup (a detail's body excepted: see PostIndex.detail). */
export interface PreparedBody {
  readonly body: Buffer
  readonly etag: string
  /** HTTP-date */
  readonly lastModified: string
  /** JSON unless given. */
  readonly contentType?: string
  /** Further name/value pairs to send with it (a page's `Link` to the next). */
  readonly headers?: readonly string[]
}

type Validators = Pick<PreparedBody, 'etag' | 'lastModified'>

export interface PostIndex {
  readonly size: number
  /**
   * The build the index was read from (its folder's name, as the build's link resolves). Answers
   * from the index carry it (`Lattice-Build`), so that an edge cache keyed by the build it serves
   * stores only answers of that build.
   */
  readonly build?: string
  /**
   * An article's detail response `{...post, "markdown"}`. Its body is laid out on each call, the
   * markdown read from the index's BodySource (the page cache keeps the popular ones); only its
   * validators are kept. Throws when the body cannot be read.
   */
  detail(slug: string): PreparedBody | undefined
  /** The newest `limit` posts as the list envelope `{"posts": [...]}`. */
  latest(limit: number): PreparedBody
  /** Ranked Post objects for a keyword query. */
  search(query: string, limit: number): Post[]
  /** The search envelope `{"query", "posts"}` as a prepared body, cached per query. */
  searchBody(query: string, limit: number): PreparedBody
  /**
   * A page of the list `{"posts", "next_cursor"}`: up to `limit` posts matching `filter`, in list
   * order, after `after` (from the start when undefined); `next` names the page after it.
   */
  listPage(
    filter: ListFilter,
    after: ListPosition | undefined,
    limit: number,
    next: NextPage<ListPosition>,
  ): PreparedBody
  /** A page of a search `{"query", "posts", "next_cursor"}`: up to `limit` matches ranked after `after`. */
  searchPage(
    query: string,
    after: SearchPosition | undefined,
    limit: number,
    next: NextPage<SearchPosition>,
  ): PreparedBody
}

/** The reads that every index format answers, the benchmark's reference index too (bench/references). */
export type PostIndexCore = Pick<PostIndex, 'size' | 'detail' | 'latest' | 'search' | 'searchBody'>

/** A place in the list order (newest first, then by slug): a page starts after it. */
export interface ListPosition {
  date: string
  slug: string
}

/** A place in a search's ranking: words matched, then score, then the list order. */
export interface SearchPosition extends ListPosition {
  words: number
  score: number
}

/** What a list page keeps: posts with the tag, by the author (both by filterKey), modified at or after a moment. */
export interface ListFilter {
  tag?: string
  author?: string
  updatedSinceMs?: number
}

/**
 * How a page refers to the one after it, given its last post: a cursor for the body and a URL
 * for the `Link` header. Pages are kept per filter, position and limit, so it must depend on
 * nothing else.
 */
export type NextPage<P> = (last: P) => { cursor: string; url: string }

/** An index entry without its body: what the index reads before the bodies. */
export type PostMeta = Omit<IndexEntry, 'markdown'>

export function prepareBody(json: string, lastModifiedMs: number): PreparedBody {
  return prepareBytes(Buffer.from(json), lastModifiedMs)
}

function prepareBytes(body: Buffer, lastModifiedMs: number): PreparedBody {
  const etag = `"${hash('sha256', body, 'base64url').slice(0, 27)}"`
  return { body, etag, lastModified: new Date(lastModifiedMs).toUTCString() }
}

/** Newest first, then by slug: the order of lists, and of ties in search. */
export function compareEntries(a: Pick<PostMeta, 'date' | 'slug'>, b: Pick<PostMeta, 'date' | 'slug'>): number {
  return b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug)
}

/** The index of entries held in memory, in any order (tests, tools); the service loads its own from a file. */
export function createPostIndex(entries: readonly IndexEntry[], baseUrl: string, now = new Date()): PostIndex {
  const sorted = [...entries].sort(compareEntries)
  const builder = postIndexBuilder(baseUrl, now)
  for (const { markdown: _body, ...meta } of sorted) builder.add(meta)
  return builder.finish(memoryBodies(sorted.map((e) => Buffer.from(JSON.stringify(e.markdown)))))
}

/**
 * Where an index reads each post's markdown, as a JSON string literal in UTF-8 (quotes included),
 * when a detail is asked for. The service's index reads them from the build's bodies file
 * (index-file.ts), so that bodies stay out of its memory. Call it through the object, never a
 * detached method: the object may own a resource (an open file) for as long as it is reachable.
 */
export interface BodySource {
  /** The byte length of post i's literal. */
  length(i: number): number
  /** Copies post i's literal to `at` in `target`. */
  copy(i: number, target: Buffer, at: number): void
}

/** Bodies held in memory, post i's literal at i (tests and tools). */
export function memoryBodies(literals: readonly Buffer[]): BodySource {
  return {
    length: (i) => literals[i]!.length,
    copy: (i, target, at) => void literals[i]!.copy(target, at),
  }
}

const MARKDOWN_MEMBER = Buffer.from(',"markdown":')

/**
 * A detail response is `{...post, "markdown": <literal>}`: the post's JSON with its closing brace
 * replaced by the markdown member, byte for byte what JSON.stringify makes of the whole.
 */
const detailLength = (postLength: number, literalLength: number) =>
  postLength - 1 + MARKDOWN_MEMBER.length + literalLength + 1

/** The byte length of post i's detail response in a finished index. */
export function detailSize(state: PostIndexState, i: number): number {
  return detailLength(state.postAt[i + 1]! - state.postAt[i]!, state.bodies.length(i))
}

/** A detail response: the post's JSON, then the literal `copyLiteral` writes into it at the offset it is given. */
function layDetail(post: Buffer, literalLength: number, copyLiteral: (target: Buffer, at: number) => void): Buffer {
  const target = Buffer.allocUnsafe(detailLength(post.length, literalLength))
  let at = post.copy(target, 0, 0, post.length - 1)
  at += MARKDOWN_MEMBER.copy(target, at)
  copyLiteral(target, at)
  target[at + literalLength] = 0x7d // }
  return target
}

/** One article's detail response, laid out as the index lays it: the build writes it as the file the edge serves (edge-files.ts). */
export function detailBytes(meta: PostMeta, markdownLiteral: Buffer, baseUrl: string): Buffer {
  return layDetail(Buffer.from(JSON.stringify(toPost(meta, baseUrl))), markdownLiteral.length, (target, at) =>
    markdownLiteral.copy(target, at),
  )
}
const CHUNK_BYTES = 1 << 20

/**
 * Builds the in-memory index the API answers from, one post at a time in index order (newest
 * first, then by slug), keeping no object per post: each wire Post is kept as its JSON, end to
 * end in one buffer off the JS heap. Bodies are not held: a detail is laid out on each read from
 * the index's BodySource, so the index's memory grows with the metadata, not with the corpus.
 */
export function postIndexBuilder(baseUrl: string, now = new Date()) {
  const chunks: Buffer[] = []
  let chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES)
  let chunkUsed = 0
  let postBytes = 0
  const postStart: number[] = [0]
  const modifiedMs: number[] = []
  const bySlug = new Map<string, number>()
  const dates: string[] = []
  const byTag = new Map<string, number[]>()
  const byAuthor = new Map<string, number[]>()
  const search = keywordIndexBuilder()
  let previous: PostMeta | undefined

  return {
    /** Adds the next post. */
    add(meta: PostMeta): void {
      if (previous && compareEntries(previous, meta) >= 0)
        throw new Error(
          `post "${meta.slug}" comes after "${previous.slug}": posts must be newest first, then by slug, each once`,
        )
      previous = meta
      const json = JSON.stringify(toPost(meta, baseUrl))
      const length = Buffer.byteLength(json)
      if (chunkUsed + length > chunk.length) {
        chunks.push(chunk.subarray(0, chunkUsed))
        chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, length))
        chunkUsed = 0
      }
      chunkUsed += chunk.write(json, chunkUsed)
      postBytes += length
      postStart.push(postBytes)
      const at = modifiedMs.length
      bySlug.set(meta.slug, at)
      dates.push(meta.date)
      for (const tag of new Set(meta.tags.map(filterKey))) listOf(byTag, tag).push(at)
      // The byline as the API gives it, and each author of it: a filter by any one finds the article.
      const names = [meta.author, ...(meta.authors ?? []).map((a) => a.name)]
      for (const name of new Set(names.map(filterKey))) listOf(byAuthor, name).push(at)
      modifiedMs.push(Date.parse(meta.lastModified))
      search.add(meta)
    },
    /** The index, reading post i's body, the i-th added, from `bodies`. */
    finish(bodies: BodySource): PostIndex {
      return postIndexFrom(this.finishState(bodies), now)
    },
    /** As finish, but returns the index as data: buffers, typed arrays and strings, and `bodies`. */
    finishState(bodies: BodySource): PostIndexState {
      chunks.push(chunk.subarray(0, chunkUsed))
      const posts = Buffer.allocUnsafeSlow(postBytes)
      let offset = 0
      for (const c of chunks) offset += c.copy(posts, offset)
      chunks.length = 0
      return {
        posts,
        postAt: Float64Array.from(postStart),
        bodies,
        modifiedMs: Float64Array.from(modifiedMs),
        slugs: [...bySlug.keys()],
        dates,
        byTag: positions(byTag),
        byAuthor: positions(byAuthor),
        search: search.finishState(),
      }
    },
  }
}

/** A finished post index as data: see postIndexBuilder. */
export interface PostIndexState {
  /** Every wire Post's JSON, end to end; post i is postAt[i] .. postAt[i + 1]. */
  posts: Buffer
  postAt: Float64Array
  /** Each post's markdown literal, read when its detail is. */
  bodies: BodySource
  modifiedMs: Float64Array
  /**
   * Each detail's file's mtime where the build wrote it for the edge (edge-files.ts), NaN where
   * it did not: a detail with a file has the file's validators, so that nginx and the service
   * send the same ones.
   */
  detailFileMs?: Float64Array
  slugs: string[]
  /** Each post's `date` (YYYY-MM-DD), in index order. */
  dates: string[]
  /** The positions of the posts of each tag and of each author (by filterKey), ascending: a filtered page is a slice. */
  byTag: Map<string, Int32Array>
  byAuthor: Map<string, Int32Array>
  search: KeywordIndexState
}

/** How a tag or an author is matched by the list's filters: case-insensitive, trimmed, NFC. */
export function filterKey(value: string): string {
  return value.normalize('NFC').trim().toLowerCase()
}

function listOf(map: Map<string, number[]>, key: string): number[] {
  let list = map.get(key)
  if (!list) map.set(key, (list = []))
  return list
}

function positions(map: Map<string, number[]>): Map<string, Int32Array> {
  return new Map([...map].map(([key, list]) => [key, Int32Array.from(list)]))
}

/** The index answering from a finished state. */
export function postIndexFrom(state: PostIndexState, now = new Date()): PostIndex {
  const { posts, postAt, bodies, modifiedMs } = state
  const bySlug = new Map<string, number>(state.slugs.map((slug, i) => [slug, i]))
  const search = keywordIndexFrom(state.search)
  // Only the validators are kept per article: keeping the bodies would hold the corpus again.
  const validators: Array<Validators | undefined> = []
  const lists = new Map<number, PreparedBody>()
  // Popular queries repeat: their answers are kept, for this index only, up to a bound.
  const searches = new Map<string, PreparedBody>()
  const SEARCH_CACHE_LIMIT = 10_000
  const { dates, slugs, byTag, byAuthor } = state
  const size = modifiedMs.length
  // Pages past the first, and filtered ones, are kept up to a total size and count, the oldest
  // dropped first; the first pages of the whole list, one per limit, are kept apart.
  const pages = new Map<string, PreparedBody>()
  const firstPages = new Map<number, PreparedBody>()
  let pageBytes = 0
  const keepPage = (key: string, page: PreparedBody) => {
    pages.set(key, page)
    pageBytes += page.body.length
    for (const [oldest, old] of pages) {
      if (pageBytes <= PAGE_CACHE.bytes && pages.size <= PAGE_CACHE.entries) break
      pages.delete(oldest)
      pageBytes -= old.body.length
    }
  }
  /** The first position after `after` in the list order (binary search: the order is the index's). */
  const firstAfter = (after: ListPosition): number => {
    let lo = 0
    let hi = size
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareEntries({ date: dates[mid]!, slug: slugs[mid]! } as PostMeta, after as PostMeta) <= 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  /** `{"posts": […], "next_cursor": …}` or the search's, with the `Link` to the next page. */
  const page = (
    head: string,
    found: number[],
    limit: number,
    next: () => { cursor: string; url: string },
  ): PreparedBody => {
    const more = found.length > limit
    if (more) found.length = limit
    const link = more ? next() : undefined
    const { body, newest } = envelope(head, found, `,"next_cursor":${link ? JSON.stringify(link.cursor) : 'null'}`)
    const prepared = prepareBytes(body, newest || now.getTime())
    return link ? { ...prepared, headers: ['Link', `<${link.url}>; rel="next"`] } : prepared
  }
  const postJson = (i: number) => posts.subarray(postAt[i]!, postAt[i + 1]!)
  /** Post i's detail response, laid out afresh: its JSON, then its body as `bodies` reads it. */
  const detailBody = (i: number): Buffer =>
    layDetail(postJson(i), bodies.length(i), (target, at) => bodies.copy(i, target, at))
  /** Post i's validators: its edge file's where the build wrote one, else of its bytes (hashed once, on first read, not at start-up). */
  const detailValidators = (i: number, body: Buffer): Validators => {
    const fileMs = state.detailFileMs?.[i] ?? Number.NaN
    if (!Number.isNaN(fileMs)) return fileValidators(fileMs, body.length)
    const { etag, lastModified } = prepareBytes(body, modifiedMs[i]!)
    return { etag, lastModified }
  }
  /** `{<head>[post, post, ...]<tail>}` exactly as JSON.stringify writes it, and its newest lastModified. */
  const envelope = (head: string, found: readonly number[], tail = ''): { body: Buffer; newest: number } => {
    const parts: Buffer[] = [Buffer.from(`{${head}[`)]
    let newest = 0
    found.forEach((i, k) => {
      if (k > 0) parts.push(COMMA)
      parts.push(postJson(i))
      newest = Math.max(newest, modifiedMs[i]!)
    })
    parts.push(tail ? Buffer.from(`]${tail}}`) : CLOSE)
    return { body: Buffer.concat(parts), newest }
  }

  return {
    size: modifiedMs.length,
    detail(slug) {
      const i = bySlug.get(slug)
      if (i === undefined) return undefined
      const body = detailBody(i)
      return { body, ...(validators[i] ??= detailValidators(i, body)) }
    },
    latest(limit) {
      let body = lists.get(limit)
      if (!body) {
        const { body: bytes, newest } = envelope(
          '"posts":',
          Array.from({ length: Math.min(limit, modifiedMs.length) }, (_, i) => i),
        )
        body = prepareBytes(bytes, newest)
        lists.set(limit, body)
      }
      return body
    },
    search(query, limit) {
      return search.search(query, limit).map((i) => JSON.parse(postJson(i).toString()) as Post)
    },
    searchBody(query, limit) {
      const key = `${limit}\0${query}`
      let body = searches.get(key)
      if (body) {
        // Refresh its place: the Map's order is the eviction order.
        searches.delete(key)
      } else {
        const { body: bytes, newest } = envelope(
          `"query":${JSON.stringify(query)},"posts":`,
          search.search(query, limit),
        )
        body = prepareBytes(bytes, newest || now.getTime())
        if (searches.size >= SEARCH_CACHE_LIMIT) searches.delete(searches.keys().next().value!)
      }
      searches.set(key, body)
      return body
    },
    listPage(filter, after, limit, next) {
      // The first pages of the whole list are most of the traffic: kept apart, found by limit alone.
      const opening =
        after === undefined &&
        filter.tag === undefined &&
        filter.author === undefined &&
        filter.updatedSinceMs === undefined
      const key = opening
        ? ''
        : JSON.stringify(['list', limit, filter.tag, filter.author, filter.updatedSinceMs, after?.date, after?.slug])
      const kept = opening ? firstPages.get(limit) : pages.get(key)
      if (kept) return kept
      const start = after ? firstAfter(after) : 0
      const since = filter.updatedSinceMs
      const lists: Int32Array[] = []
      if (filter.tag !== undefined) lists.push(byTag.get(filter.tag) ?? NONE)
      if (filter.author !== undefined) lists.push(byAuthor.get(filter.author) ?? NONE)
      // One more than asked, to know whether a next page exists.
      const found: number[] = []
      const take = (i: number) => {
        if (since === undefined || modifiedMs[i]! >= since) found.push(i)
      }
      if (lists.length === 0) for (let i = start; i < size && found.length <= limit; i++) take(i)
      else {
        // Walk the first list from the start; the others are intersected with pointers that only advance.
        const [first, ...others] = lists
        const at = others.map((list) => lowerBound(list, start))
        for (let k = lowerBound(first!, start); k < first!.length && found.length <= limit; k++) {
          const i = first![k]!
          let everywhere = true
          others.forEach((list, o) => {
            while (at[o]! < list.length && list[at[o]!]! < i) at[o]!++
            if (list[at[o]!] !== i) everywhere = false
          })
          if (everywhere) take(i)
        }
      }
      const body = page('"posts":', found, limit, () => {
        const last = found[limit - 1]!
        return next({ date: dates[last]!, slug: slugs[last]! })
      })
      if (opening) firstPages.set(limit, body)
      else keepPage(key, body)
      return body
    },
    searchPage(query, after, limit, next) {
      const key = JSON.stringify(['search', limit, query, after?.words, after?.score, after?.date, after?.slug])
      const kept = pages.get(key)
      if (kept) return kept
      const ranked = search.rank(
        query,
        limit + 1,
        after && { words: after.words, score: after.score, doc: firstAfter(after) },
      )
      const body = page(`"query":${JSON.stringify(query)},"posts":`, ranked.docs, limit, () => {
        const last = ranked.docs[limit - 1]!
        return next({
          words: ranked.words[limit - 1]!,
          score: ranked.scores[limit - 1]!,
          date: dates[last]!,
          slug: slugs[last]!,
        })
      })
      keepPage(key, body)
      return body
    },
  }
}

/** Pages kept per index (see postIndexFrom): many distinct filters cost at most this. */
const PAGE_CACHE = { bytes: 32 << 20, entries: 10_000 }
const NONE = new Int32Array(0)

/** The first place in an ascending list whose value is at least `value`. */
function lowerBound(list: Int32Array, value: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (list[mid]! < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

const COMMA = Buffer.from(',')
const CLOSE = Buffer.from(']}')
