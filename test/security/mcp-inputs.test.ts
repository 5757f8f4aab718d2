/**
 * Tool calls with bad input, over raw JSON-RPC, through the one pipeline.
 * MCP 2025-11-25 (Tools, Error Handling): a call that fails CallToolRequest's schema is a protocol
 * error, -32602 with a message a client can act on (never a validator dump or -32603); an
 * argument the tool refuses is a tool execution error (isError) the model can correct.
 */
import { Writable } from 'node:stream'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { createLogger } from '../../auth-service/ops/logger.ts'
import { testDeps } from '../support/index.ts'

const deps = await testDeps()
const apps = { pipeline: createApp(deps) }

const call = (app: (typeof apps)['pipeline'], params: unknown) =>
  request(app)
    .post('/mcp')
    .set('Accept', 'application/json, text/event-stream')
    .set('Content-Type', 'application/json')
    .send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params })

describe.each(Object.keys(apps) as Array<keyof typeof apps>)('bad tool calls, answered by the %s', (which) => {
  const app = apps[which]

  it.each([
    ['arguments that are a string', { name: 'get_post', arguments: 'x' }, /"arguments" of get_post must be an object/],
    [
      'arguments that are an array',
      { name: 'list_posts', arguments: [1] },
      /"arguments" of list_posts must be an object/,
    ],
    ['a name that is a number', { name: 5 }, /"name" must be the name of a tool.*search_posts/],
    ['no name', { arguments: {} }, /"name" must be the name of a tool/],
    ['params that are a string', 'get_post', /"params" must be an object/],
    ['no params', undefined, /"params" must be an object/],
    ['an unknown tool', { name: 'drop_tables', arguments: {} }, /Unknown tool "drop_tables"; the tools are/],
  ])('answers %s with -32602 and a readable message', async (_name, params, message) => {
    const res = await call(app, params)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: expect.stringMatching(message) },
    })
    expect(res.body.error.message).not.toMatch(/invalid_type|expected|\[|MCP error/)
  })

  it.each([
    [
      'a limit that is not a number',
      { name: 'list_posts', arguments: { limit: 'abc' } },
      '"limit" must be an integer from 1 to 100',
    ],
    [
      'a limit out of range',
      { name: 'list_posts', arguments: { limit: 1000 } },
      '"limit" must be an integer from 1 to 100',
    ],
    ['a missing slug', { name: 'get_post', arguments: {} }, 'The argument "slug" is required.'],
    [
      'a slug that is an object',
      { name: 'get_post', arguments: { slug: { a: 1 } } },
      '"slug" must be a string or a number.',
    ],
    [
      'an unknown argument',
      { name: 'get_post', arguments: { slug: 'x', extra: 1 } },
      'Unknown argument "extra"; get_post takes slug.',
    ],
    ['a blank query', { name: 'search_posts', arguments: { q: '' } }, '"q"'],
    ['a search without a query', { name: 'search', arguments: {} }, 'The argument "query" is required'],
    ['a query that is a number', { name: 'search', arguments: { query: 5 } }, '"query" is required, a non-empty'],
    ['a query of blanks', { name: 'search', arguments: { query: '   ' } }, '"query" is required'],
    ['a query too long', { name: 'search', arguments: { query: 'x'.repeat(5000) } }, '"q"'],
    ['a search with a stray argument', { name: 'search', arguments: { query: 'a', q: 'b' } }, 'search takes query'],
    ['a fetch without an id', { name: 'fetch', arguments: {} }, 'The argument "id" is required'],
    ['a fetch of an id that is an object', { name: 'fetch', arguments: { id: { a: 1 } } }, '"id" is required'],
  ])('answers %s with a tool error the model can correct', async (_name, params, text) => {
    const res = await call(app, params)
    expect(res.status).toBe(200)
    expect(res.body.result.isError).toBe(true)
    expect(res.body.result.content[0].text).toMatch(/^invalid_request: /)
    expect(res.body.result.content[0].text).toContain(text)
  })
})

