/**
 * The answers a loaded index keeps, each cache bounded (lru-cache, least recently read dropped
 * first), so that the service's memory follows these budgets and not the corpus
 * (docs/operations.md): repeated reads cost a lookup, the rest are laid out again.
 */
import { LRUCache } from 'lru-cache'
import type { PreparedBody } from './post-index.ts'

/** The bytes of detail responses kept per loaded index: the hot articles (about 6,000 of 20 KB). */
export const HOT_DETAIL_BYTES = 128 << 20
/**
 * The bytes of markdown text forms kept per loaded index (the JSON-string content the MCP tools
 * send beside the markdown): kept only for the articles agents read, as the details are.
 */
export const HOT_TEXT_BYTES = 128 << 20
/** Pages past the first and filtered pages, by total size and count. */
export const PAGE_CACHE = { bytes: 32 << 20, entries: 10_000 }
/** Search answers, by count (each is a page of at most 50 posts). */
export const SEARCH_CACHE_ENTRIES = 10_000

const sizeOf = (answer: PreparedBody) => Math.max(1, answer.body.length)

/**
 * Detail responses by article position. Without them a detail is laid out on each read from the
 * bodies file (a positioned read into a fresh ~20 KB buffer); a detail larger than the budget is
 * not kept.
 */
export const hotDetails = (bytes = HOT_DETAIL_BYTES) =>
  new LRUCache<number, PreparedBody>({ maxSize: bytes, sizeCalculation: sizeOf })

/** Markdown text forms by article position; one larger than the budget is not kept. */
export const hotTexts = (bytes = HOT_TEXT_BYTES) =>
  new LRUCache<number, Buffer>({ maxSize: bytes, sizeCalculation: (text) => Math.max(1, text.length) })

/** Pages of the lists and of searches, by their query. */
export const keptPages = () =>
  new LRUCache<string, PreparedBody>({ max: PAGE_CACHE.entries, maxSize: PAGE_CACHE.bytes, sizeCalculation: sizeOf })

/** Search answers by limit and query: popular queries repeat. */
export const keptSearches = () => new LRUCache<string, PreparedBody>({ max: SEARCH_CACHE_ENTRIES })
