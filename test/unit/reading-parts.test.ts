import { describe, expect, it } from 'vitest'
import { Frontmatter } from '../../model/article.ts'
import { coverHtml, navHtml, tocHtml } from '../../scripts/builder/reading-parts.ts'
import { RELATED_WINDOW, relatedArticles } from '../../scripts/builder/related.ts'
import { pageHref, pageNumbers } from '../../site/lib/pagination.ts'

describe('related articles', () => {
  it('ranks by tags shared, then nearness in publication order, and never lists an article that shares no tag', () => {
    const articles = [
      { tags: ['a', 'b'] }, // 0
      { tags: ['c'] }, // 1
      { tags: ['a'] }, // 2
      { tags: ['a', 'b', 'c'] }, // 3: the article under test
      { tags: ['c'] }, // 4
      { tags: ['x'] }, // 5
      { tags: ['a', 'b'] }, // 6
      { tags: ['b'] }, // 7
    ]
    const related = relatedArticles(articles, 3)
    // 0 and 6 share two tags (6 is as near as 0, then newest first); 2 and 4 are previous/next, never repeated.
    expect(related[3]).toEqual([0, 6, 1])
    expect(related[5]).toEqual([])
    expect(related.every((r, i) => !r.includes(i))).toBe(true)
  })

  it('counts a tag written twice once', () => {
    expect(
      relatedArticles(
        [{ tags: ['a', 'b'] }, { tags: ['z'] }, { tags: ['a', 'a'] }, { tags: ['b'] }, { tags: ['a', 'b'] }],
        3,
      )[0],
    ).toEqual([4, 2, 3])
  })

  it('looks only within a window of each tag, so a tag on every article costs no more than its window', () => {
    const n = 2_000
    const articles = Array.from({ length: n }, (_, i) => ({ tags: ['everywhere', `t${i % 7}`] }))
    const related = relatedArticles(articles, 3)
    for (const i of [0, 1_000, n - 1]) {
      expect(related[i]).toHaveLength(3)
      for (const j of related[i]!) expect(Math.abs(j - i)).toBeLessThanOrEqual(RELATED_WINDOW * 7)
      // The best share both tags: the same t<k>, 7 apart in publication order.
      for (const j of related[i]!) expect(j % 7).toBe(i % 7)
    }
  })
})

describe('the table of contents', () => {
  const h = (depth: number, text: string, slug = text.toLowerCase()) => ({ depth, slug, text })

  it('is left out of a short article', () => {
    expect(tocHtml([h(2, 'One'), h(3, 'Two'), h(4, 'Deep'), h(1, 'Title')])).toBe('')
  })

  it('nests level-3 headings under their level-2 heading, and escapes the text', () => {
    const html = tocHtml([
      h(2, 'Method'),
      h(3, 'A <b>'),
      h(3, 'B'),
      h(2, 'Results & "more"', 'results--more'),
      h(4, 'Skipped'),
    ])
    expect(html).toContain(
      '<ol><li><a href="#method">Method</a><ol><li><a href="#a &lt;b&gt;">A &lt;b&gt;</a></li><li><a ' +
        'href="#b">B</a></li></ol></li><li><a href="#results--more">Results &amp; &quot;more&quot;</a></li></ol>',
    )
    expect(html).not.toContain('Skipped')
    expect(html).toContain('<nav class="article-toc" ')
  })

  it('drops the list numbers when the sections carry their own, so none reads "1. 1 Method"', () => {
    const html = tocHtml([h(2, '1 Method'), h(3, '1.1 Setup'), h(2, '2 Results'), h(2, 'References')])
    expect(html).toContain('<nav class="article-toc numbered" ')
    expect(tocHtml([h(2, 'Method'), h(2, '2024 in review'), h(2, 'Results')])).toContain('class="article-toc" ')
  })
})

describe('cover, previous/next and related links', () => {
  it('shows a cover only when the writer named one, described by imageAlt or else the title', () => {
    expect(coverHtml({ title: 'T' })).toBe('')
    expect(coverHtml({ title: 'A "quoted" title', image: '/images/x.png' })).toContain(
      'alt="Cover image of “A &quot;quoted&quot; title”"',
    )
    expect(coverHtml({ title: 'T', image: 'https://img.example/x.png?a=1&b=2', imageAlt: 'A chart' })).toMatch(
      new RegExp(
        '^<figure class="article-cover"><img src="https://img.example/x.png\\?a=1&amp;b=2" ' +
          'width="640" height="360" decoding="async" alt="A chart"></figure>$',
      ),
    )
  })

  it('links the older article as previous and the newer as next, with escaped titles', () => {
    const html = navHtml({ slug: 'old', title: 'Old <one>' }, undefined, [{ slug: 'r', title: 'R' }])
    expect(html).toContain(
      '<a href="/posts/old" rel="prev"><span class="hint">Previous article</span> Old &lt;one&gt;</a>',
    )
    expect(html).not.toContain('rel="next"')
    expect(html).toContain('<a href="/posts/r">R</a>')
    expect(navHtml(undefined, undefined, [])).not.toContain('<section')
  })

  it('takes imageAlt from the frontmatter, and refuses an empty one', () => {
    const base = { title: 'T', description: 'D', date: '2025-01-01', author: 'A' }
    expect(Frontmatter.parse({ ...base, image: '/x.png', imageAlt: ' A chart ' }).imageAlt).toBe('A chart')
    expect(Frontmatter.safeParse({ ...base, imageAlt: '' }).success).toBe(false)
  })
})

describe('page numbers of a list', () => {
  it('keeps page 1 at the list address and numbers the next pages under page/', () => {
    expect([pageHref('/', 1), pageHref('/', 2), pageHref('/tags/x', 1), pageHref('/tags/2024', 3)]).toEqual([
      '/',
      '/page/2',
      '/tags/x',
      '/tags/2024/page/3',
    ])
  })

  it('links the first, the last and two either side of the current, with gaps', () => {
    expect(pageNumbers(1, 1)).toEqual([1])
    expect(pageNumbers(1, 4)).toEqual([1, 2, 3, 4])
    expect(pageNumbers(6, 12)).toEqual([1, undefined, 4, 5, 6, 7, 8, undefined, 12])
  })
})
