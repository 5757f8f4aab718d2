import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from '@modelcontextprotocol/sdk/client/auth.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Server } from 'node:http'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { MCP_LIMITS } from '../../auth-service/defaults.ts'
import type { IndexEntry, PostDetail } from '../../model/article.ts'
import { markdownTwin } from '../../model/markdown-twin.ts'
import { createPostIndex } from '../../post-index/post-index-builder.ts'
import { agentToken } from '../support/agent.ts'
import { connect, errorBody, MCP_HEADERS, rest, serve } from '../support/mcp-2025.ts'

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
    const { markdown, ...post } = (await rest(base, '/api/v1/posts/hashing-rings')) as PostDetail
    // The markdown twin: the article's metadata over the body (test/http/mcp-markdown-twin.test.ts).
    expect(read.contents).toEqual([{ uri, mimeType: 'text/markdown', text: markdownTwin(post, markdown) }])
    const { text } = read.contents[0] as { text: string }
    expect(text).toContain(`# ${post.title}\n`)
    expect(text).toContain(`\n- Author: ${post.authors[0]!.name}`)

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

  it(
    'refuses a token for /api/v1 and an invalid bearer with a 401 naming /mcp’s metadata, ' + 'which the SDK discovers',
    async () => {
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
    },
  )

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
