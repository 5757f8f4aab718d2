import { describe, expect, it } from 'vitest'
import { authorPath, authorSlug, authorUrl } from '../../model/author-address.ts'
import { SLUG_RE } from '../../model/slug.ts'

describe('an author’s address', () => {
  it('is the ORCID iD when there is one, whatever the name is written as', () => {
    expect(authorSlug({ name: 'Josiah Carberry', orcid: '0000-0002-1825-0097' })).toBe('0000-0002-1825-0097')
    expect(authorSlug({ name: 'J. S. Carberry', orcid: '0000-0002-1825-0097' })).toBe('0000-0002-1825-0097')
    expect(authorSlug({ name: 'Someone', orcid: '0000-0002-9079-593X' })).toBe('0000-0002-9079-593x')
  })

  it('is the name in ASCII words otherwise, one page for one spelling across articles', () => {
    expect(authorSlug({ name: 'Mateo García' })).toBe('mateo-garcia')
    expect(authorSlug({ name: '  mateo  GARCIA ', orcid: null })).toBe('mateo-garcia')
    expect(authorSlug({ name: 'Zoë Müller-Åberg' })).toBe('zoe-muller-aberg')
    expect(authorSlug({ name: 'Алексей Иванов' })).toBe('aleksey-ivanov')
    expect(authorSlug({ name: '李明' })).toBe('liming')
  })

  it('never reads as an ORCID iD, and is a slug even for a name of symbols', () => {
    expect(authorSlug({ name: '0000 0002 1825 0097' })).toBe('author-0000-0002-1825-0097')
    const symbols = authorSlug({ name: '★★★' })
    expect(symbols).toMatch(/^author-[0-9a-f]{12}$/)
    expect(authorSlug({ name: '★★★' })).toBe(symbols)
    for (const name of ['Mateo García', '★★★', 'x'.repeat(200), '- - -'])
      expect(authorSlug({ name }), name).toMatch(SLUG_RE)
  })

  it('is a path under /authors and an absolute URL from the origin', () => {
    expect(authorPath({ name: 'Ada Writer' })).toBe('/authors/ada-writer')
    expect(authorUrl('https://research.example', { name: 'Ada', orcid: '0000-0002-1825-0097' })).toBe(
      'https://research.example/authors/0000-0002-1825-0097',
    )
  })
})
