import { createHash } from 'node:crypto'
import { toPost, type IndexEntry, type Post } from '../../model/article.ts'
import { keywordIndexBuilder, keywordIndexFrom, type KeywordIndexState } from './search.ts'

/** A response body prepared once per index, with its validators, so a read costs a lookup. */
export interface PreparedBody {
  readonly body: Buffer
  readonly etag: string
  /** HTTP-date */
  readonly lastModified: string
}

export interface PostIndex {
  readonly size: number
  /**
   * The build the index was read from (its folder's name, as the build's link resolves). Answers
   * from the index carry it (`Lattice-Build`), so that an edge cache keyed by the build it serves
   * stores only answers of that build.
   */
  readonly build?: string
  detail(slug: string): PreparedBody | undefined
  /** The newest `limit` posts as the list envelope `{"posts": [...]}`. */
  latest(limit: number): PreparedBody
  /** Ranked Post objects for a keyword query. */
  search(query: string, limit: number): Post[]
  /** The search envelope `{"query", "posts"}` as a prepared body, cached per query. */
  searchBody(query: string, limit: number): PreparedBody
}

/** An index entry without its body: what the index reads before the bodies. */
export type PostMeta = Omit<IndexEntry, 'markdown'>

export function prepareBody(json: string, lastModifiedMs: number): PreparedBody {
  return prepareBytes(Buffer.from(json), lastModifiedMs)
}

function prepareBytes(body: Buffer, lastModifiedMs: number): PreparedBody {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
  return { body, etag, lastModified: new Date(lastModifiedMs).toUTCString() }
}

/** Newest first, then by slug: the order of lists, and of ties in search. */
export function compareEntries(a: PostMeta, b: PostMeta): number {
  return b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug)
}

/** The index of entries held in memory, in any order (tests, tools); the service loads its own from a file. */
export function createPostIndex(entries: readonly IndexEntry[], baseUrl: string, now = new Date()): PostIndex {
  const sorted = [...entries].sort(compareEntries)
  const literals = sorted.map((e) => Buffer.from(JSON.stringify(e.markdown)))
  const builder = postIndexBuilder(baseUrl, now)
  sorted.forEach(({ markdown: _body, ...meta }, i) => builder.add(meta, literals[i]!.length))
  return builder.finish((i, target, at) => literals[i]!.copy(target, at))
}

const MARKDOWN_MEMBER = Buffer.from(',"markdown":')
const CHUNK_BYTES = 1 << 20

/**
 * Builds the in-memory index the API answers from, one post at a time in index order (newest
 * first, then by slug), keeping no object per post: each wire Post is kept as its JSON, and every
 * detail response is laid end to end in one buffer, off the JS heap. A body is copied once, from
 * its source straight into its place in that buffer, so the index holds about the corpus in
 * memory, once, and loading leaves little for the garbage collector.
 */
