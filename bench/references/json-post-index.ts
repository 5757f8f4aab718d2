/**
 * The service's post index as it was before the line-delimited format: one JSON document read and
 * parsed whole, bodies held as strings until their detail is first prepared. Kept as the
 * reference that the benchmark and the equivalence test compare the current loader with.
 */
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import { IndexEntry, detailFields, toPost } from '../../model/article.ts'
import { buildKeywordSearch } from './minisearch-keyword-index.ts'
import type { PostIndexCore, PreparedBody } from '../../post-index/post-index.ts'

const FILE = 'post-index.json'

export async function writeJsonIndex(dir: string, entries: readonly IndexEntry[]): Promise<void> {
  await writeFile(join(dir, FILE), JSON.stringify({ version: 1, posts: entries }))
}

export function loadJsonIndex(dir: string, baseUrl: string): PostIndexCore {
  const data = JSON.parse(readFileSync(join(dir, FILE), 'utf8')) as { posts: unknown[] }
  return createJsonPostIndex(
    data.posts.map((p) => IndexEntry.parse(p)),
    baseUrl,
  )
}

function prepareBody(json: string, lastModifiedMs: number): PreparedBody {
  const body = Buffer.from(json)
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
  return { body, etag, lastModified: new Date(lastModifiedMs).toUTCString() }
}

export function createJsonPostIndex(indexed: readonly IndexEntry[], baseUrl: string, now = new Date()): PostIndexCore {
  const ordered = [...indexed].sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug))
  const markdown: Array<string | undefined> = ordered.map((p) => p.markdown)
  const sorted = ordered.map(({ markdown: _body, ...meta }) => meta)
  const posts = sorted.map((p) => toPost(p, baseUrl))
  const modifiedMs = sorted.map((p) => Date.parse(p.lastModified))
  const bySlug = new Map<string, number>(sorted.map((p, i) => [p.slug, i]))
  const details = new Map<string, PreparedBody>()
  const lists = new Map<number, PreparedBody>()
  const search = buildKeywordSearch(sorted)
  const searches = new Map<string, PreparedBody>()
  const SEARCH_CACHE_LIMIT = 10_000

  return {
    size: sorted.length,
    detail(slug) {
      const i = bySlug.get(slug)
      if (i === undefined) return undefined
      let prepared = details.get(slug)
      if (!prepared) {
        const detail = { ...posts[i], ...detailFields(sorted[i]!, baseUrl), markdown: markdown[i] }
        prepared = prepareBody(JSON.stringify(detail), modifiedMs[i]!)
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
