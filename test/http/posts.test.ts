import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { createApp } from '../../auth-service/app.ts'
import { BASE_URL, testDeps } from '../support/index.ts'

const deps = await testDeps()
const app = createApp(deps)
const POST_FIELDS = [
  'slug',
  'title',
  'description',
  'date',
  'lastModified',
  'author',
  'authors',
  'tags',
  'url',
  'markdown_url',
  'image',
  'doi',
  'license',
  'changes',
]
const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })

describe('GET /api/v1', () => {
  it('lists every public read endpoint with method, path and description', async () => {
    const res = await request(app).get('/api/v1')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const paths = res.body.endpoints.map((e: { method: string; path: string }) => `${e.method} ${e.path}`)
    expect(paths).toEqual(
      expect.arrayContaining(['GET /api/v1/posts', 'GET /api/v1/posts/{slug}', 'GET /api/v1/search']),
    )
    for (const e of res.body.endpoints) expect(e.description).toEqual(expect.any(String))
  })
})

describe('GET /api/v1/posts', () => {
  it('returns every post newest first with all Post fields and absolute URLs', async () => {
    const res = await request(app).get('/api/v1/posts')
    expect(res.status).toBe(200)
    expect(res.body.posts.map((p: { slug: string }) => p.slug)).toEqual([
      'hashing-rings',
      'cafe-latency-notes',
      'search-evaluation',
    ])
    for (const post of res.body.posts) {
      expect(Object.keys(post).sort()).toEqual([...POST_FIELDS].sort())
      expect(post.url).toBe(`${BASE_URL}/posts/${post.slug}`)
      expect(post.markdown_url).toBe(`${BASE_URL}/posts/${post.slug}.md`)
      expect(post.image).toMatch(new RegExp(`^${BASE_URL}/`))
      expect(post.date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(new Date(post.lastModified).toISOString()).toBe(post.lastModified)
      expect(post).not.toHaveProperty('markdown')
    }
  })

  it('uses lastModified from frontmatter, else the publication date', async () => {
    const res = await request(app).get('/api/v1/posts')
    const bySlug = Object.fromEntries(res.body.posts.map((p: { slug: string }) => [p.slug, p]))
    expect(bySlug['hashing-rings'].lastModified).toBe('2025-03-20T12:00:00.000Z')
    expect(bySlug['cafe-latency-notes'].lastModified).toBe('2025-01-10T00:00:00.000Z')
  })

  it("carries an article's DOI, and null for one without", async () => {
    const res = await request(app).get('/api/v1/posts')
    const bySlug = Object.fromEntries(res.body.posts.map((p: { slug: string }) => [p.slug, p]))
    expect(bySlug['hashing-rings'].doi).toBe('10.5555/hashing-rings.2025')
    expect(bySlug['cafe-latency-notes'].doi).toBeNull()
    expect((await request(app).get('/api/v1/posts/hashing-rings')).body.doi).toBe('10.5555/hashing-rings.2025')
  })

  it('honours limit within 1..100', async () => {
    expect((await request(app).get('/api/v1/posts?limit=1')).body.posts).toHaveLength(1)
    expect((await request(app).get('/api/v1/posts?limit=100')).body.posts).toHaveLength(3)
  })

  it('defaults to 50 posts', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ({
      slug: `post-${i}`,
      title: `Post ${i}`,
      description: 'd',
      date: '2025-01-01',
      lastModified: '2025-01-01T00:00:00.000Z',
      author: 'A',
      tags: [],
      readingMinutes: 1,
      markdown: 'x',
    }))
    const { createPostIndex } = await import('../../post-index/post-index-builder.ts')
    const big = createPostIndex(many, BASE_URL)
    const res = await request(createApp({ ...deps, posts: () => big })).get('/api/v1/posts')
    expect(res.body.posts).toHaveLength(50)
    expect(
      (await request(createApp({ ...deps, posts: () => big })).get('/api/v1/posts?limit=100')).body.posts,
    ).toHaveLength(100)
  })

  it.each(['0', '101', '-1', '1.5', 'abc', '', '1e2', '99999999999'])(
    'refuses limit=%s with 400 invalid_request',
    async (limit) => {
      const res = await request(app).get(`/api/v1/posts?limit=${encodeURIComponent(limit)}`)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(errorBody('invalid_request'))
      expect(res.body.error_description).toContain('limit')
    },
  )

  it('refuses a repeated limit', async () => {
    const res = await request(app).get('/api/v1/posts?limit=1&limit=2')
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errorBody('invalid_request'))
  })
})

