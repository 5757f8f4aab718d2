/**
 * The API search forgives (issue 39): a misspelt word finds the words near it and the answer
 * names them, hyphenated words match by their parts and their whole, and the MCP tools, which run
 * the same read, answer the same.
 */
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { testDeps } from '../support/index.ts'
import { callTool } from '../support/mcp-2026.ts'

let app: ReturnType<typeof createApp>
beforeAll(async () => {
  app = createApp(await testDeps({ corpus: 'shipped' }))
})

interface Answer {
  query: string
  corrected?: Array<{ from: string; to: string }>
  posts: Array<{ slug: string; title: string; url: string }>
}
const search = async (q: string): Promise<Answer> => {
  const res = await request(app).get(`/api/v1/search?q=${encodeURIComponent(q)}`)
  expect(res.status).toBe(200)
  return res.body as Answer
}
const slugs = (a: Answer) => a.posts.map((p) => p.slug)

describe('a misspelt word', () => {
  it.each([
    ['evicton', 'eviction', 'second-chance-eviction-under-skew'],
    ['cardinalty', 'cardinality', 'estimating-cardinality-with-hyperloglog'],
    ['hyperloglg', 'hyperloglog', 'estimating-cardinality-with-hyperloglog'],
    ['replicaton', 'replication', 'second-chance-eviction-under-skew'],
  ])('%s finds what %s finds and says so', async (typo, word, slug) => {
    const answer = await search(typo)
    expect(answer.corrected).toEqual([{ from: typo, to: word }])
    expect(slugs(answer)).toContain(slug)
    const meant = await search(word)
    expect(meant.corrected).toBeUndefined()
    // Every article the word finds, the nearest first ("replicaton" is also two edits from "replicating").
    expect(slugs(answer)).toEqual(expect.arrayContaining(slugs(meant)))
    expect(slugs(answer)[0]).toBe(slugs(meant)[0])
  })

  it('within two edits only from 9 letters: "hyprloglg" (two edits, 9 letters) finds, "evictn" (two, 6) does not', async () => {
    expect((await search('hyprloglg')).corrected).toEqual([{ from: 'hyprloglg', to: 'hyperloglog' }])
    expect(await search('evictn')).toEqual({ query: 'evictn', posts: [], next_cursor: null })
  })

  it('counts a swap of neighbouring letters as one edit, as the search page does: "evcition" finds eviction', async () => {
    expect((await search('evcition')).corrected).toEqual([{ from: 'evcition', to: 'eviction' }])
    // Two swaps in 9 letters or more: two edits.
    expect((await search('cradinaliyt')).corrected).toEqual([{ from: 'cradinaliyt', to: 'cardinality' }])
  })

  it('under 5 letters is not corrected: "skwe" finds nothing', async () => {
    expect((await search('skwe')).posts).toEqual([])
  })

  it.each(['qwertyuiop', 'zzxqv'])('gibberish (%s) still finds nothing and corrects nothing', async (q) => {
    expect(await search(q)).toEqual({ query: q, posts: [], next_cursor: null })
  })

  it('names only the word that was corrected, beside words that matched', async () => {
    const answer = await search('skewed evicton')
    expect(answer.corrected).toEqual([{ from: 'evicton', to: 'eviction' }])
    expect(slugs(answer).slice(0, 2).sort()).toEqual([
      'cache-eviction-under-skewed-workloads',
      'second-chance-eviction-under-skew',
    ])
  })
})

describe('compound and hyphenated words', () => {
  it.each(['tinylfu', 'w-tinylfu', 'w tinylfu', 'wtinylfu', 'W-TinyLFU'])('%s finds W-TinyLFU', async (q) => {
    const answer = await search(q)
    expect(slugs(answer)[0]).toBe('cache-eviction-under-skewed-workloads')
    expect(answer.corrected).toBeUndefined()
  })
})

describe('a quoted phrase', () => {
  it('matches its words together, in a title, tag or description, not apart', async () => {
    const both = ['cache-eviction-under-skewed-workloads', 'second-chance-eviction-under-skew']
    expect(slugs(await search('"eviction under skewed"')).sort()).toEqual(both)
    expect(slugs(await search('"hit ratio"')).sort()).toEqual(expect.arrayContaining(both))
    // The same words, out of order: found as words, not as a phrase.
    expect(slugs(await search('ratio hit'))).toEqual(expect.arrayContaining(both))
    expect(slugs(await search('"ratio hit"'))).toEqual([])
    expect(slugs(await search('"skewed eviction"'))).toEqual([])
  })
})

describe('ranking', () => {
  it('an article titled with the word outranks ones that only describe it', async () => {
    const answer = await search('replication')
    expect(slugs(answer)[0]).toBe('second-chance-eviction-under-skew')
  })
})

describe('the MCP tools answer as the API', () => {
  const call = (name: string, args: Record<string, unknown>) => callTool(app, name, args)

  it.each(['evicton', 'w-tinylfu', 'hyperloglg cardinality', 'zzxqv', '"hit ratio"', '"ratio hit"'])(
    'for %s',
    async (q) => {
      const rest = await search(q)
      const posts = await call('search_posts', { q })
      expect(posts.structuredContent).toEqual({ ...rest, next_cursor: null })
      expect(JSON.parse(posts.content[0]!.text)).toEqual(posts.structuredContent)
      const found = await call('search', { query: q })
      expect(found.structuredContent).toEqual({
        results: rest.posts.map((p) => ({ id: p.slug, title: p.title, url: p.url })),
        ...(rest.corrected ? { corrected: rest.corrected } : {}),
      })
      expect(JSON.parse(found.content[0]!.text)).toEqual(found.structuredContent)
    },
  )

  it('page by page, following the cursors each gives, for words, prefixes, folded accents and compounds', async () => {
    for (const q of ['memory', 'evic', 'latency budgets', 'CAFÉ', 'w tinylfu', 'qwertyuiop']) {
      let cursor: string | null | undefined
      let pages = 0
      do {
        const query = `q=${encodeURIComponent(q)}&limit=2${cursor ? `&cursor=${cursor}` : ''}`
        const res = await request(app).get(`/api/v1/search?${query}`)
        expect(res.status, q).toBe(200)
        const posts = await call('search_posts', { q, limit: 2, ...(cursor ? { cursor } : {}) })
        expect(posts.structuredContent, `${q}, page ${pages + 1}`).toEqual(res.body)
        cursor = res.body.next_cursor as string | null
        pages++
      } while (cursor && pages < 10)
      if (q === 'memory') expect(pages, q).toBeGreaterThan(1)
    }
  })
})
