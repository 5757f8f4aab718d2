import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { createApp } from '../../auth-service/app.ts'
import { BASE_URL, builtIndex, testApp, testDeps } from '../support/index.ts'

const deps = await testDeps()
const app = createApp(deps)
const index = builtIndex()
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
    const { createPostIndex } = await import('../../post-index/post-index.ts')
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
    expect(Object.keys(res.body).sort()).toEqual([...POST_FIELDS, 'markdown'].sort())
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

describe('conditional requests and caching', () => {
  it.each(['/api/v1', '/api/v1/posts', '/api/v1/posts/hashing-rings', '/api/v1/search?q=rings'])(
    '%s answers 304 to its own ETag',
    async (path) => {
      const first = await request(app).get(path)
      expect(first.headers.etag).toMatch(/^"[\w-]+"$/)
      expect(first.headers['last-modified']).toBeTruthy()
      expect(first.headers['cache-control']).toContain('max-age=')
      const again = await request(app).get(path).set('If-None-Match', first.headers.etag!)
      expect(again.status).toBe(304)
      expect(again.text).toBeFalsy()
      const weak = await request(app).get(path).set('If-None-Match', `"other", W/${first.headers.etag}`)
      expect(weak.status).toBe(304)
    },
  )

  it('answers 200 to a stale ETag and 304 to a current If-Modified-Since', async () => {
    const first = await request(app).get('/api/v1/posts/hashing-rings')
    expect((await request(app).get('/api/v1/posts/hashing-rings').set('If-None-Match', '"stale"')).status).toBe(200)
    const ims = await request(app)
      .get('/api/v1/posts/hashing-rings')
      .set('If-Modified-Since', first.headers['last-modified']!)
    expect(ims.status).toBe(304)
    const older = await request(app)
      .get('/api/v1/posts/hashing-rings')
      .set('If-Modified-Since', 'Mon, 01 Jan 2024 00:00:00 GMT')
    expect(older.status).toBe(200)
    const garbage = await request(app).get('/api/v1/posts/hashing-rings').set('If-Modified-Since', 'not a date')
    expect(garbage.status).toBe(200)
  })

  it('refuses a read whose If-Match or If-Unmodified-Since fails with 412 precondition_failed', async () => {
    const path = '/api/v1/posts/hashing-rings'
    const first = await request(app).get(path)
    const { etag, 'last-modified': lastModified } = first.headers as Record<string, string>
    const cases: Array<[Record<string, string>, number]> = [
      [{ 'If-Match': '"other"' }, 412],
      [{ 'If-Match': `W/${etag}` }, 412], // strong comparison (RFC 9110 §13.1.1)
      [{ 'If-Match': `"other", ${etag}` }, 200],
      [{ 'If-Match': '*' }, 200],
      [{ 'If-Unmodified-Since': lastModified! }, 200],
      [{ 'If-Unmodified-Since': new Date(Date.parse(lastModified!) - 1000).toUTCString() }, 412],
      [{ 'If-Unmodified-Since': 'not a date' }, 200], // ignored
      [{ 'If-Match': etag!, 'If-Unmodified-Since': 'Mon, 01 Jan 2024 00:00:00 GMT' }, 200], // If-Match decides
    ]
    for (const [headers, status] of cases) {
      const res = await request(app).get(path).set(headers)
      expect(res.status, JSON.stringify(headers)).toBe(status)
      if (status === 412) {
        expect(res.body).toEqual(errorBody('precondition_failed'))
        expect(res.headers['cache-control']).toBe('no-store')
      }
    }
  })

  it('answers HEAD with headers and no body', async () => {
    const res = await request(app).head('/api/v1/posts/hashing-rings')
    expect(res.status).toBe(200)
    expect(Number(res.headers['content-length'])).toBeGreaterThan(100)
    expect(res.text).toBeFalsy()
  })
})

describe('CORS, unknown paths and methods', () => {
  it('allows any origin to read, and answers preflights for Authorization', async () => {
    const res = await request(app).get('/api/v1/posts').set('Origin', 'https://elsewhere.example')
    expect(res.headers['access-control-allow-origin']).toBe('*')
    const pre = await request(app)
      .options('/api/v1/posts')
      .set('Origin', 'https://elsewhere.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization')
    expect(pre.status).toBe(204)
    expect(pre.headers['access-control-allow-headers']).toMatch(/Authorization/i)
    expect(pre.headers['access-control-allow-methods']).toContain('GET')
  })

  it.each(['/api/v1/nope', '/api/v1/posts/a/b', '/api/v1/search/x', '/api/v10'])(
    'answers %s with a JSON 404',
    async (path) => {
      const res = await request(app).get(path)
      expect(res.status).toBe(404)
      expect(res.headers['content-type']).toMatch(/^application\/json/)
      expect(res.body).toEqual(errorBody('not_found'))
    },
  )

  it.each([
    ['delete', '/api/v1/posts/hashing-rings'],
    ['put', '/api/v1/posts'],
    ['post', '/api/v1/search'],
    ['patch', '/api/v1'],
  ] as const)('answers %s %s with 405 and Allow', async (method, path) => {
    const res = await request(app)[method](path)
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
    expect(res.body).toEqual(errorBody('method_not_allowed'))
  })

  it('answers 503 with Retry-After while no index is loaded', async () => {
    const res = await request(await testApp({ posts: () => undefined })).get('/api/v1/posts')
    expect(res.status).toBe(503)
    expect(res.headers['retry-after']).toBeTruthy()
    expect(res.body).toEqual(errorBody('temporarily_unavailable'))
  })

  it('never leaks a stack trace on an unexpected failure', async () => {
    const broken = createApp({
      ...deps,
      posts: () => ({
        ...index,
        listPage: () => {
          throw new Error('secret internals')
        },
      }),
      logError: () => {},
    })
    const res = await request(broken).get('/api/v1/posts')
    expect(res.status).toBe(500)
    expect(res.body).toEqual(errorBody('server_error'))
    expect(res.text).not.toContain('secret internals')
  })
})
