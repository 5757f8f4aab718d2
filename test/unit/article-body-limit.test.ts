import { describe, expect, it } from 'vitest'
import { IndexEntry } from '../../model/article.ts'
import { BODY_MAX } from '../../model/wire-limits.ts'
import { parseArticle } from '../../scripts/builder/content.ts'
import type { BuildProblem } from '../../scripts/builder/errors.ts'

const FRONTMATTER = '---\ntitle: "Long"\ndescription: "Long."\ndate: 2025-01-02\nauthor: "A Writer"\n---\n\n'
const parse = (body: string) => {
  const problems: BuildProblem[] = []
  const meta = parseArticle({ slug: 'long', file: 'long.md', hash: 'h', source: FRONTMATTER + body }, problems)
  return { meta, problems }
}

describe('the longest article body, which the API and MCP declare', () => {
  it('builds a body of BODY_MAX characters', () => {
    expect(parse('x'.repeat(BODY_MAX)).problems).toEqual([])
  })

  it('refuses a longer one with its file and a fix', () => {
    const { meta, problems } = parse('x'.repeat(BODY_MAX + 1))
    expect(meta).toBeUndefined()
    expect(problems).toEqual([
      { file: 'long.md', message: expect.stringMatching(/longer than 2000000 characters/), fix: expect.any(String) },
    ])
  })

  it('is the bound of the index’s markdown too', () => {
    const entry = { slug: 'long', title: 'T', description: 'D', date: '2025-01-02', tags: [] }
    const index = { ...entry, lastModified: '2025-01-02T00:00:00.000Z', author: 'A', readingMinutes: 1 }
    expect(IndexEntry.safeParse({ ...index, markdown: 'x'.repeat(BODY_MAX) }).success).toBe(true)
    expect(IndexEntry.safeParse({ ...index, markdown: 'x'.repeat(BODY_MAX + 1) }).success).toBe(false)
  })
})
