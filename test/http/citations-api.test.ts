/**
 * The API's and MCP's article carry its references (CSL-JSON) and the articles of the publication
 * citing it, on the shipped samples: "Cache Eviction Under Skewed Workloads" cites "Second-Chance
 * Eviction" by its DOI. REST, get_post and fetch give the same lists, from the same bytes.
 */
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { BASE_URL, testDeps } from '../support/index.ts'
import { MCP_HEADERS } from '../support/mcp-2025.ts'
import { headersOf, META } from '../support/mcp-2026.ts'

const CITING = 'cache-eviction-under-skewed-workloads'
const CITED = 'second-chance-eviction-under-skew'

type App = Awaited<ReturnType<typeof createApp>>
type Detail = { references: Array<Record<string, unknown>>; citedBy: unknown[] } & Record<string, unknown>
type Result = { result: { content: Array<{ text: string }>; structuredContent: Record<string, unknown> } }

const call = (name: string, args: object, meta?: object) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
})

describe('an article’s references and the articles citing it', () => {
  let app: App
  beforeAll(async () => {
    app = await createApp(await testDeps({ corpus: 'shipped' }))
  })
  const rest = async (slug: string) => {
    const res = await request(app).get(`/api/v1/posts/${slug}`)
    expect(res.status).toBe(200)
    return { text: res.text, body: res.body as Detail }
  }

  it('gives the citing article’s references as CSL-JSON, each once', async () => {
    const { body } = await rest(CITING)
    expect(body.citedBy).toEqual([])
    const ids = body.references.map((r) => r.id)
    expect(ids).toEqual(expect.arrayContaining(['breslau1999', 'einziger2017', 'johnson1994', 'raman2025']))
    expect(new Set(ids).size).toBe(ids.length)
    expect(body.references.find((r) => r.id === 'raman2025')).toEqual({
      id: 'raman2025',
      type: 'article-journal',
      title: 'Second-Chance Eviction Under Skewed Workloads: A Replication',
      'container-title': 'Lattice Research',
      author: [
        { family: 'Raman', given: 'Priya' },
        { family: 'Carberry', given: 'Josiah' },
        { family: 'García', given: 'Mateo' },
      ],
      issued: { 'date-parts': [[2025]] },
      DOI: '10.5555/lattice.2025.eviction',
    })
    // A URL entry keeps its URL.
    expect(body.references.find((r) => r.id === 'johnson1994')).toMatchObject({
      URL: 'https://www.vldb.org/conf/1994/P439.PDF',
      page: '439-450',
    })
  })

  it('lists on the cited article the article citing it by DOI, with its address', async () => {
    const { body } = await rest(CITED)
    expect(body.citedBy).toEqual([
      {
        slug: CITING,
        title: 'Cache Eviction Under Skewed Workloads: LRU, LFU and W-TinyLFU',
        url: `${BASE_URL}/posts/${CITING}`,
      },
    ])
    // Its own bibliography's entry and the publication-wide file's.
    expect(body.references.map((r) => r.id)).toEqual(expect.arrayContaining(['jiang2002', 'belady1966']))
  })

  it('gives both lists in MCP get_post, the REST detail’s bytes, and in fetch’s metadata', async () => {
    for (const slug of [CITING, CITED]) {
      const { text, body } = await rest(slug)
      const got = await request(app).post('/mcp').set(MCP_HEADERS).send(call('get_post', { slug }))
      const answer = JSON.parse(got.text) as Result
      expect(answer.result.content[0]!.text, slug).toBe(text)
      expect(got.text, slug).toContain(`"structuredContent":${text}}`)

      const fetched = await request(app)
        .post('/mcp')
        .set(headersOf('tools/call', 'fetch'))
        .send(call('fetch', { id: slug }, META))
      const { metadata } = (JSON.parse(fetched.text) as Result).result.structuredContent as {
        metadata: Record<string, unknown>
      }
      expect(metadata.references, slug).toEqual(body.references)
      expect(metadata.citedBy, slug).toEqual(body.citedBy)
      // Last in the metadata, as in the detail.
      expect(Object.keys(metadata).slice(-2)).toEqual(['references', 'citedBy'])
    }
  })
})
