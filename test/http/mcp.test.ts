import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from '@modelcontextprotocol/sdk/client/auth.js'
import fc from 'fast-check'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, type AppDeps } from '../../auth-service/app.ts'
import { createPostIndex } from '../../post-index/post-index-builder.ts'
import { DEFAULT_RATE_LIMITS, MCP_LIMITS } from '../../auth-service/defaults.ts'
import { ERROR_CODES } from '../../auth-service/errors.ts'
import type { IndexEntry } from '../../model/article.ts'
import { agentToken } from '../support/agent.ts'
import { testDeps } from '../support/index.ts'
import { expectFrame, loggedApp } from '../support/logged-app.ts'

const PROTOCOL = '2025-11-25'
const MCP_HEADERS = {
  Accept: 'application/json, text/event-stream',
  'Content-Type': 'application/json',
  'MCP-Protocol-Version': PROTOCOL,
}
const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })

/** The service on a real port, with BASE_URL that origin, as an MCP client reaches it. */
async function serve(overrides: Partial<AppDeps> = {}): Promise<{ base: string; server: Server; deps: AppDeps }> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const deps = { ...(await testDeps({ baseUrl: base })), ...overrides }
  server.on('request', createApp(deps))
  return { base, server, deps }
}

/** An SDK client over Streamable HTTP, connected (initialize and initialized) to `base`/mcp. */
async function connect(base: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'lattice-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }))
  return client
}

