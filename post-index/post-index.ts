/**
 * The post index's contract: what the service asks of an index (PostIndex), the prepared bodies it
 * answers with, the places a page starts after, and the order and filter keys that the builder,
 * the queries and the build share. The service's handlers import this alone; the index is built
 * by post-index-builder.ts and answers through post-index-queries.ts.
 */
import { hash } from 'node:crypto'
import type { IndexEntry, Post } from '../model/article.ts'

/**
 * A response body prepared once per index, with its validators, so a read costs a lookup (a
 * detail's body excepted: see PostIndex.detail).
 */
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

/**
 * An article's parts, for answers that lay it out in shapes of their own (the MCP tools): its post
 * and its markdown, the latter in the two forms the bodies file keeps. Taken from the hot details
 * and the hot text forms when the article is among them (kept-answers.ts), else read.
 */
export interface ArticleParts {
  /** The post's JSON, as lists give it (without the markdown). */
  readonly post: Buffer
  /** The detail's members between the post's and the markdown (detail-body.ts, detailExtras). */
  readonly extras: Buffer
  /** The markdown as a JSON string literal, UTF-8, quotes included. */
  readonly markdown: Buffer
  /** That literal as the content of a JSON string (json-text.ts). */
  readonly markdownText: Buffer
}

export interface PostIndex {
  readonly size: number
  /**
   * The build the index was read from (its folder's name, as the build's link resolves). Answers
   * from the index carry it (`Lattice-Build`), so that an edge cache keyed by the build it serves
   * stores only answers of that build.
   */
  readonly build?: string
  /**
   * An article's detail response `{...post, "references", "citedBy", "markdown"}`, laid out from the index's BodySource
   * when it is not among the hot details (kept-answers.ts: the most recently read, up to a byte budget).
   * The same object while it stays hot. Throws when the body cannot be read.
   */
  detail(slug: string): PreparedBody | undefined
  /** An article's parts, kept as its detail is; throws when the body cannot be read. */
  article(slug: string): ArticleParts | undefined
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

export function prepareBytes(body: Buffer, lastModifiedMs: number): PreparedBody {
  const etag = `"${hash('sha256', body, 'base64url').slice(0, 27)}"`
  return { body, etag, lastModified: new Date(lastModifiedMs).toUTCString() }
}

/** Newest first, then by slug: the order of lists, and of ties in search. */
export function compareEntries(a: Pick<PostMeta, 'date' | 'slug'>, b: Pick<PostMeta, 'date' | 'slug'>): number {
  return b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug)
}

/** How a tag or an author is matched by the list's filters: case-insensitive, trimmed, NFC. */
export function filterKey(value: string): string {
  return value.normalize('NFC').trim().toLowerCase()
}
