/**
 * Paging as a property: for any corpus (equal dates, shared tags and authors), any filters and any
 * limits, following next_cursor through the list action returns exactly the matching articles,
 * each once, in list order; and a search's pages are its ranking, cut.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareEntries, type PostIndex } from '../../post-index/post-index.ts'
import { createPostIndex } from '../../post-index/post-index-builder.ts'
import type { ActionContext } from '../../auth-service/http/action.ts'
import { endpointUrls } from '../../auth-service/endpoints.ts'
import { listPosts } from '../../auth-service/routes/list-posts.ts'
import { searchPosts } from '../../auth-service/routes/search-posts.ts'
import type { IndexEntry } from '../../model/article.ts'

const BASE = 'https://research.example.org'
const reader = (index: PostIndex, action: typeof listPosts) =>
  action.read({ url: endpointUrls(BASE), posts: () => index } as unknown as ActionContext)

const TAGS = ['rings', 'queues', 'Mixed-Case']
const AUTHORS = ['Ada', 'Léa Fontaine', 'jonas']
const entry = fc.record({
  day: fc.integer({ min: 1, max: 6 }),
  tags: fc.subarray(TAGS),
  author: fc.constantFrom(...AUTHORS),
  modified: fc.integer({ min: 0, max: 9 }),
  words: fc.subarray(['alpha', 'beta', 'gamma', 'delta']),
})
const corpus = fc
  .uniqueArray(fc.tuple(fc.stringMatching(/^[a-z0-9]{1,6}$/), entry), {
    selector: ([slug]) => slug,
    minLength: 0,
    maxLength: 60,
  })
  .map((rows) =>
    rows.map(
      ([slug, e]): IndexEntry => ({
        slug,
        title: ['Note', ...e.words].join(' '),
        description: 'd',
        date: `2025-01-0${e.day}`,
        lastModified: new Date(Date.UTC(2025, 1, 1 + e.modified)).toISOString(),
        author: e.author,
        tags: e.tags,
        readingMinutes: 1,
        markdown: 'x',
      }),
    ),
  )
const filter = fc.record(
  {
    tag: fc.constantFrom(...TAGS, 'RINGS', 'none'),
    author: fc.constantFrom(...AUTHORS, 'ADA', 'nobody'),
    updated_since: fc.integer({ min: 0, max: 10 }),
  },
  { requiredKeys: [] },
)

/** Every page of a read, following next_cursor; the query of each page may change its limit. */
function follow(read: ReturnType<typeof listPosts.read>, query: Record<string, string>, limits: number[]): string[] {
  const slugs: string[] = []
  let cursor: string | null = null
  for (let page = 0; page === 0 || cursor !== null; page++) {
    const limit = String(limits[page % limits.length])
    const body = JSON.parse(
      read({ params: {}, query: { ...query, limit, ...(cursor ? { cursor } : {}) } }).body.toString(),
    ) as { posts: Array<{ slug: string }>; next_cursor: string | null }
    slugs.push(...body.posts.map((p) => p.slug))
    cursor = body.next_cursor
    expect(page).toBeLessThan(200)
  }
  return slugs
}

describe('following next_cursor', () => {
  it('returns exactly the matching articles, each once, in list order, for any filters and limits', () => {
    fc.assert(
      fc.property(
        corpus,
        filter,
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 3 }),
        (entries, f, limits) => {
          const read = reader(createPostIndex(entries, BASE), listPosts)
          const query: Record<string, string> = {}
          if (f.tag !== undefined) query.tag = f.tag
          if (f.author !== undefined) query.author = f.author
          const since = f.updated_since === undefined ? undefined : new Date(Date.UTC(2025, 1, 1 + f.updated_since))
          if (since) query.updated_since = since.toISOString()
          const expected = [...entries]
            .sort(compareEntries)
            .filter((e) => f.tag === undefined || e.tags.some((t) => t.toLowerCase() === f.tag!.toLowerCase()))
            .filter((e) => f.author === undefined || e.author.toLowerCase() === f.author.toLowerCase())
            .filter((e) => !since || Date.parse(e.lastModified) >= since.getTime())
            .map((e) => e.slug)
          expect(follow(read, query, limits)).toEqual(expected)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('pages through a search in the order of its ranking', () => {
    fc.assert(
      fc.property(
        corpus,
        fc.constantFrom('alpha', 'beta gamma', 'note delta', 'alp'),
        fc.integer({ min: 1, max: 7 }),
        (entries, q, limit) => {
          const index = createPostIndex(entries, BASE)
          const whole = index.search(q, 1000).map((p) => p.slug)
          expect(follow(reader(index, searchPosts), { q }, [limit])).toEqual(whole)
        },
      ),
      { numRuns: 200 },
    )
  })
})
