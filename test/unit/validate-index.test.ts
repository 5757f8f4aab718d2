import { describe, expect, it } from 'vitest'
import { IndexError, validateIndex } from '../../auth-service/articles/validate-index.ts'

const good = {
  slug: 'a-post', title: 'T', description: 'D', date: '2025-01-01', lastModified: '2025-01-01T00:00:00.000Z',
  author: 'A', tags: ['x'], readingMinutes: 3, markdown: 'body',
}

describe('validateIndex', () => {
  it('accepts a well-formed index', () => {
    expect(validateIndex({ version: 1, posts: [good] })).toEqual([good])
  })

  it.each([
    [null, /version/],
    [{ version: 2, posts: [] }, /version/],
    [{ version: 1, posts: [{ ...good, slug: 'Bad Slug' }] }, /posts\[0\]\.slug/],
    [{ version: 1, posts: [good, good] }, /appears twice/],
    [{ version: 1, posts: [{ ...good, date: '1 May' }] }, /posts\[0\]\.date/],
    [{ version: 1, posts: [{ ...good, tags: [1] }] }, /tags/],
    [{ version: 1, posts: [{ ...good, title: undefined }] }, /title/],
    [{ version: 1, posts: [{ ...good, lastModified: 'soon' }] }, /lastModified/],
  ])('refuses %j', (data, message) => {
    expect(() => validateIndex(data)).toThrow(IndexError)
    expect(() => validateIndex(data)).toThrow(message)
  })
})
