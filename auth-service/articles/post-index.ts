import { createHash } from 'node:crypto'
import { toPost, type IndexedPost, type Post } from './post.ts'
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
  /** Identifies this index's content; changes whenever any post does. */
  readonly version: string
  readonly loadedAt: Date
  detail(slug: string): PreparedBody | undefined
  /** The newest `limit` posts as the list envelope `{"posts": [...]}`. */
  latest(limit: number): PreparedBody
  /** Ranked Post objects for a keyword query. */
  search(query: string, limit: number): Post[]
  /** The wire Post for a slug (for search results and tests). */
  post(slug: string): Post | undefined
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
export function createPostIndex(indexed: readonly IndexedPost[], baseUrl: string, now = new Date()): PostIndex {
  const sorted = [...indexed].sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug))
  const posts = sorted.map((p) => toPost(p, baseUrl))
  const modifiedMs = sorted.map((p) => Date.parse(p.lastModified))
  const bySlug = new Map<string, number>(sorted.map((p, i) => [p.slug, i]))
  const details = new Map<string, PreparedBody>()
  const lists = new Map<number, PreparedBody>()
  const search: KeywordSearch = buildKeywordSearch(sorted)
  const version = createHash('sha256')
    .update(baseUrl)
    .update(JSON.stringify(sorted))
    .digest('base64url')
    .slice(0, 16)

  return {
    size: sorted.length,
    version,
    loadedAt: now,
    detail(slug) {
      const i = bySlug.get(slug)
      if (i === undefined) return undefined
      let prepared = details.get(slug)
      if (!prepared) {
        prepared = prepareBody(JSON.stringify({ ...posts[i], markdown: sorted[i]!.markdown }), modifiedMs[i]!)
        details.set(slug, prepared)
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
    post(slug) {
      const i = bySlug.get(slug)
      return i === undefined ? undefined : posts[i]
    },
  }
}
