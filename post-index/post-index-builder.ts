/**
 * Builds the in-memory post index, one post at a time in index order, into its finished state
 * (PostIndexState: buffers, typed arrays and strings); createPostIndex does it for entries held
 * in memory. The file loader (index-file-loader.ts) feeds it line by line.
 */
import type { IndexEntry } from '../model/article.ts'
import { toPost } from '../model/article.ts'
import { authorSlug } from '../model/author-address.ts'
import { citedByJson, memoryBodies, referencesJson } from './detail-body.ts'
import type { BodySource, PostIndexState } from './index-state.ts'
import { compareEntries, filterKey, type PostIndex, type PostMeta } from './post-index.ts'
import { postIndexFrom } from './post-index-queries.ts'
import { keywordIndexBuilder } from './keyword-index-builder.ts'

/**
 * The index of entries held in memory, in any order (tests, tools); the service loads its own
 * from a file.
 */
export function createPostIndex(entries: readonly IndexEntry[], baseUrl: string, now = new Date()): PostIndex {
  const sorted = [...entries].sort(compareEntries)
  const builder = postIndexBuilder(baseUrl, now)
  for (const { markdown: _body, ...meta } of sorted) builder.add(meta)
  const literals = sorted.map((e) => Buffer.from(JSON.stringify(e.markdown)))
  return builder.finish(memoryBodies(literals, sorted.map(referencesJson)))
}

const CHUNK_BYTES = 1 << 20

/**
 * Builds the in-memory index the API answers from, one post at a time in index order (newest
 * first, then by slug), keeping no object per post: each wire Post is kept as its JSON, end to
 * end in one buffer off the JS heap. Bodies are not held: a detail is laid out on each read from
 * the index's BodySource, so the index's memory grows with the metadata, not with the corpus.
 */
export function postIndexBuilder(baseUrl: string, now = new Date()) {
  const posts = byteRun()
  const citedBy = byteRun()
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
      posts.add(JSON.stringify(toPost(meta, baseUrl)))
      // The references stay in the bodies file; the citing articles, a few bytes, are kept here.
      citedBy.add(citedByJson(meta, baseUrl))
      const at = modifiedMs.length
      bySlug.set(meta.slug, at)
      dates.push(meta.date)
      for (const tag of new Set(meta.tags.map(filterKey))) listOf(byTag, tag).push(at)
      // The byline as the API gives it, each author of it and each author's page slug (of their
      // `url`): a filter by any one finds the article.
      const people = meta.authors ?? [{ name: meta.author }]
      const names = [meta.author, ...people.map((a) => a.name), ...people.map(authorSlug)]
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
      const post = posts.finish()
      const citing = citedBy.finish()
      return {
        posts: post.bytes,
        postAt: post.at,
        citedBy: citing.bytes,
        citedByAt: citing.at,
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

/** Byte strings laid end to end off the JS heap, in chunks while they come; the i-th at at[i] .. at[i + 1]. */
function byteRun() {
  const chunks: Buffer[] = []
  let chunk = Buffer.allocUnsafeSlow(0)
  let chunkUsed = 0
  let total = 0
  const starts: number[] = [0]
  return {
    /** Adds bytes, or a string's UTF-8 written in place (no buffer made for it). */
    add(bytes: Buffer | string): void {
      const length = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length
      if (chunkUsed + length > chunk.length) {
        chunks.push(chunk.subarray(0, chunkUsed))
        chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, length))
        chunkUsed = 0
      }
      chunkUsed += typeof bytes === 'string' ? chunk.write(bytes, chunkUsed) : bytes.copy(chunk, chunkUsed)
      total += length
      starts.push(total)
    },
    finish(): { bytes: Buffer; at: Float64Array } {
      chunks.push(chunk.subarray(0, chunkUsed))
      const bytes = Buffer.allocUnsafeSlow(total)
      let offset = 0
      for (const c of chunks) offset += c.copy(bytes, offset)
      chunks.length = 0
      return { bytes, at: Float64Array.from(starts) }
    },
  }
}

function listOf(map: Map<string, number[]>, key: string): number[] {
  let list = map.get(key)
  if (!list) map.set(key, (list = []))
  return list
}

function positions(map: Map<string, number[]>): Map<string, Int32Array> {
  return new Map([...map].map(([key, list]) => [key, Int32Array.from(list)]))
}
