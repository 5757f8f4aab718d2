import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { fastPathPair, headersOf as comparedHeaders } from '../support/fast-path-pair.ts'
import { testDeps } from '../support/index.ts'
import { base64Name, headersOf, message, META, META_VERSION } from '../support/mcp-2026.ts'

describe('the direct answer of a 2026-07-28 tools/call', () => {
  const calls: Array<[string, Record<string, unknown>]> = [
    ['fetch', { id: 'hashing-rings' }],
    ['search', { query: 'latency' }],
    ['get_post', { slug: 'hashing-rings' }],
    ['search_posts', { q: 'latency', limit: 2 }],
    ['list_posts', {}],
    ['list_posts', { limit: 'many' }],
    ['fetch', { id: 'no-such-post' }],
  ]
  const post = (app: ReturnType<typeof createApp>, body: unknown, headers: Record<string, string>) =>
    request(app).post('/mcp').set(headers).send(JSON.stringify(body))

  it('writes the bytes the SDK writes', async () => {
    const app = createApp(await testDeps())
    for (const [name, args] of calls) {
      const direct = await post(app, message('tools/call', { name, arguments: args }), headersOf('tools/call', name))
      // A declared client capability is the SDK's to read: this call goes through the SDK.
      const viaSdk = await post(
        app,
        {
          ...message('tools/call', { name, arguments: args }),
          params: {
            name,
            arguments: args,
            _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { roots: {} } },
          },
        },
        headersOf('tools/call', name),
      )
      expect(viaSdk.status, name).toBe(200)
      expect(direct.text, `${name} ${JSON.stringify(args)}`).toBe(viaSdk.text)
      expect(direct.headers['content-type']).toBe(viaSdk.headers['content-type'])
    }
  })

  it('answers exactly as the chain, and steps aside for what only the SDK may judge', async () => {
    const { fast, chain, reachedChain } = await fastPathPair()
    const call = message('tools/call', { name: 'fetch', arguments: { id: 'hashing-rings' } })
    const plain = headersOf('tools/call', 'fetch')
    const withMeta = (meta: Record<string, unknown>) => ({ ...call, params: { ...call.params, _meta: meta } })
    const cases: Array<[unknown, Record<string, string>, 'fast' | 'chain']> = [
      [call, plain, 'fast'],
      [
        message('tools/call', { name: 'search', arguments: { query: 'hashing' } }),
        headersOf('tools/call', 'search'),
        'fast',
      ],
      [message('tools/call', { name: 'fetch', arguments: { id: 'nope' } }), plain, 'fast'],
      [call, headersOf('tools/call', base64Name('fetch')), 'chain'],
      [call, headersOf('tools/call', 'get_post'), 'chain'],
      [call, headersOf('tools/call'), 'chain'],
      [call, { ...plain, 'Mcp-Method': 'tools/list' }, 'chain'],
      [call, { ...plain, 'Mcp-Param-Region': 'x' }, 'chain'],
      [call, { ...plain, 'MCP-Protocol-Version': '2025-11-25' }, 'chain'],
      [withMeta({ ...META, extra: 1 }), plain, 'chain'],
      [withMeta({ ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }), plain, 'chain'],
      [withMeta({ ...META, 'io.modelcontextprotocol/clientInfo': { name: 'x' } }), plain, 'chain'],
      [withMeta({ ...META, 'io.modelcontextprotocol/clientInfo': { name: 'x', version: 1 } }), plain, 'chain'],
      [{ ...call, extra: true }, plain, 'chain'],
      [
        message('tools/call', { name: 'no_such_tool', arguments: {} }),
        headersOf('tools/call', 'no_such_tool'),
        'chain',
      ],
    ]
    for (const [body, headers, answerer] of cases) {
      const before = reachedChain.length
      const [a, b] = [await post(fast, body, headers), await post(chain, body, headers)]
      const label = `${JSON.stringify(body).slice(0, 160)} ${JSON.stringify(headers)}`
      expect(a.status, label).toBe(b.status)
      expect(a.text, label).toBe(b.text)
      expect(comparedHeaders(a), label).toEqual(comparedHeaders(b))
      expect(reachedChain.length > before ? 'chain' : 'fast', label).toBe(answerer)
    }
  })
})

describe('refusals of 2026-07-28 requests', () => {
  it('are answered, never logged as the service’s failures', async () => {
    const { chain, logs } = await fastPathPair()
    const bad: Array<[unknown, Record<string, string>]> = [
      [message('admin/shutdown'), headersOf('admin/shutdown')],
      [message('tools/call', { name: 'fetch', arguments: { id: 'x' } }), headersOf('tools/call', 'search')],
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { nonsense: true } } }, headersOf('tools/list')],
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { ...META, [META_VERSION]: '2099-01-01' } } },
        { ...headersOf('tools/list'), 'MCP-Protocol-Version': '2099-01-01' },
      ],
      [message('tools/call', { arguments: {} }), headersOf('tools/call')],
      [message('resources/read', { uri: 'file:///etc/passwd' }), headersOf('resources/read', 'file:///etc/passwd')],
    ]
    for (const [body, headers] of bad) {
      const res = await request(chain).post('/mcp').set(headers).send(JSON.stringify(body))
      expect(res.status, JSON.stringify(body)).toBeLessThan(500)
      expect(res.body.error, JSON.stringify(body)).toBeDefined()
    }
    const failures = logs.chain.map((l) => JSON.parse(l) as { level: number }).filter((l) => l.level >= 50)
    expect(failures).toEqual([])
  })
})
