import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseAtomFeed } from 'feedsmith'
import { beforeAll, describe, expect, it } from 'vitest'
import { build } from '../../scripts/build.ts'
import { distOf, readIndexedPosts } from '../support/index.ts'
import { siteFile } from '../support/site-file.ts'
import { tempDir } from '../support/temp.ts'

const BASE = 'http://localhost:4321'
const shipped = (path: string) => readFileSync(siteFile(join(distOf('shipped'), 'current'), path), 'utf8')

const jsonLd = (html: string) => {
  const m = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)
  expect(m).not.toBeNull()
  return JSON.parse(m![1]!) as Record<string, unknown>
}
const cardSlugs = (html: string) => [...html.matchAll(/<h2><a href="\/posts\/([^"]+)">/g)].map((m) => m[1])

describe('author pages of the shipped content', () => {
  it('links every name of a byline to its author page, by ORCID iD else by name', () => {
    const page = shipped('posts/second-chance-eviction-under-skew.html')
    const byline = /<li class="byline">(.*?)<\/li>/.exec(page)![1]!
    const links = [...byline.matchAll(/<a class="author-name" href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [
      m[2],
      m[1],
    ])
    expect(links).toEqual([
      ['Priya Raman', '/authors/priya-raman'],
      ['Josiah Carberry', '/authors/0000-0002-1825-0097'],
      ['Mateo García', '/authors/mateo-garcia'],
    ])
    // The lists' cards link the same names.
    expect(shipped('index.html')).toContain('<a class="author-name" href="/authors/0000-0002-1825-0097">')
  })

  it('gives an author a page with their articles, ORCID iD, affiliation, feed and Person JSON-LD', () => {
    const html = shipped('authors/0000-0002-1825-0097.html')
    expect(html).toContain('<h1 class="page-title">Josiah Carberry</h1>')
    expect(html).toContain('<li class="affiliation">Brown University</li>')
    expect(html).toContain('href="https://orcid.org/0000-0002-1825-0097"')
    expect(cardSlugs(html)).toEqual(['second-chance-eviction-under-skew'])
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head).toContain(
      '<link rel="alternate" type="application/atom+xml" title="Josiah Carberry (Atom)" ' +
        'href="/authors/0000-0002-1825-0097/atom.xml">',
    )
    expect(jsonLd(head)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Person',
      '@id': 'https://orcid.org/0000-0002-1825-0097',
      sameAs: 'https://orcid.org/0000-0002-1825-0097',
      name: 'Josiah Carberry',
      url: `${BASE}/authors/0000-0002-1825-0097`,
      mainEntityOfPage: `${BASE}/authors/0000-0002-1825-0097`,
      affiliation: { '@type': 'Organization', name: 'Brown University' },
    })
  })

  it('lists an author’s articles newest first, as the index has them, and feeds the same', () => {
    const mine = readIndexedPosts(distOf('shipped'))
      .filter((e) => (e.authors?.map((a) => a.name) ?? [e.author]).includes('Mateo García'))
      .map((e) => e.slug)
    expect(mine.length).toBeGreaterThan(1)
    expect(cardSlugs(shipped('authors/mateo-garcia.html'))).toEqual(mine)
    const feed = parseAtomFeed(shipped('authors/mateo-garcia/atom.xml'))
    expect(feed.title).toEqual({ value: 'Mateo García · Lattice Research' })
    expect(feed.links?.find((l) => l.rel === 'self')?.href).toBe(`${BASE}/authors/mateo-garcia/atom.xml`)
    expect(feed.entries?.map((e) => e.id)).toEqual(mine.map((s) => `${BASE}/posts/${s}`))
  })

  it('lists every author at /authors with their count, and puts their pages in the sitemap', () => {
    const index = shipped('authors.html')
    const names = [...index.matchAll(/<li><a href="(\/authors\/[^"]+)">([^<]+)<\/a>/g)].map((m) => m[2])
    expect(names).toEqual([...names].sort((a, b) => a!.localeCompare(b!, 'en')))
    expect(names).toContain('Josiah Carberry')
    expect(index).toMatch(/href="\/authors\/0000-0002-1825-0097">Josiah Carberry<\/a>.*?1 article</)
    const sitemap = shipped('sitemap-0.xml')
    expect(sitemap).toContain(`<loc>${BASE}/authors</loc>`)
    expect(sitemap).toContain(`<loc>${BASE}/authors/0000-0002-1825-0097</loc>`)
  })
})

