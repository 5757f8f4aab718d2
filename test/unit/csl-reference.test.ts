/**
 * A reference as the API gives it: a CSL-JSON item as citation-js reads a bibliography, reduced to
 * the fields the OpenAPI document declares, each within its bound, so that no bibliography can
 * make the build write an index entry the schema refuses.
 */
import { describe, expect, it } from 'vitest'
import { CslReference, toCslReference } from '../../model/references.ts'

describe('toCslReference', () => {
  it('keeps the declared fields, as strings, and drops the rest', () => {
    const item = {
      id: 'knuth1984',
      type: 'article-journal',
      'citation-key': 'knuth1984',
      _graph: [{ type: '@biblatex/text' }],
      title: 'Literate Programming',
      volume: 27,
      issue: '2',
      page: '97-111',
      author: [{ family: 'Knuth', given: 'Donald E.', extra: 'x' }, { literal: 'The TeX Users Group' }, 'bad'],
      issued: { 'date-parts': [['1984', 5]] },
      accessed: { raw: 'last spring' },
      DOI: '10.1093/comjnl/27.2.97',
    }
    const ref = toCslReference(item)
    expect(ref).toEqual({
      id: 'knuth1984',
      type: 'article-journal',
      title: 'Literate Programming',
      volume: '27',
      issue: '2',
      page: '97-111',
      author: [{ family: 'Knuth', given: 'Donald E.' }, { literal: 'The TeX Users Group' }],
      issued: { 'date-parts': [[1984, 5]] },
      accessed: { literal: 'last spring' },
      DOI: '10.1093/comjnl/27.2.97',
    })
    expect(CslReference.parse(ref)).toEqual(ref)
  })

  it('bounds what a bibliography could make too long for the schema', () => {
    const ref = toCslReference({
      id: 'k',
      type: 'book',
      title: 't'.repeat(5000),
      author: Array.from({ length: 500 }, (_, i) => ({ family: `F${i}` })),
      issued: { 'date-parts': [[2020, 1, 1, 9], [2021], [2022]] },
      URL: `https://example.org/${'a'.repeat(5000)}`,
    })
    expect(CslReference.safeParse(ref).success).toBe(true)
    expect(ref.title).toHaveLength(1000)
    expect(ref.author).toHaveLength(100)
    expect(ref.issued).toEqual({ 'date-parts': [[2020, 1, 1], [2021]] })
    // A URL cut short would lead nowhere: it is left out.
    expect(ref.URL).toBeUndefined()
  })
})
