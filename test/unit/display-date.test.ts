import { describe, expect, it } from 'vitest'
import { displayDate } from '../../site/lib/articles.ts'

describe('displayDate', () => {
  it('reads as the en-GB long date of the UTC day, whatever the time of day', () => {
    expect(displayDate(new Date('2026-03-01T00:00:00Z'))).toBe('1 March 2026')
    expect(displayDate(new Date('2026-02-28T23:59:59Z'))).toBe('28 February 2026')
    expect(displayDate(new Date('1999-12-31T12:00:00Z'))).toBe('31 December 1999')
  })

  it("is what Date's toLocaleDateString gives with the same options, for two centuries of days", () => {
    const options = { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' } as const
    for (let t = Date.UTC(1900, 0, 1); t < Date.UTC(2100, 0, 1); t += 86_400_000 * 5) {
      const d = new Date(t)
      if (displayDate(d) !== d.toLocaleDateString('en-GB', options))
        expect(displayDate(d)).toBe(d.toLocaleDateString('en-GB', options))
    }
  })
})
