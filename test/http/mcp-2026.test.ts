import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { MCP_LIMITS } from '../../auth-service/defaults.ts'
import { testDeps } from '../support/index.ts'
import { base64Name, callTool, headersOf, message, META, V } from '../support/mcp-2026.ts'

describe('/mcp on protocol 2026-07-28, raw JSON-RPC', () => {
  let app: ReturnType<typeof createApp>
  beforeAll(async () => {
    app = createApp(await testDeps())
  })
  const post = (body: unknown, headers: Record<string, string>) =>
    request(app)
      .post('/mcp')
      .set(headers)
      .send(typeof body === 'string' ? body : JSON.stringify(body))
  const send = (method: string, params: Record<string, unknown> = {}, name?: string) =>
    post(message(method, params), headersOf(method, name))

  it('answers server/discover with the versions, capabilities, server info and a cache hint', async () => {
    const res = await send('server/discover')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        resultType: 'complete',
        supportedVersions: [V],
        capabilities: { tools: {}, resources: {} },
        instructions: expect.stringMatching(/rebuilt/),
        ttlMs: MCP_LIMITS.cacheTtlMs,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': expect.objectContaining({ name: 'lattice-research' }) },
      },
    })
  })

  it('needs no initialize: tools/list and tools/call answer at once, in the 2026 result shape', async () => {
    const list = await send('tools/list')
    expect(list.status).toBe(200)
    const names = list.body.result.tools.map((t: { name: string }) => t.name)
    expect(names).toEqual(['search', 'fetch', 'search_posts', 'get_post', 'list_posts'])
    expect(list.body.result).toMatchObject({
      resultType: 'complete',
      ttlMs: MCP_LIMITS.cacheTtlMs,
      cacheScope: 'public',
    })
    for (const tool of list.body.result.tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false })
      expect(tool.inputSchema.type).toBe('object')
      expect(tool.outputSchema.type).toBe('object')
    }
    // Stable: the same order on every call.
    expect((await send('tools/list')).body.result.tools.map((t: { name: string }) => t.name)).toEqual(names)

    const call = await send('tools/call', { name: 'get_post', arguments: { slug: 'hashing-rings' } }, 'get_post')
    expect(call.status).toBe(200)
    expect(call.body.result).toMatchObject({
      resultType: 'complete',
      structuredContent: { slug: 'hashing-rings' },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'lattice-research' } },
    })
    expect(call.body.result.ttlMs).toBeUndefined() // tools/call is not a cacheable result
  })

  it('reads a resource with its cache hint, the Mcp-Name being the URI', async () => {
    const uri = 'https://research.example.org/posts/hashing-rings.md'
    const res = await send('resources/read', { uri }, uri)
    expect(res.status).toBe(200)
    expect(res.body.result).toMatchObject({
      resultType: 'complete',
      ttlMs: MCP_LIMITS.cacheTtlMs,
      cacheScope: 'public',
      contents: [{ uri, mimeType: 'text/markdown', text: expect.any(String) }],
    })
  })

  it('accepts a base64 Mcp-Name and refuses a header that disagrees with the body (-32020)', async () => {
    const args = { name: 'get_post', arguments: { slug: 'hashing-rings' } }
    const encoded = await send('tools/call', args, base64Name('get_post'))
    expect(encoded.status).toBe(200)
    expect(encoded.body.result.structuredContent.slug).toBe('hashing-rings')

    const wrongName = await send('tools/call', args, 'list_posts')
    expect(wrongName.status).toBe(400)
    expect(wrongName.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32020 } })
    const wrongEncoded = await send('tools/call', args, base64Name('list_posts'))
    expect(wrongEncoded.body.error.code).toBe(-32020)
    const badSentinel = await send('tools/call', args, '=?base64?%%%?=')
    expect(badSentinel.status).toBe(400)
    expect(badSentinel.body.error.code).toBe(-32020)
    const wrongMethod = await post(message('tools/list'), headersOf('tools/call', 'get_post'))
    expect(wrongMethod.status).toBe(400)
    expect(wrongMethod.body.error.code).toBe(-32020)
    const missingName = await send('tools/call', args)
    expect(missingName.status).toBe(400)
    expect(missingName.body.error.code).toBe(-32020)
  })

  it('answers an unknown method with 404 and -32601', async () => {
    const res = await send('admin/shutdown')
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32601 } })
  })

  it('refuses an unsupported version with -32022 naming the supported ones', async () => {
    const meta = { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }
    const res = await post(
      { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: meta } },
      { ...headersOf('tools/list'), 'MCP-Protocol-Version': '2099-01-01' },
    )
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ id: 4, error: { code: -32022, data: { supported: expect.arrayContaining([V]) } } })
  })

  it('validates the per-request _meta: a missing or malformed envelope is -32602', async () => {
    const noMeta = await post({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} }, headersOf('tools/list'))
    expect(noMeta.status).toBe(400)
    expect(noMeta.body.error.code).toBe(-32602)
    const badInfo = await post(
      {
        jsonrpc: '2.0',
        id: 6,
        method: 'tools/list',
        params: { _meta: { ...META, 'io.modelcontextprotocol/clientInfo': 'me' } },
      },
      headersOf('tools/list'),
    )
    expect(badInfo.body.error.code).toBe(-32602)
  })

  it('answers bad arguments with -32602, and a refusal of a tool’s arguments as a tool error', async () => {
    const noName = await send('tools/call', { arguments: {} })
    expect(noName.body.error.code).toBe(-32602)
    const unknownTool = await send('tools/call', { name: 'no_such_tool', arguments: {} }, 'no_such_tool')
    expect(unknownTool.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/the tools are/) })
    const badUri = 'file:///etc/passwd'
    // A resource that does not exist is invalid params on 2026-07-28 (Server, Resources, Error Handling).
    const notFound = await send('resources/read', { uri: badUri }, badUri)
    expect(notFound.body.error.code).toBe(-32602)
    const refused = await send('tools/call', { name: 'list_posts', arguments: { limit: 'many' } }, 'list_posts')
    expect(refused.status).toBe(200)
    expect(refused.body.result).toMatchObject({ isError: true, resultType: 'complete' })
  })

  it('answers malformed bodies as JSON-RPC: -32700 for bad JSON, -32600 for a batch or a scalar', async () => {
    const bad = await post('{"jsonrpc":', headersOf('tools/list'))
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } })
    const batch = await post([message('tools/list'), message('tools/list', {}, 2)], headersOf('tools/list'))
    expect(batch.status).toBe(400)
    expect(batch.body.error.code).toBe(-32600)
    expect((await post('"hello"', headersOf('tools/list'))).body.error.code).toBe(-32600)
  })

  it('keeps 2025-11-25 on the same URL: initialize, then the 2025 result shape', async () => {
    const legacy = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' }
    const init = await post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
      },
      legacy,
    )
    expect(init.status).toBe(200)
    expect(init.body.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'lattice-research' } })
    const list = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { ...legacy, 'MCP-Protocol-Version': '2025-11-25' },
    )
    expect(list.body.result.resultType).toBeUndefined()
    expect(list.body.result.tools.length).toBe(5)
  })
})

