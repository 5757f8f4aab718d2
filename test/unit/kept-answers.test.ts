/** The answers an index keeps: within their byte budgets, the least recently read dropped first. */
import { describe, expect, it } from 'vitest'
import { hotDetails } from '../../post-index/kept-answers.ts'
import type { PreparedBody } from '../../post-index/post-index.ts'

const detail = (bytes: number): PreparedBody => ({
  body: Buffer.alloc(bytes, 0x61),
  etag: `"${bytes}"`,
  lastModified: 'Thu, 01 Jan 2026 00:00:00 GMT',
})

describe('hot details', () => {
  it('keeps details up to its budget and drops the least recently read first', () => {
    const hot = hotDetails(300)
    const [a, b, c] = [detail(100), detail(100), detail(100)]
    hot.set(1, a)
    hot.set(2, b)
    hot.set(3, c)
    expect(hot.calculatedSize).toBe(300)
    // Reading 1 makes 2 the least recently read: the next one in drops it.
    expect(hot.get(1)).toBe(a)
    hot.set(4, detail(100))
    expect(hot.get(2)).toBeUndefined()
    expect(hot.get(1)).toBe(a)
    expect(hot.get(3)).toBe(c)
    expect(hot.calculatedSize).toBe(300)
  })

  it('drops as many as a large detail needs, and never keeps one over the whole budget', () => {
    const hot = hotDetails(300)
    for (let i = 0; i < 3; i++) hot.set(i, detail(100))
    hot.set(9, detail(250))
    expect([0, 1, 2].map((i) => hot.get(i))).toEqual([undefined, undefined, undefined])
    expect(hot.calculatedSize).toBe(250)
    hot.set(10, detail(301))
    expect(hot.get(10)).toBeUndefined()
    expect(hot.get(9)?.body.length).toBe(250)
  })
})
