import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { distOf, testDeps } from '../support/index.ts'
import { articleFile } from '../../model/article-bucket.ts'

const siteDir = join(distOf('fixture'), 'current', 'site')
const app = createApp({ ...(await testDeps()), siteDir })
const twin = readFileSync(articleFile(join(siteDir, '..'), 'cafe-latency-notes', 'md'), 'utf8')

describe('markdown by negotiation on an article’s address', () => {
  it.each([
    ['text/markdown', 'markdown'],
    ['text/markdown, text/html;q=0.9', 'markdown'],
    ['text/html;q=0.5, text/markdown;q=0.8', 'markdown'],
    ['text/plain, text/markdown', 'markdown'],
    ['text/html', 'html'],
    ['text/html, text/markdown;q=0.9', 'html'],
    ['text/markdown;q=0.4, */*;q=0.5', 'html'],
    ['text/markdown;q=0', 'html'],
    ['*/*', 'html'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'html'],
    ['', 'html'],
  ])('Accept: %s gets the %s', async (accept, kind) => {
    const res = await request(app)
      .get('/posts/cafe-latency-notes')
      .set(accept ? { Accept: accept } : {})
    expect(res.status).toBe(200)
    expect(res.headers.vary).toMatch(/\bAccept\b/)
    if (kind === 'markdown') {
      expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8')
      expect(res.headers['content-location']).toBe('/posts/cafe-latency-notes.md')
      expect(res.headers['access-control-allow-origin']).toBe('*')
      expect(res.text).toBe(twin)
    } else {
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(res.text).toContain('<html')
    }
  })

  it('answers a conditional request for the twin with 304, still varying by Accept', async () => {
    const first = await request(app).get('/posts/cafe-latency-notes').set({ Accept: 'text/markdown' })
    const again = await request(app)
      .get('/posts/cafe-latency-notes')
      .set({ Accept: 'text/markdown', 'If-None-Match': first.headers.etag! })
    expect(again.status).toBe(304)
    expect(again.headers.vary).toMatch(/\bAccept\b/)
    const html = await request(app).get('/posts/cafe-latency-notes').set({ 'If-None-Match': first.headers.etag! })
    expect(html.status).toBe(200)
  })

  it('answers HEAD like GET, and an unknown article with the 404 page either way', async () => {
    const head = await request(app).head('/posts/cafe-latency-notes').set({ Accept: 'text/markdown' })
    expect(head.headers['content-type']).toBe('text/markdown; charset=utf-8')
    for (const accept of ['text/markdown', 'text/html']) {
      const res = await request(app).get('/posts/no-such-post').set({ Accept: accept })
      expect(res.status).toBe(404)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
    }
    // A path that only looks like an article is left alone.
    expect((await request(app).get('/posts/..%2Fllms').set({ Accept: 'text/markdown' })).status).toBe(404)
  })
})

describe('llms-full.txt', () => {
  it('holds every published article’s twin, newest first, as text', async () => {
    const res = await request(app).get('/llms-full.txt')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.text).toMatch(/^# .+\n\n> /)
    const at = ['hashing-rings', 'cafe-latency-notes', 'search-evaluation'].map((slug) => {
      const text = readFileSync(articleFile(join(siteDir, '..'), slug, 'md'), 'utf8')
      expect(res.text).toContain(`\n---\n\n${text}`)
      return res.text.indexOf(text)
    })
    expect([...at].sort((a, b) => a - b)).toEqual(at)
  })
})

describe('files for programs are open to any origin', () => {
  it.each([
    '/posts/cafe-latency-notes.md',
    '/posts/cafe-latency-notes.bib',
    '/posts/cafe-latency-notes.csl.json',
    '/posts/cafe-latency-notes.ris',
    '/auth.md',
    '/llms.txt',
    '/llms-full.txt',
    '/rss.xml',
    '/atom.xml',
    '/sitemap-index.xml',
    '/robots.txt',
  ])('%s', async (path) => {
    const res = await request(app).get(path)
    expect(res.status).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBe('*')
    expect(res.headers['access-control-expose-headers']).toContain('ETag')
  })

  it('as are /openapi.json and the API catalog', async () => {
    for (const path of ['/openapi.json', '/.well-known/api-catalog'])
      expect((await request(app).get(path)).headers['access-control-allow-origin']).toBe('*')
  })

  it('but not the pages', async () => {
    for (const path of ['/', '/posts/cafe-latency-notes', '/developers'])
      expect((await request(app).get(path)).headers['access-control-allow-origin']).toBeUndefined()
  })
})
