import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import type { PostIndex } from '../../post-index/post-index.ts'
import { createPostIndex } from '../../post-index/post-index-builder.ts'
import type { IndexEntry } from '../../model/article.ts'
import { BASE_URL, testDeps } from '../support/index.ts'

const deps = await testDeps()
const errorBody = { error: 'invalid_request', error_description: expect.any(String) }

/**
 * 250 articles: several per day (ties broken by slug), three authors, tags on some, lastModified
 * spread over a year.
 */
function entries(count = 250, prefix = 'post'): IndexEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    slug: `${prefix}-${String(i).padStart(3, '0')}`,
    title: `Ring study ${i}`,
    description: i % 5 === 0 ? 'Consistent hashing rings measured.' : 'Queues and tail latency.',
    date: new Date(Date.UTC(2024, 0, 1 + Math.floor(i / 3))).toISOString().slice(0, 10),
    lastModified: new Date(Date.UTC(2025, 0, 1 + (i % 365))).toISOString(),
    author: ['Ada Lovelace', 'Léa Fontaine', 'Jonas Lindqvist'][i % 3]!,
    tags: i % 4 === 0 ? ['Rings', 'hashing'] : i % 4 === 1 ? ['queues'] : [],
    readingMinutes: 1,
    markdown: `Body ${i}.`,
  }))
}

const appOn = (index: () => PostIndex) => createApp({ ...deps, posts: index })
const slugsOf = (res: request.Response) => (res.body.posts as Array<{ slug: string }>).map((p) => p.slug)

/** Follows next_cursor from `first` to the end; checks each page's Link names the next. */
async function follow(
  app: ReturnType<typeof appOn>,
  first: string,
  between?: (page: number) => void,
): Promise<string[]> {
  const seen: string[] = []
  let url: string | undefined = first
  for (let page = 0; url; page++) {
    const res = await request(app).get(url)
    expect(res.status, url).toBe(200)
    seen.push(...slugsOf(res))
    const cursor = res.body.next_cursor as string | null
    if (cursor === null) {
      expect(res.headers.link).toBeUndefined()
      url = undefined
    } else {
      const link = /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')
      expect(link, 'Link header').not.toBeNull()
      const next = new URL(link![1]!)
      expect(next.origin + next.pathname).toBe(`${BASE_URL}${first.split('?')[0]}`)
      expect(next.searchParams.get('cursor')).toBe(cursor)
      url = next.pathname + next.search
    }
    between?.(page)
    expect(page).toBeLessThan(1000)
  }
  return seen
}

describe('paging the list with cursors', () => {
  const all = entries()
  const index = createPostIndex(all, BASE_URL)
  const app = appOn(() => index)
  const order = [...all].sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug)).map((e) => e.slug)

  it('returns every article exactly once, in list order, following next_cursor from limit=100', async () => {
    const seen = await follow(app, '/api/v1/posts?limit=100')
    expect(seen).toEqual(order)
  })

  it('keeps the documented first page: 50 by default, a cursor on it, and any limit on later pages', async () => {
    const first = await request(app).get('/api/v1/posts')
    expect(slugsOf(first)).toEqual(order.slice(0, 50))
    expect(first.body.next_cursor).toEqual(expect.any(String))
    const second = await request(app).get(`/api/v1/posts?limit=7&cursor=${first.body.next_cursor}`)
    expect(slugsOf(second)).toEqual(order.slice(50, 57))
  })

  it('answers the last page with next_cursor null and no Link', async () => {
    const res = await request(app).get(
      `/api/v1/posts?limit=100&cursor=${(await request(app).get('/api/v1/posts?limit=100')).body.next_cursor}`,
    )
    const last = await request(app).get(`/api/v1/posts?limit=100&cursor=${res.body.next_cursor}`)
    expect(slugsOf(last)).toEqual(order.slice(200))
    expect(last.body.next_cursor).toBeNull()
    expect(last.headers.link).toBeUndefined()
    expect(last.headers['access-control-expose-headers']).toContain('Link')
  })

  it('neither repeats nor skips an article that stayed when the index is rebuilt between pages', async () => {
    let live = index
    const rebuilt = appOn(() => live)
    const stayed = new Set(all.map((e) => e.slug))
    const seen = await follow(rebuilt, '/api/v1/posts?limit=30', (page) => {
      if (page !== 1) return
      // After the second page: articles removed before and after the position, others added
      // before and after it (some on the very date of the position), and one edited.
      const removed = new Set([order[5]!, order[45]!, order[200]!])
      const kept = all.filter((e) => !removed.has(e.slug))
      const added = [
        { ...all[0]!, slug: 'brand-new', date: '2030-01-01' },
        { ...all[0]!, slug: 'aaa-same-day', date: all.find((e) => e.slug === order[59])!.date },
        { ...all[0]!, slug: 'zzz-same-day', date: all.find((e) => e.slug === order[59])!.date },
        { ...all[0]!, slug: 'old-one', date: '2000-01-01' },
      ]
      const edited = kept.map((e) =>
        e.slug === order[100] ? { ...e, title: 'Edited', lastModified: '2026-01-01T00:00:00.000Z' } : e,
      )
      live = createPostIndex([...edited, ...added], BASE_URL)
      for (const slug of removed) stayed.delete(slug)
    })
    const counts = new Map<string, number>()
    for (const slug of seen) counts.set(slug, (counts.get(slug) ?? 0) + 1)
    for (const slug of stayed) expect(counts.get(slug), slug).toBe(1)
    expect([...counts.values()].every((n) => n === 1)).toBe(true)
    // What was added after the position is found; what was added before it is for the next sync.
    expect(seen).toEqual(expect.arrayContaining(['zzz-same-day', 'old-one']))
    expect(seen).not.toContain('brand-new')
  })
})