export function postIndexBuilder(baseUrl: string, now = new Date()) {
  const chunks: Buffer[] = []
  let chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES)
  let chunkUsed = 0
  let postBytes = 0
  const postStart: number[] = [0]
  const modifiedMs: number[] = []
  const markdownBytes: number[] = []
  const bySlug = new Map<string, number>()
  const search = keywordIndexBuilder()
  let previous: PostMeta | undefined

  return {
    /** Adds the next post; `bytes` is the length of its markdown as a JSON string literal in UTF-8. */
    add(meta: PostMeta, bytes: number): void {
      if (previous && compareEntries(previous, meta) >= 0)
        throw new Error(`post "${meta.slug}" comes after "${previous.slug}": posts must be newest first, then by slug, each once`)
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
      bySlug.set(meta.slug, modifiedMs.length)
      modifiedMs.push(Date.parse(meta.lastModified))
      markdownBytes.push(bytes)
      search.add(meta)
    },
    /** Lays out the detail responses, copying post `i`'s markdown literal with `copy`, and returns the index. */
    finish(copy: (i: number, target: Buffer, at: number) => void): PostIndex {
      return postIndexFrom(this.finishState(copy), now)
    },
    /** As finish, but returns the index as data: buffers, typed arrays and strings. */
    finishState(copy: (i: number, target: Buffer, at: number) => void): PostIndexState {
      chunks.push(chunk.subarray(0, chunkUsed))
      const posts = Buffer.allocUnsafeSlow(postBytes)
      let offset = 0
      for (const c of chunks) offset += c.copy(posts, offset)
      chunks.length = 0
      const size = modifiedMs.length
      const postAt = Float64Array.from(postStart)
      // A detail is `{...post, "markdown": <literal>}`: the post's JSON with its closing brace
      // replaced by the markdown member, byte for byte what JSON.stringify makes of the whole.
      const detailAt = new Float64Array(size + 1)
      for (let i = 0; i < size; i++) detailAt[i + 1] = detailAt[i]! + postAt[i + 1]! - postAt[i]! - 1 + MARKDOWN_MEMBER.length + markdownBytes[i]! + 1
      const details = Buffer.allocUnsafeSlow(detailAt[size]!)
      for (let i = 0; i < size; i++) {
        let at = detailAt[i]!
        at += posts.copy(details, at, postAt[i]!, postAt[i + 1]! - 1)
        at += MARKDOWN_MEMBER.copy(details, at)
        copy(i, details, at)
        details[detailAt[i + 1]! - 1] = 0x7d // }
      }
      return { posts, postAt, details, detailAt, modifiedMs: Float64Array.from(modifiedMs), slugs: [...bySlug.keys()], search: search.finishState() }
    },
  }
}

/** A finished post index as data: see postIndexBuilder. */
export interface PostIndexState {
  /** Every wire Post's JSON, end to end; post i is postAt[i] .. postAt[i + 1]. */
  posts: Buffer
  postAt: Float64Array
  /** Every detail response, end to end; post i's is detailAt[i] .. detailAt[i + 1]. */
  details: Buffer
  detailAt: Float64Array
  modifiedMs: Float64Array
  slugs: string[]
  search: KeywordIndexState
}

/** The index answering from a finished state. */
export function postIndexFrom(state: PostIndexState, now = new Date()): PostIndex {
  const { postAt, detailAt, modifiedMs } = state
  const { posts, details } = state
  const bySlug = new Map<string, number>(state.slugs.map((slug, i) => [slug, i]))
  const search = keywordIndexFrom(state.search)
  const prepared: Array<PreparedBody | undefined> = []
  const lists = new Map<number, PreparedBody>()
  // Popular queries repeat: their answers are kept, for this index only, up to a bound.
  const searches = new Map<string, PreparedBody>()
  const SEARCH_CACHE_LIMIT = 10_000
  const postJson = (i: number) => posts.subarray(postAt[i]!, postAt[i + 1]!)
  /** `{<head>[post, post, ...]}` exactly as JSON.stringify writes it, and its newest lastModified. */
  const envelope = (head: string, found: readonly number[]): { body: Buffer; newest: number } => {
    const parts: Buffer[] = [Buffer.from(`{${head}[`)]
    let newest = 0
    found.forEach((i, k) => {
      if (k > 0) parts.push(COMMA)
      parts.push(postJson(i))
      newest = Math.max(newest, modifiedMs[i]!)
    })
    parts.push(CLOSE)
    return { body: Buffer.concat(parts), newest }
  }

  return {
    size: modifiedMs.length,
    detail(slug) {
      const i = bySlug.get(slug)
      if (i === undefined) return undefined
      // Validators are computed on first read: hashing every body would slow start-up.
      return (prepared[i] ??= prepareBytes(details.subarray(detailAt[i]!, detailAt[i + 1]!), modifiedMs[i]!))
    },
    latest(limit) {
      let body = lists.get(limit)
      if (!body) {
        const { body: bytes, newest } = envelope('"posts":', Array.from({ length: Math.min(limit, modifiedMs.length) }, (_, i) => i))
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
        const { body: bytes, newest } = envelope(`"query":${JSON.stringify(query)},"posts":`, search.search(query, limit))
        body = prepareBytes(bytes, newest || now.getTime())
        if (searches.size >= SEARCH_CACHE_LIMIT) searches.delete(searches.keys().next().value!)
      }
      searches.set(key, body)
      return body
    },
  }
}

const COMMA = Buffer.from(',')
const CLOSE = Buffer.from(']}')