const rest = async (base: string, path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}${path}`, { headers })
  expect(res.status, path).toBe(200)
  return res.json()
}

describe('/mcp with the official SDK client', () => {
  let base: string
  let server: Server
  const clients: Client[] = []
  beforeAll(async () => {
    ;({ base, server } = await serve())
  })
  afterAll(async () => {
    for (const c of clients) await c.close()
    server.close()
  })
  const open = async (headers?: Record<string, string>) => {
    const c = await connect(base, headers)
    clients.push(c)
    return c
  }

  it('connects without a credential and answers each tool as the REST read does', async () => {
    const client = await open()
    expect(client.getServerVersion()).toMatchObject({ name: 'lattice-research' })
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} })

    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(['search', 'fetch', 'search_posts', 'get_post', 'list_posts'])
    for (const t of tools) expect(t.outputSchema?.type, t.name).toBe('object')
    expect(tools.find((t) => t.name === 'search_posts')!.inputSchema).toMatchObject({
      required: ['q'],
      properties: { q: { type: 'string' }, limit: { maximum: 50 } },
    })

    const search = await client.callTool({ name: 'search_posts', arguments: { q: 'hashing', limit: 5 } })
    expect(search.isError).toBeFalsy()
    expect(search.structuredContent).toEqual(await rest(base, '/api/v1/search?q=hashing&limit=5'))
    expect((search.structuredContent as { posts: unknown[] }).posts.length).toBeGreaterThan(0)
    expect(JSON.parse((search.content as Array<{ text: string }>)[0]!.text)).toEqual(search.structuredContent)

    const post = await client.callTool({ name: 'get_post', arguments: { slug: 'hashing-rings' } })
    expect(post.structuredContent).toEqual(await rest(base, '/api/v1/posts/hashing-rings'))
    expect((post.structuredContent as { markdown: string }).markdown.length).toBeGreaterThan(50)

    const list = await client.callTool({ name: 'list_posts', arguments: { limit: '2' } })
    expect(list.structuredContent).toEqual(await rest(base, '/api/v1/posts?limit=2'))
    expect((await client.callTool({ name: 'list_posts' })).structuredContent).toEqual(await rest(base, '/api/v1/posts'))

    // The REST list's paging and filters, through the same parsing: following next_cursor gives
    // what the REST pages give, and a tag filter the same selection.
    const listSchema = tools.find((t) => t.name === 'list_posts')!.inputSchema
    expect(Object.keys(listSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['limit', 'cursor', 'tag', 'author', 'updated_since']),
    )
    const first = (await client.callTool({ name: 'list_posts', arguments: { limit: 1 } })).structuredContent as {
      next_cursor: string | null
    }
    expect(first.next_cursor).toEqual(expect.any(String))
    const second = await client.callTool({ name: 'list_posts', arguments: { limit: 1, cursor: first.next_cursor } })
    expect(second.structuredContent).toEqual(
      await rest(base, `/api/v1/posts?limit=1&cursor=${encodeURIComponent(first.next_cursor!)}`),
    )
    const tagged = await client.callTool({ name: 'list_posts', arguments: { tag: 'distributed-systems' } })
    expect(tagged.structuredContent).toEqual(await rest(base, '/api/v1/posts?tag=distributed-systems'))
    const refused = await client.callTool({ name: 'list_posts', arguments: { cursor: 'not-a-cursor' } })
    expect(refused.isError).toBe(true)
  })

  it('offers every article as a text/markdown resource, and a template of their addresses', async () => {
    const client = await open()
    const { posts } = (await rest(base, '/api/v1/posts')) as {
      posts: Array<{ slug: string; markdown_url: string; title: string }>
    }
    const { resources, nextCursor } = await client.listResources()
    expect(nextCursor).toBeUndefined()
    expect(resources.map((r) => r.uri)).toEqual(posts.map((p) => p.markdown_url))
    expect(resources[0]).toMatchObject({ name: posts[0]!.slug, title: posts[0]!.title, mimeType: 'text/markdown' })

    const uri = `${base}/posts/hashing-rings.md`
    const read = await client.readResource({ uri })
    const { markdown } = (await rest(base, '/api/v1/posts/hashing-rings')) as { markdown: string }
    expect(read.contents).toEqual([{ uri, mimeType: 'text/markdown', text: markdown }])

    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: `${base}/posts/{slug}.md`, mimeType: 'text/markdown' }),
    ])

    await expect(client.readResource({ uri: `${base}/posts/no-such-post.md` })).rejects.toThrow(/Resource not found/)
    await expect(client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/Resource not found/)
  })

  it('refuses bad tool arguments as the REST read would, as tool errors the model can correct', async () => {
    const client = await open()
    const refused = async (name: string, args: Record<string, unknown>) => {
      const res = await client.callTool({ name, arguments: args })
      expect(res.isError, JSON.stringify(args)).toBe(true)
      return (res.content as Array<{ text: string }>)[0]!.text
    }
    expect(await refused('search_posts', { q: '   ' })).toMatch(/^invalid_request: "q" must not be blank/)
    expect(await refused('search_posts', {})).toMatch(/^invalid_request: .*"q" is required/)
    expect(await refused('list_posts', { limit: 0 })).toMatch(/"limit" must be an integer from 1 to 100/)
    expect(await refused('list_posts', { limit: 2.5 })).toMatch(/"limit" must be an integer/)
    expect(await refused('list_posts', { limit: { $gt: 1 } })).toMatch(/"limit" must be a string or a number/)
    expect(await refused('list_posts', { offset: 3 })).toMatch(/Unknown argument "offset"; list_posts takes limit/)
    expect(await refused('get_post', {})).toMatch(/"slug" is required/)
    expect(await refused('get_post', { slug: 'no-such-post' })).toMatch(/^not_found: /)
    expect(await refused('search_posts', { q: 'x'.repeat(500) })).toMatch(/at most 200 characters/)
    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(
      /Unknown tool "delete_everything"/,
    )
  })

  it('identifies a caller by API key, and by an access token issued for /mcp', async () => {
    const key = (await request(base).post('/api/v1/keys').send({})).body.key as string
    const byKey = await open({ Authorization: `Bearer ${key}` })
    const found = await byKey.callTool({ name: 'search_posts', arguments: { q: 'latency' } })
    expect(found.structuredContent).toEqual(await rest(base, '/api/v1/search?q=latency'))

    const { access_token } = await agentToken(base, { resource: `${base}/mcp` })
    const byToken = await open({ Authorization: `Bearer ${access_token}` })
    expect((await byToken.callTool({ name: 'get_post', arguments: { slug: 'hashing-rings' } })).isError).toBeFalsy()
    expect((await byToken.readResource({ uri: `${base}/posts/hashing-rings.md` })).contents).toHaveLength(1)
  })

  it('refuses a token for /api/v1 and an invalid bearer with a 401 naming /mcp’s metadata, which the SDK discovers', async () => {
    const prm = `${base}/.well-known/oauth-protected-resource/mcp`
    const { access_token: restToken } = await agentToken(base)
    for (const bearer of [restToken, 'forged-token']) {
      const failed = await connect(base, { Authorization: `Bearer ${bearer}` }).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(failed).toBeInstanceOf(StreamableHTTPError)
      expect((failed as StreamableHTTPError).code).toBe(401)

      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, Authorization: `Bearer ${bearer}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual(errorBody('invalid_token'))
      const challenge = extractWWWAuthenticateParams(res)
      expect(challenge.resourceMetadataUrl?.href).toBe(prm)
      expect(challenge.error).toBe('invalid_token')
    }

    // The SDK's own discovery, from the server URL alone (RFC 9728 path-inserted form first).
    const metadata = await discoverOAuthProtectedResourceMetadata(`${base}/mcp`)
    expect(metadata).toMatchObject({
      resource: `${base}/mcp`,
      authorization_servers: [base],
      scopes_supported: ['research.read', 'research.search'],
    })
    // And the authorization server's, which the SDK validates against its own schema.
    const asm = await discoverAuthorizationServerMetadata(metadata.authorization_servers![0]!)
    expect(asm).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth2/authorize`,
      token_endpoint: `${base}/oauth2/token`,
      registration_endpoint: `${base}/oauth2/register`,
      code_challenge_methods_supported: ['S256'],
    })
    // The REST API's metadata is unchanged.
    expect(await rest(base, '/.well-known/oauth-protected-resource')).toMatchObject({ resource: `${base}/api/v1` })
    expect(await rest(base, '/.well-known/oauth-protected-resource/api/v1')).toMatchObject({
      resource: `${base}/api/v1`,
    })
  })

  it('pages resources/list with the SDK’s cursor, newest first, each article once', async () => {
    const entries: IndexEntry[] = Array.from({ length: MCP_LIMITS.resourcesPerPage * 2 + 17 }, (_, i) => ({
      slug: `article-${i}`,
      title: `Article ${i}`,
      description: 'A generated article.',
      date: `2024-01-${String((i % 28) + 1).padStart(2, '0')}`,
      lastModified: '2024-02-01T00:00:00.000Z',
      author: 'Test',
      tags: [],
      readingMinutes: 1,
      markdown: `# Article ${i}\n`,
    }))
    const big = await serve()
    const index = createPostIndex(entries, big.base)
    big.deps.posts = () => index
    const bigServer = big.server
    try {
      // A fresh app on the same port serves the generated index.
      bigServer.removeAllListeners('request')
      bigServer.on('request', createApp(big.deps))
      const client = await connect(big.base)
      clients.push(client)
      const seen: string[] = []
      let cursor: string | undefined
      let pages = 0
      do {
        const page = await client.listResources(cursor === undefined ? {} : { cursor })
        expect(page.resources.length).toBeLessThanOrEqual(MCP_LIMITS.resourcesPerPage)
        seen.push(...page.resources.map((r) => r.name))
        cursor = page.nextCursor
        pages++
      } while (cursor !== undefined)
      expect(pages).toBe(3)
      const order = (
        JSON.parse(index.latest(index.size).body.toString()) as { posts: Array<{ slug: string }> }
      ).posts.map((p) => p.slug)
      expect(seen).toEqual(order)
      await expect(client.listResources({ cursor: 'not-a-cursor' })).rejects.toThrow(
        /cursor is not one this server gave/,
      )
    } finally {
      bigServer.close()
    }
  })
})

