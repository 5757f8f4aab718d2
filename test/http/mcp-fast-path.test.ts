import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { agentToken } from '../support/agent.ts'
import { fastPathPair, headersOf } from '../support/fast-path-pair.ts'
import { MCP_HEADERS } from '../support/mcp-messages.ts'

describe('the /mcp fast path', () => {
  const pair = fastPathPair
  const tool = (name: string, args: unknown, extra: object = {}) => ({
    jsonrpc: '2.0',
    id: 9,
    method: 'tools/call',
    params: { name, arguments: args, ...extra },
  })

  it('answers exactly as the chain, and answers every plain tool call itself', async () => {
    const { fast, chain, reachedChain, logs } = await pair()
    const key = (await request(chain).post('/api/v1/keys')).body.key as string
    const mcpToken = (await agentToken(chain, { resource: 'https://research.example.org/mcp' })).access_token
    const narrow = (await agentToken(chain, { resource: 'https://research.example.org/mcp', scope: 'research.read' }))
      .access_token
    const restToken = (await agentToken(chain)).access_token

    const cases: Array<[unknown, Record<string, string>, 'fast' | 'chain']> = [
      [tool('get_post', { slug: 'hashing-rings' }), {}, 'fast'],
      [tool('search_posts', { q: 'latency', limit: 3 }), { Authorization: `Bearer ${key}` }, 'fast'],
      [tool('list_posts', { limit: 2 }), { Authorization: `Bearer ${mcpToken}` }, 'fast'],
      [tool('list_posts', undefined), { Origin: 'https://research.example.org' }, 'fast'],
      [tool('get_post', { slug: 'no-such-post' }), {}, 'fast'],
      [tool('list_posts', { limit: 0 }), {}, 'fast'],
      [tool('search_posts', { q: 'latency' }), { Authorization: `Bearer ${narrow}` }, 'chain'],
      [tool('get_post', { slug: 'hashing-rings' }), { Authorization: `Bearer ${restToken}` }, 'chain'],
      [tool('get_post', { slug: 'hashing-rings' }), { Authorization: 'Bearer forged' }, 'chain'],
      [tool('get_post', { slug: 'hashing-rings' }), { Origin: 'http://evil.example' }, 'chain'],
      [tool('get_post', { slug: 'hashing-rings' }), { 'MCP-Protocol-Version': '1999-01-01' }, 'chain'],
      [tool('get_post', { slug: 'hashing-rings' }), { Accept: 'application/json' }, 'chain'],
      [tool('get_post', { slug: 'hashing-rings' }, { _meta: {} }), {}, 'chain'],
      [tool('get_post', 'hashing-rings'), {}, 'fast'], // malformed params: -32602 in words, answered directly
      [tool('no_such_tool', {}), {}, 'chain'],
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, 'chain'],
      [[tool('get_post', { slug: 'hashing-rings' })], {}, 'chain'],
      ['{"jsonrpc": "2.0", ', {}, 'chain'],
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_post', arguments: { slug: 'x'.repeat(100_000) } },
        },
        {},
        'chain',
      ],
    ]
    for (const [message, headers, answerer] of cases) {
      const before = reachedChain.length
      const send = (app: typeof fast) =>
        request(app)
          .post('/mcp')
          .set({ ...MCP_HEADERS, ...headers })
          .send(typeof message === 'string' ? message : JSON.stringify(message))
      const [a, b] = [await send(fast), await send(chain)]
      const label = `${JSON.stringify(message).slice(0, 120)} ${JSON.stringify(headers).slice(0, 80)}`
      expect(a.status, label).toBe(b.status)
      expect(a.text, label).toBe(b.text)
      expect(headersOf(a), label).toEqual(headersOf(b))
      expect(reachedChain.length > before ? 'chain' : 'fast', label).toBe(answerer)
    }
    const shape = (line: string) => {
      const { level, msg, req, res } = JSON.parse(line)
      return { level, msg, req: { ...req, id: undefined, remoteAddress: undefined }, res }
    }
    await request(fast)
      .post('/mcp')
      .set(MCP_HEADERS)
      .send(JSON.stringify(tool('list_posts', {})))
    await request(chain)
      .post('/mcp')
      .set(MCP_HEADERS)
      .send(JSON.stringify(tool('list_posts', {})))
    expect(shape(logs.fast.at(-1)!)).toEqual(shape(logs.chain.at(-1)!))
    const metrics = (await request(fast).get('/metrics')).text
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/mcp",status_code="200"\} [1-9]/,
    )
  })
})
