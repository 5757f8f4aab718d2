/**
 * A read's input parses its query only when the read looks at it, and reads see it as they see
 * a plain input (destructured, or read as a property).
 */
import { describe, expect, it } from 'vitest'
import { LazyQueryInput, type ReadInput } from '../../auth-service/http/read-path.ts'

describe("a read's input", () => {
  it('parses the query only when it is read, each time from the request', () => {
    const parsed: Array<string | null> = []
    const parse = (search: string | null) => {
      parsed.push(search)
      return Object.fromEntries(new URLSearchParams(search ?? ''))
    }
    const input = new LazyQueryInput({ slug: 'a' }, 'limit=3&q=x', parse)
    const slugOf = ({ params }: ReadInput) => params.slug
    expect(slugOf(input)).toBe('a')
    expect(parsed).toEqual([])
    const queryOf = ({ query }: ReadInput) => query
    expect(queryOf(input)).toEqual({ limit: '3', q: 'x' })
    expect(input.query).toEqual({ limit: '3', q: 'x' })
    expect(parsed).toEqual(['limit=3&q=x', 'limit=3&q=x'])
    expect(new LazyQueryInput({}, null, parse).query).toEqual({})
  })
})
