import { parseAtomFeed, parseRssFeed } from 'feedsmith'
import { describe, expect, it } from 'vitest'
import type { Article } from '../../site/lib/articles.ts'
import { FEED_ENTRIES, atomFeed, escapeXml, rssFeed } from '../../site/lib/feeds.ts'

const SITE = new URL('https://research.example.org')

const article = (id: string, data: Partial<Article['data']>): Article => ({
  id,
  data: {
    title: 'T',
    description: 'D',
    date: new Date('2025-01-10T00:00:00Z'),
    author: 'A',
    authors: [{ name: data.author ?? 'A' }],
    tags: [],
    changes: [],
    ...data,
  },
  readingMinutes: 1,
})

/** Newest first, as the manifest lists them; text that breaks naive XML. */
const ARTICLES = [
  article('hostile', {
    title: '<script>alert("x")</script> & \'quotes\' ]]> \u0007bell',
    description: 'Fish & chips <b>bold</b> 東京 🧪',
    author: 'Zoë "Z" O\'Brien & Co <z@example.org>',
    date: new Date('2025-03-02T00:00:00Z'),
    lastModified: new Date('2025-03-20T12:00:00Z'),
    tags: ['a-tag', 'b-tag'],
    doi: '10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O',
  }),
  article('plain', { title: 'Plain', author: 'Jonas Lindqvist', date: new Date('2025-01-10T00:00:00Z') }),
]

describe('the RSS 2.0 feed', () => {
  const xml = rssFeed(ARTICLES, SITE)
  const feed = parseRssFeed(xml)

  it('names each writer in dc:creator, never in <author> (which RSS 2.0 keeps for an e-mail address)', () => {
    expect(feed.items?.map((i) => i.dc?.creators)).toEqual([
      ['Zoë "Z" O\'Brien & Co <z@example.org>'],
      ['Jonas Lindqvist'],
    ])
    expect(xml).not.toContain('<author>')
  })

  it('points at itself with atom:link rel="self" and dates itself by its newest change', () => {
    expect(feed.atom?.links).toEqual([
      { href: 'https://research.example.org/rss.xml', rel: 'self', type: 'application/rss+xml' },
    ])
    expect(feed.lastBuildDate).toBe('Thu, 20 Mar 2025 12:00:00 GMT')
  })

  it('carries titles, links, dates and tags as written', () => {
    expect(feed.items?.[0]).toMatchObject({
      title: '<script>alert("x")</script> & \'quotes\' ]]> bell',
      link: 'https://research.example.org/posts/hostile',
      guid: { value: 'https://research.example.org/posts/hostile', isPermaLink: true },
      description: 'Fish & chips <b>bold</b> 東京 🧪',
      pubDate: 'Sun, 02 Mar 2025 00:00:00 GMT',
      categories: [{ name: 'a-tag' }, { name: 'b-tag' }],
    })
    expect(xml).not.toContain('<script>')
  })
})

describe('the Atom feed', () => {
  const xml = atomFeed(ARTICLES, SITE)
  const feed = parseAtomFeed(xml)

  it('has the elements RFC 4287 requires, a self link and an alternate', () => {
    expect(feed.id).toBe('https://research.example.org/')
    expect(feed.title).toEqual({ value: 'Lattice Research' })
    expect(feed.updated).toBe('2025-03-20T12:00:00.000Z')
    expect(feed.links).toEqual([
      { rel: 'self', type: 'application/atom+xml', href: 'https://research.example.org/atom.xml' },
      { rel: 'alternate', type: 'text/html', href: 'https://research.example.org/' },
    ])
  })

  it('gives each entry an id, dates, an author, its page, its markdown twin and its DOI', () => {
    const [hostile, plain] = feed.entries!
    expect(hostile).toMatchObject({
      id: 'https://research.example.org/posts/hostile',
      title: { value: '<script>alert("x")</script> & \'quotes\' ]]> bell' },
      published: '2025-03-02T00:00:00.000Z',
      updated: '2025-03-20T12:00:00.000Z',
      authors: [{ name: 'Zoë "Z" O\'Brien & Co <z@example.org>' }],
      summary: { value: 'Fish & chips <b>bold</b> 東京 🧪' },
      categories: [{ term: 'a-tag' }, { term: 'b-tag' }],
    })
    expect(hostile!.links).toEqual([
      { rel: 'alternate', type: 'text/html', href: 'https://research.example.org/posts/hostile' },
      { rel: 'alternate', type: 'text/markdown', href: 'https://research.example.org/posts/hostile.md' },
      {
        rel: 'related',
        title: 'DOI',
        href: 'https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O',
      },
    ])
    expect(plain).toMatchObject({ updated: '2025-01-10T00:00:00.000Z', authors: [{ name: 'Jonas Lindqvist' }] })
  })
})

it('removes the characters XML forbids and escapes the rest', () => {
  expect(escapeXml('a\u0000b\u001Fc\uFFFEd\uD800e😀f<&>"\'')).toBe('abcde😀f&lt;&amp;&gt;&quot;&apos;')
})

describe('the feeds of a multi-author article', () => {
  const many = article('many', {
    author: 'Ada Lovelace and Charles Babbage',
    authors: [{ name: 'Ada Lovelace', orcid: '0000-0002-1825-0097' }, { name: 'Charles Babbage' }],
    lastModified: new Date('2025-08-01T00:00:00Z'),
  })

  it('give RSS one dc:creator per author, in order', () => {
    expect(parseRssFeed(rssFeed([many], SITE)).items?.[0]?.dc?.creators).toEqual(['Ada Lovelace', 'Charles Babbage'])
  })

  it('give Atom one author per author, with the ORCID iD as its uri, and the last change as updated', () => {
    const entry = parseAtomFeed(atomFeed([many], SITE)).entries?.[0]
    expect(entry?.authors).toEqual([
      { name: 'Ada Lovelace', uri: 'https://orcid.org/0000-0002-1825-0097' },
      { name: 'Charles Babbage' },
    ])
    expect(entry?.updated).toBe('2025-08-01T00:00:00.000Z')
  })
})

describe('the feeds’ window', () => {
  it('carries the newest FEED_ENTRIES articles, newest first, however many are published', () => {
    const many = Array.from({ length: FEED_ENTRIES + 7 }, (_, i) =>
      article(`a-${i}`, { date: new Date(Date.UTC(2025, 0, 1) - i * 86_400_000) }),
    )
    const links = (xml: string) => [...xml.matchAll(/posts\/(a-\d+)/g)].map((m) => m[1])
    const newest = many.slice(0, FEED_ENTRIES).map((a) => a.id)
    expect([...new Set(links(rssFeed(many, SITE)))]).toEqual(newest)
    expect([...new Set(links(atomFeed(many, SITE)))]).toEqual(newest)
  })
})
