/**
 * The article tools (get_post, fetch) answer from the article's parts and the escaped markdown the
 * build wrote beside it: these check, on articles whose markdown holds every character JSON
 * escapes, that the direct answers are the SDK's bytes, that get_post carries the REST detail's
 * bytes, that fetch has the connector shape, and that a rebuild changes the answers.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import type { IndexEntry } from '../../model/article.ts'
import { loadIndexFileSync } from '../../post-index/index-file-loader.ts'
import { writeIndexFile } from '../../post-index/index-file-writer.ts'
import type { PostIndex } from '../../post-index/post-index.ts'
import { testDeps } from '../support/index.ts'
import { MCP_HEADERS } from '../support/mcp-2025.ts'
import { headersOf, META } from '../support/mcp-2026.ts'
import { tempDir } from '../support/temp.ts'

const entry = (slug: string, markdown: string, fields: Partial<IndexEntry> = {}): IndexEntry => ({
  slug,
  title: `Title "${slug}" — é`,
  description: 'A \\ "described" article: é',
  date: '2025-01-01',
  lastModified: '2025-01-02T00:00:00.000Z',
  author: 'Léa Fontaine',
  tags: ['x', 'caching'],
  readingMinutes: 3,
  markdown,
  ...fields,
})
const ENTRIES = [
  entry('quotes', '# "Quoted" \\ back\\slash\n\n$\\frac{1}{2}$ `"code"` \u2028 \u2029 😀 ∑ x²\n'),
  entry('controls', 'tab\there, bell \u0007, nul \u0000, escape \u001b, delete \u007f, lone \ud800 surrogate\n'),
  entry('empty', ''),
  entry('long', `${'lorem "ipsum" \\ dolor é 🔬\n'.repeat(4000)}`, { image: '/images/x.png' }),
]

async function appOn(index: () => PostIndex) {
  return createApp({ ...(await testDeps()), posts: index })
}

async function build(entries: IndexEntry[]): Promise<PostIndex> {
  const dir = tempDir('mcp-articles')
  await writeIndexFile(dir, entries)
  return loadIndexFileSync(dir, 'https://research.example.org')
}

type App = Awaited<ReturnType<typeof appOn>>
const call = (name: string, args: object, meta?: object) => ({
  jsonrpc: '2.0',
  id: 3,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
})

/** get_post on 2025-11-25, answered directly and by the SDK (a `_meta` sends it there): both raw texts. */
async function getPost(app: App, slug: string): Promise<[string, string]> {
  const direct = await request(app).post('/mcp').set(MCP_HEADERS).send(call('get_post', { slug }))
  const viaSdk = await request(app)
    .post('/mcp')
    .set(MCP_HEADERS)
    .send(call('get_post', { slug }, {}))
  return [direct.text, viaSdk.text]
}

/** fetch on 2026-07-28, answered directly and by the SDK (a declared capability sends it there). */
async function fetchTool(app: App, id: string): Promise<[string, string]> {
  const headers = headersOf('tools/call', 'fetch')
  const direct = await request(app)
    .post('/mcp')
    .set(headers)
    .send(call('fetch', { id }, META))
  const withCapability = { ...META, 'io.modelcontextprotocol/clientCapabilities': { roots: {} } }
  const viaSdk = await request(app)
    .post('/mcp')
    .set(headers)
    .send(call('fetch', { id }, withCapability))
  return [direct.text, viaSdk.text]
}

type Result = { result: { content: Array<{ text: string }>; structuredContent: Record<string, unknown> } }

describe('article tool answers laid out from the build’s bytes', () => {
  it('are the SDK’s bytes, get_post the REST detail’s, for markdown with every escape', async () => {
    const index = await build(ENTRIES)
    const app = await appOn(() => index)
    for (const { slug } of ENTRIES) {
      const [direct, viaSdk] = await getPost(app, slug)
      expect(direct, slug).toBe(viaSdk)
      const rest = await request(app).get(`/api/v1/posts/${slug}`)
      expect(rest.status).toBe(200)
      const answer = JSON.parse(direct) as Result
      expect(answer.result.content[0]!.text, slug).toBe(rest.text)
      // The structured content is the REST body's very bytes, not only the same value.
      expect(direct, slug).toContain(`"structuredContent":${rest.text}}`)

      const [fetched, fetchedViaSdk] = await fetchTool(app, slug)
      expect(fetched, slug).toBe(fetchedViaSdk)
      const { slug: id, title, markdown, url, ...metadata } = JSON.parse(rest.text) as Record<string, unknown>
      const shape = JSON.stringify({ id, title, text: markdown, url, metadata })
      const modern = JSON.parse(fetched) as Result
      expect(modern.result.content[0]!.text, slug).toBe(shape)
      expect(fetched, slug).toContain(`"structuredContent":${shape},`)
    }
  })

  it('change when a rebuild changes the article, and refuse an article it removed', async () => {
    let current = await build(ENTRIES)
    const app = await appOn(() => current)
    const [before] = await getPost(app, 'quotes')
    const [fetchedBefore] = await fetchTool(app, 'quotes')
    current = await build([
      entry('quotes', '# Rewritten "again" \\ ∑\n', { title: 'A new title' }),
      ...ENTRIES.filter((e) => e.slug !== 'quotes' && e.slug !== 'empty'),
    ])
    const [after, afterViaSdk] = await getPost(app, 'quotes')
    expect(after).not.toBe(before)
    expect(after).toBe(afterViaSdk)
    const detail = (JSON.parse(after) as Result).result.structuredContent
    expect(detail).toMatchObject({ title: 'A new title', markdown: '# Rewritten "again" \\ ∑\n' })
    const [fetchedAfter, fetchedAfterViaSdk] = await fetchTool(app, 'quotes')
    expect(fetchedAfter).not.toBe(fetchedBefore)
    expect(fetchedAfter).toBe(fetchedAfterViaSdk)
    expect((JSON.parse(fetchedAfter) as Result).result.structuredContent).toMatchObject({
      id: 'quotes',
      title: 'A new title',
      text: '# Rewritten "again" \\ ∑\n',
    })
    const [gone, goneViaSdk] = await getPost(app, 'empty')
    expect(gone).toBe(goneViaSdk)
    expect(JSON.parse(gone)).toMatchObject({ result: { isError: true } })
    expect(gone).toContain('not_found')
  })
})