describe('the search and fetch tools (the shape of ChatGPT connectors)', () => {
  let app: ReturnType<typeof createApp>
  beforeAll(async () => {
    app = createApp(await testDeps())
  })
  const call = (name: string, args: Record<string, unknown>) => callTool(app, name, args)

  it('search ranks as /api/v1/search and gives id, title and url', async () => {
    const rest = (await request(app).get('/api/v1/search?q=latency%20hashing%20search')).body as {
      posts: Array<{ slug: string; title: string; url: string }>
    }
    expect(rest.posts.length).toBeGreaterThan(0)
    const result = await call('search', { query: 'latency hashing search' })
    expect(result.structuredContent).toEqual({
      results: rest.posts.map((p) => ({ id: p.slug, title: p.title, url: p.url })),
    })
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent)
    expect((await call('search', { query: 'zzzqqqxxnothing' })).structuredContent).toEqual({ results: [] })
  })

  it('fetch gives the text, the url and the other fields as metadata', async () => {
    const rest = (await request(app).get('/api/v1/posts/hashing-rings')).body as Record<string, unknown>
    const { slug, title, markdown, url, ...metadata } = rest
    const result = await call('fetch', { id: 'hashing-rings' })
    expect(result.structuredContent).toEqual({ id: slug, title, text: markdown, url, metadata })
    expect(metadata).toMatchObject({ date: expect.any(String), author: expect.any(String), tags: expect.any(Array) })
    const missing = await call('fetch', { id: 'no-such-post' })
    expect(missing).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^not_found: /) }] })
    // An id that is not a slug reaches nothing: the REST read refuses it the same way.
    expect(await call('fetch', { id: '../../etc/passwd' })).toMatchObject({ isError: true })
  })
})