describe('GET /api/v1/posts/:slug', () => {
  it('returns the PostDetail with the markdown body', async () => {
    const res = await request(app).get('/api/v1/posts/cafe-latency-notes')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual([...POST_FIELDS, 'references', 'citedBy', 'markdown'].sort())
    // An article that cites nothing and that none cites: both lists present, empty.
    expect(res.body).toMatchObject({ references: [], citedBy: [] })
    expect(res.body).toMatchObject({
      slug: 'cafe-latency-notes',
      title: 'Café Latency Notes',
      author: 'Léa Fontaine',
      date: '2025-01-10',
      tags: ['performance', 'statistics'],
      url: `${BASE_URL}/posts/cafe-latency-notes`,
      markdown_url: `${BASE_URL}/posts/cafe-latency-notes.md`,
      image: `${BASE_URL}/images/default-cover.svg`,
    })
    expect(res.body.markdown).toContain('## Queues')
    expect(res.body.markdown).toContain('$$')
    expect(res.body.markdown).not.toMatch(/^---/)
  })

  it('makes a frontmatter image absolute', async () => {
    // The fixture names its own image, not the default cover, so that a default cannot pass for it.
    const res = await request(app).get('/api/v1/posts/search-evaluation')
    expect(res.body.image).toBe(`${BASE_URL}/favicon.svg`)
  })

  it.each(['unknown-slug', 'CAFE-LATENCY-NOTES', '..%2F..%2Fetc%2Fpasswd', '%E2%80%AE', 'a'.repeat(500)])(
    'answers 404 not_found for %s',
    async (slug) => {
      const res = await request(app).get(`/api/v1/posts/${slug}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual(errorBody('not_found'))
    },
  )
})

describe('GET /api/v1/search', () => {
  it('answers with the query and ranked posts', async () => {
    const res = await request(app).get('/api/v1/search?q=hashing')
    expect(res.status).toBe(200)
    expect(res.body.query).toBe('hashing')
    // Title match outranks a description match.
    expect(res.body.posts.map((p: { slug: string }) => p.slug)).toEqual(['hashing-rings', 'search-evaluation'])
    expect(Object.keys(res.body.posts[0]).sort()).toEqual([...POST_FIELDS].sort())
  })

  it('is case- and accent-insensitive and matches a partial last word', async () => {
    for (const q of ['CAFE', 'café', 'latency not', 'caf']) {
      const res = await request(app).get(`/api/v1/search?q=${encodeURIComponent(q)}`)
      expect(res.body.posts[0]?.slug, q).toBe('cafe-latency-notes')
    }
  })

  it('returns an empty list when nothing matches', async () => {
    const res = await request(app).get('/api/v1/search?q=zyzzyva')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ query: 'zyzzyva', posts: [], next_cursor: null })
  })

  // As the site's search page: gibberish finds nothing, not the articles of a word it starts with.
  it.each(['qwertyuiop', 'qwertyuiop asdfghjkl', 'hashingqwerty', 'cafeqwerty'])(
    'finds nothing for gibberish (%s)',
    async (q) => {
      const res = await request(app).get(`/api/v1/search?q=${encodeURIComponent(q)}`)
      expect(res.status).toBe(200)
      expect(res.body.posts).toEqual([])
    },
  )

  it('honours limit', async () => {
    const res = await request(app).get('/api/v1/search?q=hashing&limit=1')
    expect(res.body.posts).toHaveLength(1)
  })

  it.each([
    ['', 'missing q'],
    ['?q=', 'empty q'],
    ['?q=%20%20', 'blank q'],
    [`?q=${'x'.repeat(201)}`, 'overlong q'],
    ['?q=a&q=b', 'repeated q'],
    ['?q=hashing&limit=0', 'limit 0'],
    ['?q=hashing&limit=51', 'limit 51'],
    ['?q=hashing&limit=x', 'limit x'],
  ])('refuses %s (%s) with 400 invalid_request', async (qs) => {
    const res = await request(app).get(`/api/v1/search${qs}`)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(errorBody('invalid_request'))
  })
})