describe('/mcp refusals', () => {
  let app: ReturnType<typeof createApp>
  beforeAll(async () => {
    app = createApp(await testDeps())
  })
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    request(app)
      .post('/mcp')
      .set({ ...MCP_HEADERS, ...headers })
      .send(typeof body === 'string' ? body : JSON.stringify(body))
  const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_posts', arguments: { limit: 1 } } }

  it('answers a single message as JSON, never cached', async () => {
    const res = await post(call)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.body).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { structuredContent: { posts: [expect.any(Object)] } },
    })
    expect(res.headers['mcp-session-id']).toBeUndefined()
    const note = await post({ jsonrpc: '2.0', method: 'notifications/initialized' })
    expect(note.status).toBe(202)
  })

  it('answers a plain tools/call directly exactly as the SDK server does', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['get_post', { slug: 'hashing-rings' }],
      ['search_posts', { q: 'latency', limit: 2 }],
      ['list_posts', {}],
      ['list_posts', { limit: 'many' }],
      ['get_post', { slug: 'no-such-post' }],
      ['search_posts', { q: 'x', extra: true }],
      ['no_such_tool', {}],
    ]
    for (const [name, args] of calls) {
      const direct = await post({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name, arguments: args } })
      // _meta is not something the direct answer looks at: the message goes through the SDK's server.
      const viaSdk = await post({
        jsonrpc: '2.0',
        id: 'a',
        method: 'tools/call',
        params: { name, arguments: args, _meta: {} },
      })
      expect(direct.status, name).toBe(200)
      expect(direct.headers['content-type']).toMatch(/^application\/json/)
      expect(direct.body, `${name} ${JSON.stringify(args)}`).toEqual(viaSdk.body)
    }
  })

  it('refuses bad JSON, a batch, a scalar, another media type and an oversized body with a coded 4xx', async () => {
    // A body that is not one message is a JSON-RPC error (-32700, -32600), not the REST envelope.
    const bad = await post('{"jsonrpc": "2.0", ')
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } })
    const batch = await post([call, call])
    expect(batch.status).toBe(400)
    expect(batch.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
    expect(batch.body.error.message).toMatch(/batches/)
    const scalar = await post('42')
    expect(scalar.status).toBe(400)
    expect(scalar.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
    const text = await request(app)
      .post('/mcp')
      .set({ ...MCP_HEADERS, 'Content-Type': 'text/plain' })
      .send('hello')
    expect(text.status).toBe(415)
    expect(text.body).toEqual(errorBody('unsupported_media_type'))
    const huge = await post({ ...call, params: { name: 'search_posts', arguments: { q: 'x'.repeat(200_000) } } })
    expect(huge.status).toBe(413)
    expect(huge.body).toEqual(errorBody('payload_too_large'))
  })

  it('keeps the transport’s rules: Accept, MCP-Protocol-Version, and JSON-RPC errors for unknown methods', async () => {
    const noAccept = await post(call, { Accept: 'application/json' })
    expect(noAccept.status).toBe(406)
    const version = await post(call, { 'MCP-Protocol-Version': '1999-01-01' })
    expect(version.status).toBe(400)
    expect(version.body.error.message).toMatch(/Unsupported protocol version/)
    const unknown = await post({ jsonrpc: '2.0', id: 2, method: 'admin/shutdown' })
    expect(unknown.status).toBe(200)
    expect(unknown.body).toMatchObject({ id: 2, error: { code: -32601 } })
    const invalid = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: {} } })
    expect(invalid.body).toMatchObject({ id: 3, error: { code: -32602 } })
  })

  it('refuses a web page of another origin (DNS rebinding) and accepts its own', async () => {
    const foreign = await post(call, { Origin: 'http://evil.example' })
    expect(foreign.status).toBe(403)
    expect(foreign.body).toEqual(errorBody('invalid_origin'))
    expect((await post(call, { Origin: 'null' })).status).toBe(403)
    expect((await post(call, { Origin: 'https://research.example.org' })).status).toBe(200)
  })

  it('answers GET and DELETE with 405 and the table’s Allow: no sessions, no stream to open', async () => {
    for (const method of ['get', 'delete'] as const) {
      const res = await request(app)[method]('/mcp').set(MCP_HEADERS)
      expect(res.status, method).toBe(405)
      expect(res.headers.allow).toBe('POST')
      expect(res.body).toEqual(errorBody('method_not_allowed'))
    }
  })

  it('checks the scope a message needs: a token without research.search may read but not search', async () => {
    const { access_token } = await agentToken(app, {
      resource: 'https://research.example.org/mcp',
      scope: 'research.read',
    })
    const auth = { Authorization: `Bearer ${access_token}` }
    const read = await post(call, auth)
    expect(read.status).toBe(200)
    expect(read.headers['cache-control']).toBe('private, no-cache')
    const search = await post({ ...call, params: { name: 'search_posts', arguments: { q: 'hashing' } } }, auth)
    expect(search.status).toBe(403)
    expect(search.body).toEqual(errorBody('insufficient_scope'))
    expect(search.headers['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="research.search", resource_metadata="https://research.example.org/.well-known/oauth-protected-resource/mcp"',
    )
  })

  it('draws every message on the read budget, per client, with the RateLimit headers', async () => {
    const limited = createApp({
      ...(await testDeps()),
      rateLimits: { ...DEFAULT_RATE_LIMITS, anonymousReadsPerMinute: 3 },
    })
    const send = () => request(limited).post('/mcp').set(MCP_HEADERS).send(JSON.stringify(call))
    for (let i = 0; i < 3; i++) {
      const ok = await send()
      expect(ok.status).toBe(200)
      expect(ok.headers['ratelimit-policy']).toBe('"reads"; q=3; w=60')
    }
    const refused = await send()
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual(errorBody('rate_limited'))
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    // The REST reads share the same budget.
    expect((await request(limited).get('/api/v1/posts')).status).toBe(429)
  })

  it('never answers 5xx to generated messages, and explains every refusal with a code', async () => {
    const fuzzed = createApp({
      ...(await testDeps()),
      rateLimits: { ...DEFAULT_RATE_LIMITS, anonymousReadsPerMinute: 1e6 },
    })
    const known = new Set<string>(ERROR_CODES)
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.json().map((j) => JSON.parse(j) as unknown),
    )
    const message = fc.oneof(
      fc.json(),
      fc.string(),
      fc
        .record(
          {
            jsonrpc: fc.oneof(fc.constant('2.0'), fc.string()),
            id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double()),
            method: fc.oneof(
              fc.constantFrom(
                'tools/call',
                'tools/list',
                'resources/list',
                'resources/read',
                'resources/templates/list',
                'initialize',
                'ping',
              ),
              fc.string(),
            ),
            params: fc.oneof(
              value,
              fc.record(
                {
                  name: fc.oneof(fc.constantFrom('get_post', 'search_posts', 'list_posts'), fc.string()),
                  arguments: fc.oneof(
                    value,
                    fc.dictionary(fc.constantFrom('q', 'slug', 'limit', 'cursor', '__proto__', 'x'), value),
                  ),
                  uri: fc.oneof(
                    fc.string(),
                    fc.constantFrom('https://research.example.org/posts/hashing-rings.md', 'file:///etc/passwd'),
                  ),
                  cursor: value,
                },
                { requiredKeys: [] },
              ),
            ),
          },
          { requiredKeys: ['jsonrpc'] },
        )
        .map((m) => JSON.stringify(m)),
    )
    const headers = fc.record(
      {
        Accept: fc.constantFrom('application/json, text/event-stream', 'application/json', '*/*'),
        'Content-Type': fc.constantFrom(
          'application/json',
          'application/json; charset=latin1',
          'text/plain',
          'application/x-www-form-urlencoded',
        ),
        'MCP-Protocol-Version': fc.constantFrom('2025-11-25', '2025-06-18', '1.0', ''),
        Authorization: fc.constantFrom('Bearer forged', 'Basic eDp5', 'Bearer lat_live_x'),
        Origin: fc.constantFrom('http://evil.example', 'https://research.example.org', 'null'),
      },
      { requiredKeys: [] },
    )
    await fc.assert(
      fc.asyncProperty(message, headers, async (body, set) => {
        const res = await request(fuzzed).post('/mcp').set(set).send(body)
        expect(res.status, body).toBeLessThan(500)
        if (res.status < 400) return
        expect(res.headers['content-type'], body).toMatch(/^application\/json/)
        // The service's own refusals carry a code; the transport's are JSON-RPC errors.
        const refusal = res.body as { error?: unknown }
        if (typeof refusal.error === 'string') expect(known.has(refusal.error), JSON.stringify(refusal)).toBe(true)
        else
          expect(refusal.error, JSON.stringify(refusal)).toMatchObject({
            code: expect.any(Number),
            message: expect.any(String),
          })
      }),
      { numRuns: 200 },
    )
  }, 120_000)

  it('answers a failure inside a read without its details', async () => {
    const errors: unknown[] = []
    const broken = createApp({
      ...(await testDeps()),
      posts: () => {
        throw new Error('secret internal detail')
      },
      logError: (e) => errors.push(e),
    })
    const res = await request(broken).post('/mcp').set(MCP_HEADERS).send(JSON.stringify(call))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: 7,
      error: { code: -32603, message: 'The server failed to answer; retry with backoff.' },
    })
    expect(JSON.stringify(res.body)).not.toContain('secret')
    expect(errors).toHaveLength(1)
  })
})

