/** Requests to /mcp on protocol 2025-11-25 for the tests: the service on a port, the SDK client, raw messages. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import request from 'supertest'
import { expect } from 'vitest'
import { createApp, type AppDeps } from '../../auth-service/app.ts'
import { testDeps } from './index.ts'

export const PROTOCOL = '2025-11-25'
export const MCP_HEADERS = {
  Accept: 'application/json, text/event-stream',
  'Content-Type': 'application/json',
  'MCP-Protocol-Version': PROTOCOL,
}
/** The service's refusal envelope for `code`. */
export const errorBody = (code: string) => ({ error: code, error_description: expect.any(String) })

/** The service on a real port, with BASE_URL that origin, as an MCP client reaches it. */
export async function serve(
  overrides: Partial<AppDeps> = {},
): Promise<{ base: string; server: Server; deps: AppDeps }> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const deps = { ...(await testDeps({ baseUrl: base })), ...overrides }
  server.on('request', createApp(deps))
  return { base, server, deps }
}

/** An SDK client over Streamable HTTP, connected (initialize and initialized) to `base`/mcp. */
export async function connect(base: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'lattice-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }))
  return client
}

/** The REST read of `path` on `base`, which must answer 200, as JSON. */
export const rest = async (base: string, path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}${path}`, { headers })
  expect(res.status, path).toBe(200)
  return res.json()
}

/** A POST of one body (a string as is, anything else as JSON) to `app`'s /mcp, with the headers of the protocol. */
export const poster =
  (app: ReturnType<typeof createApp>) =>
  (body: unknown, headers: Record<string, string> = {}) =>
    request(app)
      .post('/mcp')
      .set({ ...MCP_HEADERS, ...headers })
      .send(typeof body === 'string' ? body : JSON.stringify(body))

/** A tools/call message, id 9, calling `name` with `args` (and any other params in `extra`). */
export const tool = (name: string, args: unknown, extra: object = {}) => ({
  jsonrpc: '2.0',
  id: 9,
  method: 'tools/call',
  params: { name, arguments: args, ...extra },
})
