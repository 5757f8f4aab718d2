import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { agentToken } from '../support/agent.ts'
import { expectFrame, loggedApp } from '../support/logged-app.ts'
import { poster, tool } from '../support/mcp-2025.ts'

describe('the /mcp row of the pipeline', () => {
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
      const res = await poster(chain)(message, { ...headers, 'X-Request-Id': 'mcp-case' })
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