describe('the /mcp row of the pipeline', () => {
  const tool = (name: string, args: unknown, extra: object = {}) => ({
    jsonrpc: '2.0',
    id: 9,
    method: 'tools/call',
    params: { name, arguments: args, ...extra },
  })

  it('answers every message in full through the pipeline, with its frame, log line and metric', async () => {
    const { app: chain, logs } = await loggedApp()
    const key = (await request(chain).post('/api/v1/keys')).body.key as string
    const mcpToken = (await agentToken(chain, { resource: 'https://research.example.org/mcp' })).access_token
    const narrow = (await agentToken(chain, { resource: 'https://research.example.org/mcp', scope: 'research.read' }))
      .access_token
    const restToken = (await agentToken(chain)).access_token

    const cases: Array<[unknown, Record<string, string>, number]> = [
      [tool('get_post', { slug: 'hashing-rings' }), {}, 200],
      [tool('search_posts', { q: 'latency', limit: 3 }), { Authorization: `Bearer ${key}` }, 200],
      [tool('list_posts', { limit: 2 }), { Authorization: `Bearer ${mcpToken}` }, 200],
      [tool('list_posts', undefined), { Origin: 'https://research.example.org' }, 200],
      [tool('get_post', { slug: 'no-such-post' }), {}, 200],
      [tool('list_posts', { limit: 0 }), {}, 200],
      [tool('search_posts', { q: 'latency' }), { Authorization: `Bearer ${narrow}` }, 403],
      [tool('get_post', { slug: 'hashing-rings' }), { Authorization: `Bearer ${restToken}` }, 401],
      [tool('get_post', { slug: 'hashing-rings' }), { Authorization: 'Bearer forged' }, 401],
      [tool('get_post', { slug: 'hashing-rings' }), { Origin: 'http://evil.example' }, 403],
      [tool('get_post', { slug: 'hashing-rings' }), { 'MCP-Protocol-Version': '1999-01-01' }, 400],
      [tool('get_post', { slug: 'hashing-rings' }), { Accept: 'application/json' }, 406],
      [tool('get_post', { slug: 'hashing-rings' }, { _meta: {} }), {}, 200],
      [tool('get_post', 'hashing-rings'), {}, 200], // malformed params: -32602 in words, answered directly
      [tool('no_such_tool', {}), {}, 200],
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, 200],
      [[tool('get_post', { slug: 'hashing-rings' })], {}, 400],
      ['{"jsonrpc": "2.0", ', {}, 400],
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_post', arguments: { slug: 'x'.repeat(100_000) } },
        },
        {},
        413,
      ],
    ]
    for (const [message, headers, status] of cases) {
      const label = `${JSON.stringify(message).slice(0, 120)} ${JSON.stringify(headers).slice(0, 80)}`
      const lines = logs.length
      const res = await request(chain)
        .post('/mcp')
        .set({ ...MCP_HEADERS, ...headers, 'X-Request-Id': 'mcp-case' })
        .send(typeof message === 'string' ? message : JSON.stringify(message))
      expect(res.status, label).toBe(status)
      expectFrame(res, label, 'mcp-case')
      expect(logs.length, label).toBe(lines + 1)
      expect(JSON.parse(logs.at(-1)!).res.statusCode, label).toBe(status)
    }
    const metrics = (await request(chain).get('/metrics')).text
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/mcp",status_code="200"\} [1-9]/,
    )
  })
})
