import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { expectFrame, loggedApp } from '../support/logged-app.ts'
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

  it('answers each through the one pipeline, the SDK judging what only it may', async () => {
    const { app, logs } = await loggedApp()
    const call = message('tools/call', { name: 'fetch', arguments: { id: 'hashing-rings' } })
    const plain = headersOf('tools/call', 'fetch')
    const withMeta = (meta: Record<string, unknown>) => ({ ...call, params: { ...call.params, _meta: meta } })
    const cases: Array<[unknown, Record<string, string>, number]> = [
      [call, plain, 200],
      [
        message('tools/call', { name: 'search', arguments: { query: 'hashing' } }),
        headersOf('tools/call', 'search'),
        200,
      ],
      [message('tools/call', { name: 'fetch', arguments: { id: 'nope' } }), plain, 200],
      [call, headersOf('tools/call', base64Name('fetch')), 200],
      [call, headersOf('tools/call', 'get_post'), 400],
      [call, headersOf('tools/call'), 400],
      [call, { ...plain, 'Mcp-Method': 'tools/list' }, 400],
      [call, { ...plain, 'Mcp-Param-Region': 'x' }, 200],
      [call, { ...plain, 'MCP-Protocol-Version': '2025-11-25' }, 400],
      [withMeta({ ...META, extra: 1 }), plain, 200],
      [withMeta({ ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }), plain, 400],
      [withMeta({ ...META, 'io.modelcontextprotocol/clientInfo': { name: 'x' } }), plain, 400],
      [withMeta({ ...META, 'io.modelcontextprotocol/clientInfo': { name: 'x', version: 1 } }), plain, 400],
      [{ ...call, extra: true }, plain, 400],
      [message('tools/call', { name: 'no_such_tool', arguments: {} }), headersOf('tools/call', 'no_such_tool'), 200],
    ]
    const linesOf = (msg: string) => logs.filter((l) => JSON.parse(l).msg === msg).length
    for (const [body, headers, status] of cases) {
      const label = `${JSON.stringify(body).slice(0, 160)} ${JSON.stringify(headers)}`
      const [lines, refusals] = [linesOf('request completed'), linesOf('request refused')]
      const res = await post(app, body, { ...headers, 'X-Request-Id': 'mcp-2026' })
      expect(res.status, label).toBe(status)
      expect(res.headers['content-type'], label).toMatch(/^application\/json/)
      expectFrame(res, label, 'mcp-2026')
      expect(linesOf('request completed'), label).toBe(lines + 1)
      // What the SDK refuses is noted once more, as a refusal with its code.
      expect(linesOf('request refused') - refusals, label).toBe(status === 400 ? 1 : 0)
    }
  })
})

describe('refusals of 2026-07-28 requests', () => {
  it('are answered, never logged as the service’s failures', async () => {
    const { app: chain, logs } = await loggedApp()
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
    const failures = logs.map((l) => JSON.parse(l) as { level: number }).filter((l) => l.level >= 50)
    expect(failures).toEqual([])
  })
})
