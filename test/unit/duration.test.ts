import { describe, expect, it } from 'vitest'
import { describeDuration } from '../../model/duration.ts'

describe('describeDuration', () => {
  it('says a duration in the largest unit that divides it exactly', () => {
    expect(describeDuration(90 * 86_400)).toBe('90 days')
    expect(describeDuration(86_400)).toBe('1 day')
    expect(describeDuration(3_600)).toBe('1 hour')
    expect(describeDuration(36 * 3_600)).toBe('36 hours')
    expect(describeDuration(15 * 60)).toBe('15 minutes')
    expect(describeDuration(90)).toBe('90 seconds')
    expect(describeDuration(1)).toBe('1 second')
  })
})
