/**
 * Tool calls with bad input, over raw JSON-RPC, through the one pipeline.
 * MCP 2025-11-25 (Tools, Error Handling): a call that fails CallToolRequest's schema is a protocol
 * error, -32602 with a message a client can act on (never a validator dump or -32603); an
 * argument the tool refuses is a tool execution error (isError) the model can correct.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
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
