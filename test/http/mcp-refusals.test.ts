import fc from 'fast-check'
import request from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { DEFAULT_RATE_LIMITS } from '../../auth-service/defaults.ts'
import { ERROR_CODES } from '../../auth-service/errors.ts'
import { agentToken } from '../support/agent.ts'
import { testDeps } from '../support/index.ts'
import { errorBody, MCP_HEADERS, poster } from '../support/mcp-2025.ts'

describe('/mcp refusals', () => {
  let app: ReturnType<typeof createApp>
  let post: ReturnType<typeof poster>
  beforeAll(async () => {
    app = createApp(await testDeps())
    post = poster(app)
  })
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
    const metadata = 'https://research.example.org/.well-known/oauth-protected-resource/mcp'
    expect(search.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_scope", scope="research.search", resource_metadata="${metadata}"`,
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
