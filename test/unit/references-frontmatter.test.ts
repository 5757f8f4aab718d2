import { describe, expect, it } from 'vitest'
import { Frontmatter } from '../../model/article.ts'

const BASE = { title: 'T', description: 'D', date: new Date('2025-01-01'), author: 'Ada Writer' }
const issues = (extra: Record<string, unknown>) => {
  const parsed = Frontmatter.safeParse({ ...BASE, ...extra })
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join('.'), i.message])
}

describe('the bibliography and csl front-matter fields', () => {
  it('take one file or a list, relative to the article, and a style file', () => {
    expect(issues({ bibliography: 'refs.bib', csl: 'styles/house.csl' })).toEqual([])
    expect(issues({ bibliography: ['refs.bib', 'more/items.json'] })).toEqual([])
  })

  it.each([
    [{ bibliography: '/etc/refs.bib' }, 'bibliography', 'inside the content folder'],
    [{ bibliography: '../refs.bib' }, 'bibliography', 'inside the content folder'],
    [{ bibliography: 'refs.txt' }, 'bibliography', 'a .bib or .json file'],
    [{ bibliography: [] }, 'bibliography', ''],
    [{ csl: 'apa.xml' }, 'csl', 'a .csl file'],
  ])('refuse %j', (extra, field, words) => {
    const found = issues(extra)
    expect(found.length).toBeGreaterThan(0)
    expect(found[0]![0]).toBe(field)
    expect(found.map((f) => f[1]).join(' ')).toContain(words)
  })
})