describe('filters of the list', () => {
  const all = entries()
  const index = createPostIndex(all, BASE_URL)
  const app = appOn(() => index)
  const order = [...all].sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug))
  const expected = (keep: (e: IndexEntry) => boolean) => order.filter(keep).map((e) => e.slug)

  it('keeps the articles of a tag, case-insensitively, through every page', async () => {
    expect(await follow(app, '/api/v1/posts?tag=rings&limit=9')).toEqual(expected((e) => e.tags.includes('Rings')))
    expect(await follow(app, '/api/v1/posts?tag=RINGS&limit=100')).toEqual(expected((e) => e.tags.includes('Rings')))
  })

  it('keeps the articles of an author, by full name, case-insensitively', async () => {
    expect(await follow(app, `/api/v1/posts?author=${encodeURIComponent('léa fontaine')}&limit=13`)).toEqual(
      expected((e) => e.author === 'Léa Fontaine'),
    )
    expect(slugsOf(await request(app).get('/api/v1/posts?author=Fontaine'))).toEqual([])
  })

  it('finds an article of several authors by any one of them, and by its byline', async () => {
    const authors = ['Ada Lovelace', 'Charles Babbage', 'Mary Somerville'].map((name) => ({
      name,
      orcid: null,
      affiliation: null,
    }))
    const shared = { ...entries(1, 'joint')[0]!, author: 'Ada Lovelace, Charles Babbage and Mary Somerville', authors }
    const joint = appOn(() => createPostIndex([shared, ...entries(3)], BASE_URL))
    for (const name of ['charles babbage', 'Mary Somerville', 'ada lovelace, charles babbage and mary somerville'])
      expect(slugsOf(await request(joint).get(`/api/v1/posts?author=${encodeURIComponent(name)}`))).toContain(
        'joint-000',
      )
    expect(slugsOf(await request(joint).get('/api/v1/posts?author=Babbage'))).toEqual([])
  })

  it('keeps what changed at or after updated_since (compared with lastModified), for incremental sync', async () => {
    const since = '2025-06-01T00:00:00Z'
    const changed = expected((e) => Date.parse(e.lastModified) >= Date.parse(since))
    expect(await follow(app, `/api/v1/posts?updated_since=${since}&limit=17`)).toEqual(changed)
    // The same moment, written as a day, with an offset, or with its "+" unencoded.
    expect(await follow(app, '/api/v1/posts?updated_since=2025-06-01&limit=100')).toEqual(changed)
    expect(
      await follow(app, `/api/v1/posts?updated_since=${encodeURIComponent('2025-06-01T02:00:00+02:00')}&limit=100`),
    ).toEqual(changed)
    expect(slugsOf(await request(app).get('/api/v1/posts?updated_since=2025-06-01T02:00:00+02:00&limit=100'))).toEqual(
      changed.slice(0, 100),
    )
  })

  it('combines the filters', async () => {
    const author = encodeURIComponent('Ada Lovelace')
    const url = `/api/v1/posts?tag=hashing&author=${author}&updated_since=2025-03-01&limit=4`
    const want = expected(
      (e) => e.tags.includes('hashing') && e.author === 'Ada Lovelace' && e.lastModified >= '2025-03-01',
    )
    expect(want.length).toBeGreaterThan(8)
    expect(await follow(app, url)).toEqual(want)
  })

  it('answers an unknown tag or author with an empty page', async () => {
    const res = await request(app).get('/api/v1/posts?tag=no-such-tag')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ posts: [], next_cursor: null })
  })
})

