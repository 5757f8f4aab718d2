/**
 * The post index answering from a finished state (postIndexFrom): details, lists, filtered pages
 * and searches, with the caches of prepared bodies that make a repeated read a lookup. Building
 * the state is post-index-builder.ts's.
 */
import type { Post } from '../model/article.ts'
import { MARKDOWN_MEMBER, layDetail } from './detail-body.ts'
import { fileValidators } from './edge-files.ts'
import { hotDetails, hotTexts, keptPages, keptSearches } from './kept-answers.ts'
import {
  compareEntries,
  type ListPosition,
  type PostIndex,
  type PostMeta,
  type PreparedBody,
  prepareBytes,
} from './post-index.ts'
import type { PostIndexState } from './index-state.ts'
import { keywordIndexFrom } from './keyword-index-queries.ts'

type Validators = Pick<PreparedBody, 'etag' | 'lastModified'>

/** The index answering from a finished state. */
export function postIndexFrom(state: PostIndexState, now = new Date()): PostIndex {
  const { posts, postAt, bodies, modifiedMs } = state
  const bySlug = new Map<string, number>(state.slugs.map((slug, i) => [slug, i]))
  const search = keywordIndexFrom(state.search, (i) => {
    const post = JSON.parse(postJson(i).toString()) as Post
    return [post.title, ...post.tags, post.description ?? '']
  })
  // Only the validators are kept for every article, the details of the hot ones up to a budget:
  // keeping every body would hold the corpus again.
  const validators: Array<Validators | undefined> = []
  const hot = hotDetails()
  const texts = hotTexts()
  const lists = new Map<number, PreparedBody>()
  const searches = keptSearches()
  const { dates, slugs, byTag, byAuthor } = state
  const size = modifiedMs.length
  // Pages past the first, and filtered ones, are kept up to a budget; the first pages of the
  // whole list, one per limit, are kept apart.
  const pages = keptPages()
  const firstPages = new Map<number, PreparedBody>()
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
  const detailBody = (i: number): Buffer => layDetail(state, i)
  /**
   * Post i's validators: its edge file's where the build wrote one, else of its bytes (hashed
   * once, on first read, not at start-up).
   */
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

  /** Post i's detail: the hot one, else laid out afresh and kept. */
  const detailOf = (i: number): PreparedBody => {
    let prepared = hot.get(i)
    if (!prepared) {
      const body = detailBody(i)
      prepared = { body, ...(validators[i] ??= detailValidators(i, body)) }
      hot.set(i, prepared)
    }
    return prepared
  }

  return {
    size: modifiedMs.length,
    detail(slug) {
      const i = bySlug.get(slug)
      return i === undefined ? undefined : detailOf(i)
    },
    article(slug) {
      const i = bySlug.get(slug)
      if (i === undefined) return undefined
      // The markdown is the detail's own bytes (a view, no copy); its text form is kept beside the
      // hot details, so a hot article costs no read.
      const post = postJson(i)
      const body = detailOf(i).body
      let markdownText = texts.get(i)
      if (!markdownText) {
        // Kept: outside the shared pool, whose slab a kept view would hold whole.
        markdownText = Buffer.allocUnsafeSlow(bodies.textLength(i))
        bodies.copyText(i, markdownText, 0)
        texts.set(i, markdownText)
      }
      const markdownAt = body.length - 1 - bodies.length(i)
      const markdown = body.subarray(markdownAt, body.length - 1)
      const extras = body.subarray(post.length - 1, markdownAt - MARKDOWN_MEMBER.length)
      return { post, extras, markdown, markdownText }
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
      if (!body) {
        const { body: bytes, newest } = envelope(
          `"query":${JSON.stringify(query)},"posts":`,
          search.search(query, limit),
        )
        body = prepareBytes(bytes, newest || now.getTime())
        searches.set(key, body)
      }
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
      else pages.set(key, body)
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
      // Which words were searched in place of words that matched nothing, when any were.
      const corrected = ranked.corrected.length > 0 ? `"corrected":${JSON.stringify(ranked.corrected)},` : ''
      const body = page(`"query":${JSON.stringify(query)},${corrected}"posts":`, ranked.docs, limit, () => {
        const last = ranked.docs[limit - 1]!
        return next({
          words: ranked.words[limit - 1]!,
          score: ranked.scores[limit - 1]!,
          date: dates[last]!,
          slug: slugs[last]!,
        })
      })
      pages.set(key, body)
      return body
    },
  }
}

/** Pages kept per index (see postIndexFrom): many distinct filters cost at most this. */
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
