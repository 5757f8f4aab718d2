import { describe, expect, it } from 'vitest'
import { SLUG_MAX_LENGTH, Slug, isSlug } from '../../model/slug.ts'

describe('isSlug, the build’s test of every file name', () => {
  it('says what the Slug schema says', () => {
    const names = [
      'a',
      'my-article',
      'x2-y3-z4',
      'a'.repeat(SLUG_MAX_LENGTH),
      'a'.repeat(SLUG_MAX_LENGTH + 1),
      '',
      '-lead',
      'trail-',
      'two--hyphens',
      'Capital',
      'under_score',
      'dot.md',
      'ünï',
      'line\nbreak',
    ]
    for (const name of names) expect([name, isSlug(name)]).toEqual([name, Slug.safeParse(name).success])
    expect(names.filter(isSlug)).toEqual(['a', 'my-article', 'x2-y3-z4', 'a'.repeat(SLUG_MAX_LENGTH)])
  })
})
