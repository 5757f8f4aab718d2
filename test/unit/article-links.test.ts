import { describe, expect, it } from 'vitest'
import { articleLinks } from '../../scripts/builder/article-links.ts'
import type { ArticleMeta } from '../../scripts/builder/content.ts'

const article = (n: number, tags = ['shared'], title = `Article ${n}`): ArticleMeta =>
  ({ slug: `a-${n}`, hash: `h${n}`, title, tags, date: `2025-01-${String(30 - n).padStart(2, '0')}` }) as ArticleMeta
const list = (changes: Record<number, Partial<ArticleMeta>> = {}) =>
  Array.from({ length: 8 }, (_, n) => ({ ...article(n), ...changes[n] }))

describe("the pages' links to other articles", () => {
  it("are the live build's own when the list's order, titles and tags are the same", () => {
    const live = articleLinks(list())
    // An edit of an article's text: a new hash, the same links.
    const next = articleLinks(list({ 3: { hash: 'edited' } }), live)
    expect(next.linksKey).toBe(live.linksKey)
    expect(next.related).toBe(live.related)
    expect(next.navKeys).toBe(live.navKeys)
  })

  it('are computed again when a title changes: its neighbours’ and related pages’ keys change, others not', () => {
    const live = articleLinks(list())
    const next = articleLinks(list({ 3: { title: 'Retitled' } }), live)
    expect(next.linksKey).not.toBe(live.linksKey)
    expect(next).toEqual({ ...articleLinks(list({ 3: { title: 'Retitled' } })) })
    const changed = Object.keys(next.navKeys).filter((slug) => next.navKeys[slug] !== live.navKeys[slug])
    const showing = next.related.flatMap((r, i) => (r.includes(3) || Math.abs(i - 3) === 1 ? [`a-${i}`] : []))
    expect(changed.sort()).toEqual(showing.sort())
    expect(changed).not.toContain('a-3')
  })

  it('are computed again when tags change', () => {
    const live = articleLinks(list())
    const next = articleLinks(list({ 5: { tags: ['other'] } }), live)
    expect(next.linksKey).not.toBe(live.linksKey)
    expect(next.related.some((r) => r.includes(5))).toBe(false)
  })
})