/**
 * Hostile messages that once reached the SDK's validator dump or a stack overflow: each is
 * refused with -32602 and a sentence, the JSON depth limit holds on /mcp as on every body, the
 * direct answer takes the media types the SDK takes, and a refusal is logged as one.
 */
describe('hostile messages to /mcp', () => {
  const logs: string[] = []
  const errors: unknown[] = []
  const logged = createApp({
    ...deps,
    logger: createLogger(
      'info',
      new Writable({
        write(chunk, _e, done) {
          logs.push(...chunk.toString().split('\n').filter(Boolean))
          done()
        },
      }),
    ),
    logError: (e) => errors.push(e),
  })
  const post = (body: string, headers: Record<string, string> = {}) =>
    request(logged)
      .post('/mcp')
      .set({ Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', ...headers })
      .send(body)
  const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`
  /** A list_posts call whose limit is `limit`, raw JSON. */
  const listPosts = (id: number, limit: string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"list_posts","arguments":{"limit":${limit}}}}`
  const READABLE = /^Invalid params[^[{]*$/

  it('refuses a message nested deeper than 8 levels with -32602, on the direct path and the SDK’s', async () => {
    const deepArguments = listPosts(7, nested(5000))
    const deepMeta = `{"jsonrpc":"2.0","id":"m","method":"tools/list","params":{"_meta":{"x":${nested(30_000)}}}}`
    for (const [body, id] of [
      [deepArguments, 7],
      [deepMeta, 'm'],
    ] as const) {
      const res = await post(body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id,
        error: { code: -32602, message: expect.stringMatching(READABLE) },
      })
      expect(res.body.error.message).toContain('deeper than 8 levels')
    }
    // Eight levels are a message's own: params, arguments and a value within them.
    const res = await post(listPosts(8, nested(5)))
    expect(res.status).toBe(200)
    expect(res.body.result).toMatchObject({ isError: true })
    expect(errors).toEqual([])
  })

  it('answers params of the wrong type with -32602 and a sentence naming the field, not a validator dump', async () => {
    for (const [method, params, field] of [
      ['resources/read', { uri: 5 }, '"uri"'],
      ['resources/list', { cursor: 5 }, '"cursor"'],
      ['resources/read', {}, '"uri"'],
    ] as const) {
      const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method, params }))
      expect(res.status, method).toBe(200)
      expect(res.body, method).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: expect.any(String) } })
      expect(res.body.error.message).toMatch(READABLE)
      expect(res.body.error.message).toContain(`Invalid params for ${method}: ${field}`)
      expect(res.body.error.message).not.toMatch(/invalid_type|\n/)
    }
    expect(errors).toEqual([])
  })

  it('takes the media types the SDK takes, on the direct path as on the SDK’s', async () => {
    const direct = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_posts' } })
    const viaSdk = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    for (const body of [direct, viaSdk]) {
      for (const type of ['application/merge-patch+json', 'application/vnd.api+json', 'text/json']) {
        const res = await post(body, { 'Content-Type': type })
        expect(res.status, `${type} ${body}`).toBe(415)
        expect(res.body).toEqual({ error: 'unsupported_media_type', error_description: expect.any(String) })
      }
      expect((await post(body, { 'Content-Type': 'application/json; charset=utf-8' })).status).toBe(200)
      expect((await post(body, { 'Content-Type': 'Application/JSON' })).status).toBe(200)
    }
  })

  it('logs the SDK’s refusals as refusals with their code, never as errors with a stack', async () => {
    logs.length = 0
    // A 2026-07-28 request whose Mcp-Method header disagrees with its body: the SDK refuses it.
    const res = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      }),
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'resources/list' },
    )
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    const refused = logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request refused')
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatchObject({ level: 30, path: '/mcp', refusal: { code: expect.anything() } })
    expect(JSON.stringify(refused[0])).not.toContain('stack')
    expect(errors).toEqual([])
  })
})
