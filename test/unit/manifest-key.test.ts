import { describe, expect, it } from 'vitest'
import type { ArticleMeta } from '../../scripts/builder/content.ts'
import { changedCards } from '../../scripts/builder/list-pages.ts'
import { manifestKey, recordChanges } from '../../scripts/builder/manifest-key.ts'

const article = (n: number, fields: Partial<ArticleMeta> = {}): ArticleMeta =>
  ({ slug: `a-${n}`, hash: `h${n}`, title: `Article ${n}`, tags: ['x'], draft: false, ...fields }) as ArticleMeta

/** The live build as the next one sees it: its state's key and order, its metadata by slug. */
function liveOf(published: ArticleMeta[]) {
  return {
    state: { manifestKey: manifestKey(published), order: published.map((m) => m.slug) },
    bySlug: new Map(published.map((m) => [m.slug, m])),
  }
}

describe("the key of the list pages' manifest", () => {
  const list = [article(0), article(1), article(2)]
  const fresh = manifestKey(list)

  it("is the live build's for the same articles, and for an edit that changes no record", () => {
    const live = { ...liveOf(list), state: { ...liveOf(list).state, manifestKey: 'live-key' } }
    expect(manifestKey(list, live)).toBe('live-key')
    // An edit of the text alone: a new object with a new hash, the same record.
    expect(manifestKey([list[0]!, article(1, { hash: 'edited' }), list[2]!], live)).toBe('live-key')
  })

  it('changes with a record, the order or the articles, to the key computed afresh', () => {
    const live = liveOf(list)
    const cases = [
      [list[0]!, article(1, { title: 'Retitled' }), list[2]!],
      [list[1]!, list[0]!, list[2]!],
      [list[0]!, list[1]!],
      [...list, article(3)],
    ]
    for (const next of cases) {
      const key = manifestKey(next, live)
      expect(key).not.toBe(fresh)
      expect(key).toBe(manifestKey(next))
    }
  })

  it('leaves out what the list pages do not show: the hash', () => {
    expect(manifestKey([article(0, { hash: 'other' }), list[1]!, list[2]!])).toBe(fresh)
  })
})

describe('the records an edit changed, and the cards', () => {
  const list = [article(0), article(1), article(2)]
  const live = liveOf(list)

  it('names the changed records of a list in the same order, and nothing for a text edit', () => {
    const retitled = article(1, { title: 'Retitled' })
    expect(recordChanges([list[0]!, retitled, list[2]!], live)).toEqual([{ before: list[1], now: retitled }])
    expect(recordChanges([list[0]!, article(1, { hash: 'edited' }), list[2]!], live)).toEqual([])
  })

  it('gives up on another order or other articles', () => {
    expect(recordChanges([list[1]!, list[0]!, list[2]!], live)).toBeUndefined()
    expect(recordChanges([list[0]!, list[1]!], live)).toBeUndefined()
    expect(recordChanges([list[0]!, list[1]!, article(3)], live)).toBeUndefined()
  })

  it('makes only the cards, unless an article moved between lists or in the sitemap', () => {
    const card = recordChanges([list[0]!, article(1, { title: 'Retitled' }), list[2]!], live)!
    expect(changedCards(card)).toEqual(['a-1'])
    for (const moved of [{ tags: ['y'] }, { date: '2020-01-01' }, { lastModified: '2030-01-01' }])
      expect(changedCards(recordChanges([list[0]!, article(1, moved), list[2]!], live)!)).toBeUndefined()
  })
})
