import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Element, Root } from 'hast'
import { fromHtml } from 'hast-util-from-html'
import createMetascraper from 'metascraper'
import metascraperAuthor from 'metascraper-author'
import { describe, expect, it } from 'vitest'
import { distOf } from '../support/index.ts'
import { siteFile } from '../support/site-file.ts'

/** The shipped sample with three authors, the first with an affiliation. */
const SLUG = 'second-chance-eviction-under-skew'
const BASE = 'http://localhost:4321'
const page = (path: string) => readFileSync(siteFile(join(distOf('shipped'), 'current'), path), 'utf8')

/** The head's <meta> elements as [key, content] pairs in order, the key being `property` or `name`. */
function headMeta(html: string): Array<[string, string]> {
  const out: Array<[string, string]> = []
  const walk = (n: Root | Element, inHead: boolean) => {
    for (const c of n.children) {
      if (c.type !== 'element') continue
      const here = inHead || c.tagName === 'head'
      if (here && c.tagName === 'meta') {
        const key = c.properties.property ?? c.properties.name
        if (key !== undefined) out.push([String(key), String(c.properties.content)])
      }
      if (c.tagName !== 'body') walk(c, here)
    }
  }
  walk(fromHtml(html), false)
  return out
}
const all = (meta: Array<[string, string]>, key: string) => meta.filter(([k]) => k === key).map(([, v]) => v)

describe('what link previews and metadata readers read from an article page', () => {
  const html = page(`posts/${SLUG}.html`)
  const meta = headMeta(html)

  it('names each author, and only the name, in meta author and article:author', () => {
    expect(all(meta, 'author')).toEqual(['Priya Raman', 'Josiah Carberry', 'Mateo García'])
    expect(all(meta, 'article:author')).toEqual(['Priya Raman', 'Josiah Carberry', 'Mateo García'])
    // Highwire's tags stay for Google Scholar and Zotero.
    expect(all(meta, 'citation_author')).toEqual(['Raman, Priya', 'Carberry, Josiah', 'García, Mateo'])
  })

  it('has the Open Graph article tags and a large-image card with its alt text', () => {
    const one = (key: string) => {
      expect(all(meta, key), key).toHaveLength(1)
      return all(meta, key)[0]
    }
    expect(one('og:type')).toBe('article')
    expect(one('og:title')).toMatch(/^Second-Chance Eviction Under Skewed Workloads/)
    expect(one('og:description')).toMatch(/^We replicate a classic comparison/)
    expect(one('og:url')).toBe(`${BASE}/posts/${SLUG}`)
    expect(one('og:site_name')).toBe('Lattice Research')
    expect(one('article:published_time')).toBe('2025-06-12T00:00:00.000Z')
    expect(one('article:modified_time')).toBe('2025-07-03T00:00:00.000Z')
    expect(all(meta, 'article:tag')).toEqual(['caching', 'performance', 'replication'])
    expect(one('twitter:card')).toBe('summary_large_image')
    expect(one('og:image')).toMatch(new RegExp(`^${BASE}/`))
    expect(one('og:image:alt')).toBe('Cover image of “Second-Chance Eviction Under Skewed Workloads: A Replication”')
    expect(one('twitter:image:alt')).toBe(one('og:image:alt'))
    // og:image:alt describes the og:image before it (https://ogp.me/#structured).
    const keys = meta.map(([k]) => k)
    expect(keys.indexOf('og:image:alt')).toBeGreaterThan(keys.indexOf('og:image'))
  })

  it('reads as one author by metascraper, without the affiliation', async () => {
    const metascraper = createMetascraper([metascraperAuthor()])
    const { author } = await metascraper({ html, url: `${BASE}/posts/${SLUG}` })
    expect(author).toBe('Priya Raman')
    // Even without the meta tags, the first element whose class names an author holds the name alone.
    const bare = html.replace(/<meta (name="author"|property="article:author")[^>]*>/g, '')
    expect((await metascraper({ html: bare, url: `${BASE}/posts/${SLUG}` })).author).toBe('Priya Raman')
  })

  it('gives a page without an image a summary card', () => {
    const list = headMeta(page('tags.html'))
    expect(all(list, 'twitter:card')).toEqual(['summary'])
    expect(all(list, 'og:image:alt')).toEqual([])
  })
})
