import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import type { IndexEntry } from '../../model/article.ts'
import { createPostIndex } from '../../post-index/post-index-builder.ts'
import { BASE_URL, testDeps } from '../support/index.ts'

const deps = await testDeps()

const entry = (slug: string, date: string, fields: Partial<IndexEntry>): IndexEntry => ({
  slug,
  title: `About ${slug}`,
  description: 'A study.',
  date,
  lastModified: `${date}T00:00:00.000Z`,
  author: 'Someone',
  tags: [],
  readingMinutes: 1,
  markdown: 'Body.',
  ...fields,
})

const ENTRIES = [
  entry('joint', '2025-03-01', {
    author: 'Josiah Carberry and Mateo García',
    authors: [
      { name: 'Josiah Carberry', orcid: '0000-0002-1825-0097', affiliation: 'Brown University' },
      { name: 'Mateo García', orcid: null, affiliation: null },
    ],
  }),
  entry('solo', '2025-02-01', { author: 'Mateo Garcia' }),
  // Another person of the same name, told apart by an iD of their own.
  entry('namesake', '2025-01-01', {
    author: 'Josiah Carberry',
    authors: [{ name: 'Josiah Carberry', orcid: '0000-0001-5109-3700', affiliation: null }],
  }),
]
const app = createApp({ ...deps, posts: () => createPostIndex(ENTRIES, BASE_URL) })
const slugsOf = (res: request.Response) => (res.body.posts as Array<{ slug: string }>).map((p) => p.slug)

describe('the API links each author to their page', () => {
  it('gives every author object the url of their page: by ORCID iD, else by name', async () => {
    const res = await request(app).get('/api/v1/posts/joint')
    expect(res.status).toBe(200)
    expect(res.body.authors).toEqual([
      {
        name: 'Josiah Carberry',
        orcid: '0000-0002-1825-0097',
        affiliation: 'Brown University',
        url: `${BASE_URL}/authors/0000-0002-1825-0097`,
      },
      { name: 'Mateo García', orcid: null, affiliation: null, url: `${BASE_URL}/authors/mateo-garcia` },
    ])
  })

  it('links an article with a bare `author` (no authors list) by the name, in the list too', async () => {
    const res = await request(app).get('/api/v1/posts?limit=10')
    const solo = (res.body.posts as Array<{ slug: string; authors: unknown }>).find((p) => p.slug === 'solo')
    expect(solo?.authors).toEqual([
      { name: 'Mateo Garcia', orcid: null, affiliation: null, url: `${BASE_URL}/authors/mateo-garcia` },
    ])
  })

  it('filters by the slug of an author page as by the name, and keeps namesakes apart', async () => {
    expect(slugsOf(await request(app).get('/api/v1/posts?author=mateo-garcia'))).toEqual(['joint', 'solo'])
    expect(slugsOf(await request(app).get('/api/v1/posts?author=0000-0002-1825-0097'))).toEqual(['joint'])
    expect(slugsOf(await request(app).get('/api/v1/posts?author=0000-0001-5109-3700'))).toEqual(['namesake'])
    // The name still finds both people of that name, as before.
    expect(slugsOf(await request(app).get('/api/v1/posts?author=josiah%20carberry'))).toEqual(['joint', 'namesake'])
  })
})