describe('refusals of paging and filters', () => {
  const index = createPostIndex(entries(), BASE_URL)
  const app = appOn(() => index)

  it('refuses a cursor issued for other filters, or for a search', async () => {
    const cursor = (await request(app).get('/api/v1/posts?tag=rings&limit=2')).body.next_cursor as string
    for (const url of [
      `/api/v1/posts?cursor=${cursor}`,
      `/api/v1/posts?tag=queues&cursor=${cursor}`,
      `/api/v1/search?q=ring&cursor=${cursor}`,
    ]) {
      const res = await request(app).get(url)
      expect(res.status, url).toBe(400)
      expect(res.body).toEqual(errorBody)
      expect(res.body.error_description).toContain('cursor')
    }
    expect((await request(app).get(`/api/v1/posts?tag=Rings&limit=50&cursor=${cursor}`)).status).toBe(200)
  })

  const b64 = (value: unknown) =>
    Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')
  const real = async () => (await request(app).get('/api/v1/posts?limit=1')).body.next_cursor as string
  it.each([
    ['garbage', 'not a cursor!'],
    ['empty', ''],
    ['too long', 'A'.repeat(5000)],
    ['not JSON', b64('{{{')],
    ['not an array', b64({ v: 1 })],
    ['another version', b64([2, 'x', '2024-01-01', 'post-001'])],
    ['a bad date', 'bad-date'],
    ['a bad slug', 'bad-slug'],
    ['extra fields', 'extra'],
    ['repeated', 'repeated'],
  ])('refuses a cursor that is %s with 400 invalid_request', async (_what, value) => {
    let query = `cursor=${encodeURIComponent(value)}`
    if (['bad-date', 'bad-slug', 'extra'].includes(value)) {
      // A real cursor with its position edited: the tag still matches, the position does not parse.
      const [version, tag, date, slug] = JSON.parse(Buffer.from(await real(), 'base64url').toString()) as unknown[]
      const fields =
        value === 'bad-date'
          ? [version, tag, '2024-13', slug]
          : value === 'bad-slug'
            ? [version, tag, date, '../etc']
            : [version, tag, date, slug, 1]
      query = `cursor=${b64(fields)}`
    }
    if (value === 'repeated') query = `cursor=${await real()}&cursor=${await real()}`
    const res = await request(app).get(`/api/v1/posts?${query}`)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errorBody)
    expect(res.body.error_description).toContain('cursor')
  })

  it.each(['yesterday', '2025-02-30', '2025-13-01', '2025-06-01T10:00:00', '2025-06-01T25:00:00Z', '1717200000', ''])(
    'refuses updated_since=%s with 400 invalid_request',
    async (value) => {
      const res = await request(app).get(`/api/v1/posts?updated_since=${encodeURIComponent(value)}`)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errorBody)
      expect(res.body.error_description).toContain('updated_since')
    },
  )

  it.each([
    ['/api/v1/posts?offset=100', 'offset'],
    ['/api/v1/posts?page=2', 'page'],
    ['/api/v1/posts?update_since=2025-01-01', 'update_since'],
    ['/api/v1/search?q=ring&tag=rings', 'tag'],
    ['/api/v1/posts?tag=', 'tag'],
    ['/api/v1/posts?tag=a&tag=b', 'tag'],
    [`/api/v1/posts?author=${'x'.repeat(201)}`, 'author'],
  ])('refuses %s with 400 invalid_request naming the parameter', async (url, name) => {
    const res = await request(app).get(url)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errorBody)
    expect(res.body.error_description).toContain(name)
  })

  it('points an offset to the cursor', async () => {
    const res = await request(app).get('/api/v1/posts?offset=100')
    expect(res.body.error_description).toContain('cursor')
  })
})

describe('paging a search', () => {
  const index = createPostIndex(entries(), BASE_URL)
  const app = appOn(() => index)

  it('pages through the same ranking as one large page, each match once', async () => {
    const whole = slugsOf(await request(app).get('/api/v1/search?q=ring&limit=50'))
    const paged = await follow(app, '/api/v1/search?q=ring&limit=7')
    expect(paged.slice(0, 50)).toEqual(whole)
    expect(new Set(paged).size).toBe(paged.length)
    expect(paged).toHaveLength(250)
    // Ranked: the matches of both words first.
    const both = await follow(app, `/api/v1/search?q=${encodeURIComponent('ring hashing')}&limit=50`)
    expect(both.slice(0, 50).every((slug) => Number(slug.slice(5)) % 5 === 0 || Number(slug.slice(5)) % 4 === 0)).toBe(
      true,
    )
  })

  it('refuses a cursor of another query', async () => {
    const cursor = (await request(app).get('/api/v1/search?q=ring&limit=1')).body.next_cursor as string
    const res = await request(app).get(`/api/v1/search?q=queues&cursor=${cursor}`)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errorBody)
  })
})
