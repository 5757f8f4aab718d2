import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { distOf, readIndexedPosts } from '../support/index.ts'
import { PAGE_SIZE } from '../../site/lib/pagination.ts'
import { DEFAULT_IMAGE_PATH } from '../../model/article.ts'
import { articleFile } from '../../model/article-bucket.ts'

/**
 * The shipped content shows a new user every feature without writing anything. Counts are
 * read from the build, never written here: articles are added over time.
 */
describe('the shipped sample content', () => {
  const site = join(distOf('shipped'), 'current', 'site')
  const posts = readIndexedPosts(distOf('shipped'))
  const pages = posts.map((p) => readFileSync(articleFile(join(site, '..'), p.slug, 'page'), 'utf8'))

  it('fills more than one page of the home list, and the first shows covers', () => {
    expect(posts.length).toBeGreaterThan(PAGE_SIZE)
    expect(existsSync(join(site, 'page', '2.html'))).toBe(true)
    const home = readFileSync(join(site, 'index.html'), 'utf8')
    const covers = [...home.matchAll(/<img class="cover" src="([^"]+)"[^>]*alt="([^"]*)"/g)]
    expect(covers.length).toBeGreaterThan(0)
    for (const [, src, alt] of covers) {
      expect(src).not.toBe(DEFAULT_IMAGE_PATH)
      expect(existsSync(join(site, src!))).toBe(true)
      expect(alt!.length).toBeGreaterThan(20)
    }
  })

  it('has an article with its own cover and alt text, and one with a DOI', () => {
    expect(posts.some((p) => p.image && p.image !== DEFAULT_IMAGE_PATH)).toBe(true)
    const covered = pages.filter((html) => /class="article-cover"/.test(html))
    // The writer's description, not the one made from the title.
    expect(covered.some((html) => /<img[^>]+alt="(?!Cover image of)[^"]{20,}"/.test(html))).toBe(true)
    expect(pages.some((html) => /href="https:\/\/doi\.org\/10\.\d{4,9}\/[^"]+"/.test(html))).toBe(true)
  })

  it('has an article with a table of numbers, code and math together', () => {
    const full = pages.filter(
      (html) => /<td class="num">/.test(html) && /<pre class="astro-code/.test(html) && /class="katex"/.test(html),
    )
    expect(full.length).toBeGreaterThan(0)
  })
})
