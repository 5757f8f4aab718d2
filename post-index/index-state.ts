/**
 * What a built index holds in memory: the posts laid out end to end, their lists and the keyword
 * postings. Its builder, its queries, the file loader and the detail layout all read this shape,
 * so it stands below them.
 */

/**
 * Where an index reads each post's markdown, as a JSON string literal in UTF-8 (quotes included),
 * when a detail is asked for, and that literal as the content of a JSON string, when an MCP
 * tool's answer is. The service's index reads them from the build's bodies file
 * (file-bodies.ts), so that bodies stay out of its memory. Call it through the object, never a
 * detached method: the object may own a resource (an open file) for as long as it is reachable.
 */
export interface BodySource {
  /** The byte length of post i's literal. */
  length(i: number): number
  /** Copies post i's literal to `at` in `target`. */
  copy(i: number, target: Buffer, at: number): void
  /** The byte length of post i's literal as the content of a JSON string (json-text.ts). */
  textLength(i: number): number
  /** Copies post i's literal as the content of a JSON string to `at` in `target`. */
  copyText(i: number, target: Buffer, at: number): void
  /** The byte length of post i's references as a JSON array; 0 when it has none. */
  referencesLength(i: number): number
  /** Copies post i's references' JSON array to `at` in `target`. */
  copyReferences(i: number, target: Buffer, at: number): void
}

/** A finished keyword index as data: see keywordIndexBuilder. */
export interface KeywordIndexState {
  n: number
  terms: string[]
  frequency: Int32Array
  start: Int32Array
  docs: Int32Array
  scores: Float64Array
  walk: Int32Array
  rank: Int32Array
  sorted: Int32Array
}

/** A finished post index as data: see postIndexBuilder. */
export interface PostIndexState {
  /** Every wire Post's JSON, end to end; post i is postAt[i] .. postAt[i + 1]. */
  posts: Buffer
  postAt: Float64Array
  /**
   * Each detail's citing articles as a JSON array (detail-body.ts, citedByJson), end to end;
   * post i's is citedByAt[i] .. citedByAt[i + 1], empty where none cites it.
   */
  citedBy: Buffer
  citedByAt: Float64Array
  /** Each post's markdown literal and references, read when its detail is. */
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
  /**
   * The positions of the posts of each tag and of each author (by filterKey), ascending: a
   * filtered page is a slice.
   */
  byTag: Map<string, Int32Array>
  byAuthor: Map<string, Int32Array>
  search: KeywordIndexState
}
