import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { build } from '../../scripts/build.ts'
import { PAGE_SIZE } from '../../site/lib/pagination.ts'
import { listArticle, writeListCorpus } from '../support/list-corpus.ts'
import { tempDir } from '../support/temp.ts'
import { siteFile } from '../support/site-file.ts'

const BASE = 'http://localhost:4321'
/** Enough articles for three pages of the home page and two of the "systems" tag. */
const ARTICLES = 60

describe('the list pages and reading aids of a build', () => {
  const tmp = tempDir('reading-site')
  const content = join(tmp, 'content')
  const dist = join(tmp, 'dist')
  const env = { ...process.env, BASE_URL: BASE, CONTENT_DIR: content, DIST_DIR: dist }
  const run = () => build(env, { search: false })
  const path = (p: string) => siteFile(join(dist, 'current'), p)
  const page = (p: string) => readFileSync(path(p), 'utf8')
  const cards = (html: string) =>
    [...html.matchAll(/<article class="post-card">[\s\S]*?<h2><a href="\/posts\/([a-z0-9-]+)">/g)].map((m) => m[1])

  beforeAll(async () => {
    mkdirSync(content)
    writeListCorpus(content, ARTICLES)
    await run()
  }, 180_000)

  it(
    'pages the home page: PAGE_SIZE cards a page, page 1 ' + 'at /, then /page/2, with rel prev/next and page numbers',
    () => {
      expect(cards(page('index.html'))).toEqual(Array.from({ length: PAGE_SIZE }, (_, k) => `article-${ARTICLES - k}`))
      expect(cards(page('page/2.html'))[0]).toBe(`article-${ARTICLES - PAGE_SIZE}`)
      expect(cards(page('page/3.html'))).toHaveLength(ARTICLES - 2 * PAGE_SIZE)
      expect(existsSync(path('page/1.html'))).toBe(false)
      expect(existsSync(path('page/4.html'))).toBe(false)

      const home = page('index.html')
      expect(home).not.toContain('rel="prev"')
      expect(home).toContain(`<link rel="next" href="${BASE}/page/2">`)
      const second = page('page/2.html')
      expect(second).toContain(`<link rel="prev" href="${BASE}/">`)
      expect(second).toContain(`<link rel="next" href="${BASE}/page/3">`)
      expect(second).toContain(`<link rel="canonical" href="${BASE}/page/2">`)
      expect(second).toMatch(/<a href="\/page\/2" aria-current="page">2<\/a>/)
      expect(second).toMatch(/<a class="page-step" href="\/" rel="prev">/)
      expect(page('page/3.html')).not.toContain('rel="next"')
    },
  )

  it('pages a tag the same way under /tags/<tag>/page/N', () => {
    const first = page('tags/systems.html')
    expect(cards(first)).toHaveLength(PAGE_SIZE)
    expect(first).toContain(`<link rel="next" href="${BASE}/tags/systems/page/2">`)
    const second = page('tags/systems/page/2.html')
    expect(second).toContain(`<link rel="prev" href="${BASE}/tags/systems">`)
    expect(cards(second).length).toBeGreaterThan(0)
    // Every article of the tag is on exactly one of its pages.
    const listed = [...cards(first), ...cards(second)]
    expect(new Set(listed).size).toBe(listed.length)
    expect(page('tags/privacy.html')).not.toContain('class="pagination"')
  })

  it('lists every page of every list in the sitemap', () => {
    const sitemap = page('sitemap-0.xml')
    for (const p of ['/', '/page/2', '/page/3', '/tags/systems', '/tags/systems/page/2'])
      expect(sitemap).toContain(`<loc>${BASE}${p}</loc>`)
    expect(sitemap).not.toMatch(/\/page\/1</)
  })

  it('shows a lazy, sized, described cover only on the cards of articles that name an image', () => {
    const home = page('index.html')
    const covers = [...home.matchAll(/<img class="cover"[^>]*>/g)].map((m) => m[0])
    expect(covers).toHaveLength(cards(home).filter((slug) => Number(slug!.split('-')[1]) % 3 === 0).length)
    for (const img of covers)
      expect(img).toMatch(
        /src="\/images\/default-cover.svg" width="640" height="360" loading="lazy" decoding="async" alt="[^"]+"/,
      )
    expect(home).toContain('alt="Diagram for article 60"')
    expect(home).toContain('alt="Cover image of “Article 57”"')
    expect(page('posts/article-6.html')).toContain('<figure class="article-cover"><img src="/images/default-cover.svg"')
    expect(page('posts/article-5.html')).not.toContain('article-cover')
  })

  it('gives a long article its contents, and every article its previous, next and related articles', () => {
    expect(page('posts/article-1.html')).toContain('<a href="#threats--limits">Threats &amp; limits</a>')
    expect(page('posts/article-2.html')).not.toContain('article-toc')
    const mid = page('posts/article-30.html')
    expect(mid).toContain('<a href="/posts/article-29" rel="prev">')
    expect(mid).toContain('<a href="/posts/article-31" rel="next">')
    expect(mid.match(/<section class="related"[\s\S]*?<\/section>/)![0].match(/<li>/g)).toHaveLength(3)
    // The aids are kept out of the site search index.
    expect(mid).toMatch(/<nav class="article-nav" aria-label="More articles" data-pagefind-ignore>/)
  })

  it('rewrites the pages whose neighbours change when an ' +
    'article is added, retitled or removed, and only those', async () => {
    const far = statSync(path('posts/article-2.html')).ino
    writeFileSync(join(content, 'article-61.md'), listArticle(61, { tags: ['privacy'] }))
    await run()
    expect(page('posts/article-60.html')).toContain('<a href="/posts/article-61" rel="next">')
    expect(page('posts/article-61.html')).toContain('<a href="/posts/article-60" rel="prev">')
    expect(cards(page('index.html'))[0]).toBe('article-61')
    expect(statSync(path('posts/article-2.html')).ino).toBe(far)

    writeFileSync(join(content, 'article-61.md'), listArticle(61, { tags: ['privacy'], title: 'Newest, retitled' }))
    await run()
    expect(page('posts/article-60.html')).toContain('<span class="hint">Next article</span> Newest, retitled</a>')

    rmSync(join(content, 'article-61.md'))
    await run()
    expect(page('posts/article-60.html')).not.toContain('rel="next"')
    expect(existsSync(path('posts/article-61.html'))).toBe(false)
    expect(statSync(path('posts/article-2.html')).ino).toBe(far)
  }, 300_000)
})