describe('the About page', () => {
  it('is built from content/about.md, linked from the footers, and is not an article', () => {
    const about = shipped('about.html')
    expect(about).toContain('<h1 class="page-title">About Lattice Research</h1>')
    expect(about).toContain('<h2 id="what-we-publish">What we publish</h2>')
    expect(shipped('index.html')).toContain('<li><a href="/about">About</a></li>')
    expect(shipped('posts/second-chance-eviction-under-skew.html')).toContain('<li><a href="/about">About</a></li>')
    expect(readIndexedPosts(distOf('shipped')).map((e) => e.slug)).not.toContain('about')
    for (const feed of ['rss.xml', 'atom.xml', 'llms.txt']) expect(shipped(feed)).not.toContain('/posts/about')
  })
})

describe('author pages of a content folder', () => {
  let dist: string
  const file = (path: string) => readFileSync(siteFile(join(dist, 'current'), path), 'utf8')
  const article = (slug: string, day: number, authors: string) =>
    [
      '---',
      `title: "Note ${slug}"`,
      'description: "A note."',
      `date: 2025-01-${String(day).padStart(2, '0')}`,
      authors,
      '---',
      '',
      'A short note.',
      '',
    ].join('\n')

  beforeAll(async () => {
    const content = tempDir('authors-content')
    mkdirSync(content, { recursive: true })
    // 26 articles by one person without an iD, written two ways (the newest the rarer way).
    for (let i = 1; i <= 26; i++)
      writeFileSync(
        join(content, `note-${i}.md`),
        article(`note-${i}`, i, `author: "${i % 5 === 1 ? 'ada  WRITER' : 'Ada Writer'}"`),
      )
    // Two people of one name, told apart by their iDs.
    for (const [slug, orcid] of [
      ['namesake-one', '0000-0002-1825-0097'],
      ['namesake-two', '0000-0001-5109-3700'],
    ] as const)
      writeFileSync(
        join(content, `${slug}.md`),
        article(slug, 27, `authors:\n  - name: "Sam Lee"\n    orcid: "${orcid}"`),
      )
    dist = join(tempDir('authors-dist'), 'dist')
    await build({ ...process.env, BASE_URL: BASE, CONTENT_DIR: content, DIST_DIR: dist }, { search: false })
  })

  it('merges one person written two ways, and pages their articles like a tag', () => {
    const first = file('authors/ada-writer.html')
    // The page names them as most of their articles do.
    expect(first).toContain('<h1 class="page-title">Ada Writer</h1>')
    expect(first).toContain('26 articles, newest first.')
    expect(cardSlugs(first)).toEqual(Array.from({ length: 24 }, (_, i) => `note-${26 - i}`))
    expect(first).toContain('<link rel="next" href="http://localhost:4321/authors/ada-writer/page/2">')
    const second = file('authors/ada-writer/page/2.html')
    expect(cardSlugs(second)).toEqual(['note-2', 'note-1'])
    expect(second).toContain('<link rel="prev" href="http://localhost:4321/authors/ada-writer">')
  })

  it('keeps two people of one name apart by their ORCID iDs', () => {
    expect(cardSlugs(file('authors/0000-0002-1825-0097.html'))).toEqual(['namesake-one'])
    expect(cardSlugs(file('authors/0000-0001-5109-3700.html'))).toEqual(['namesake-two'])
  })

  it('says "< 1 min read" for an article read in under a minute', () => {
    expect(file('posts/note-1.html')).toContain('<li>&lt; 1 min read</li>')
    expect(file('index.html')).toContain('<li>&lt; 1 min read</li>')
  })

  it('has no About page and no link to one without content/about.md', () => {
    expect(existsSync(siteFile(join(dist, 'current'), 'about.html'))).toBe(false)
    expect(file('index.html')).not.toContain('href="/about"')
  })
})
