import { createHash } from 'node:crypto'
import { toPost, type IndexEntry, type Post } from '../../model/article.ts'
import { buildKeywordSearch, type KeywordSearch } from './search.ts'

/** A response body prepared once per index, with its validators, so a read costs a lookup. */
export interface PreparedBody {
  readonly body: Buffer
  readonly etag: string
  /** HTTP-date */
  readonly lastModified: string
}

export interface PostIndex {
  readonly size: number
  detail(slug: string): PreparedBody | undefined
  /** The newest `limit` posts as the list envelope `{"posts": [...]}`. */
  latest(limit: number): PreparedBody
  /** Ranked Post objects for a keyword query. */
  search(query: string, limit: number): Post[]
  /** The search envelope `{"query", "posts"}` as a prepared body, cached per query. */
  searchBody(query: string, limit: number): PreparedBody
}

export function prepareBody(json: string, lastModifiedMs: number): PreparedBody {
  const body = Buffer.from(json)
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
  return { body, etag, lastModified: new Date(lastModifiedMs).toUTCString() }
}

/**
 * Builds the in-memory index the API answers from: wire posts with absolute URLs, prepared
 * detail bodies, and the keyword search. Posts are ordered newest first.
 */
export function createPostIndex(indexed: readonly IndexEntry[], baseUrl: string, now = new Date()): PostIndex {
  const ordered = [...indexed].sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug))
  // Each body is held once: as markdown until its detail response is first prepared, then only
  // inside that response, so the index costs about the corpus in memory, not twice that.
  const markdown: Array<string | undefined> = ordered.map((p) => p.markdown)
  const sorted = ordered.map(({ markdown: _body, ...meta }) => meta)
  const posts = sorted.map((p) => toPost(p, baseUrl))
  const modifiedMs = sorted.map((p) => Date.parse(p.lastModified))
  const bySlug = new Map<string, number>(sorted.map((p, i) => [p.slug, i]))
  const details = new Map<string, PreparedBody>()
  const lists = new Map<number, PreparedBody>()
  const search: KeywordSearch = buildKeywordSearch(sorted)
  // Popular queries repeat: their answers are kept, for this index only, up to a bound.
  const searches = new Map<string, PreparedBody>()
  const SEARCH_CACHE_LIMIT = 10_000

  return {
    size: sorted.length,
    detail(slug) {
      const i = bySlug.get(slug)
      if (i === undefined) return undefined
      let prepared = details.get(slug)
      if (!prepared) {
        prepared = prepareBody(JSON.stringify({ ...posts[i], markdown: markdown[i] }), modifiedMs[i]!)
        details.set(slug, prepared)
        markdown[i] = undefined
      }
      return prepared
    },
    latest(limit) {
      let prepared = lists.get(limit)
      if (!prepared) {
        const n = Math.min(limit, posts.length)
        prepared = prepareBody(JSON.stringify({ posts: posts.slice(0, n) }), Math.max(0, ...modifiedMs.slice(0, n)))
        lists.set(limit, prepared)
      }
      return prepared
    },
    search(query, limit) {
      return search.search(query, limit).map((slug) => posts[bySlug.get(slug)!]!)
    },
    searchBody(query, limit) {
      const key = `${limit}\0${query}`
      let prepared = searches.get(key)
      if (prepared) {
        // Refresh its place: the Map's order is the eviction order.
        searches.delete(key)
      } else {
        const found = this.search(query, limit)
        const newest = Math.max(0, ...found.map((p) => Date.parse(p.lastModified)))
        prepared = prepareBody(JSON.stringify({ query, posts: found }), newest || now.getTime())
        if (searches.size >= SEARCH_CACHE_LIMIT) searches.delete(searches.keys().next().value!)
      }
      searches.set(key, prepared)
      return prepared
    },
  }
}
