/**
 * Request lines of every shape, sent as raw bytes over TCP to real processes: `npm start` (the
 * production server, from a build it makes) and `npm run dev` (the preview in front of the same
 * service). RFC 9112 §3.2 allows four forms of request-target; whatever the line holds, the
 * process answers it (never with a 5xx, never by dying) and keeps serving.
 */
import { cpSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURE_CORPUS } from '../support/global-setup.ts'
import { freePort, siteEnv, startProcess, type Running } from '../support/processes.ts'
import { sendRaw } from '../support/raw-http.ts'
import { tempDir } from '../support/temp.ts'

const ROOT = join(import.meta.dirname, '..', '..')

const METHOD = fc.oneof(
  fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'CONNECT', 'TRACE', 'PRI', 'PROPFIND'),
  fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,12}$/),
)
/** Paths of the table, the site and the preview (not its event stream: it never ends), and broken ones. */
const PATH = fc.constantFrom(
  '/',
  '/mcp',
  '/api/v1/posts',
  '/api/v1/posts/hashing-rings',
  '/api/v1/search?q=ring',
  '/posts/hashing-rings',
  '/posts/hashing-rings.md',
  '/oauth2/token',
  '/oai?verb=Identify',
  '/healthz',
  '/__preview/client.js',
  '/%zz',
  '/%',
  '/%C0%80',
  '//x',
  '/a/../../etc/passwd',
  '/?#',
)
/** Hosts, well formed and not: broken IPv6 literals, userinfo, ports out of range, bytes. */
const HOST = fc.oneof(
  fc.constantFrom(
    'localhost',
    'localhost:4321',
    '127.0.0.1',
    '[::1]',
    '[::1]:80',
    'evil.example',
    '[',
    '[::1',
    '[::1]x',
    '[v1.x]',
    '[::ffff:127.0.0.1]',
    'a@b',
    'h:99999',
    '%zz',
    ':80',
    '',
  ),
  fc.stringMatching(/^[\x21-\x7e]{0,24}$/),
)
const SCHEME = fc.constantFrom('http', 'https', 'HTTP', 'ftp', 'javascript', 'h')
/** Bytes of a request-target: anything but the blank and the line breaks that end it. */
const RAW_BYTES = fc
  .uint8Array({ minLength: 1, maxLength: 40 })
  .map((bytes) => Buffer.from(bytes.filter((b) => b !== 0x0d && b !== 0x0a && b !== 0x20)).toString('latin1'))
const TARGET = fc.oneof(
  PATH, // origin-form
  fc.tuple(SCHEME, HOST, fc.oneof(fc.constant(''), PATH)).map(([s, h, p]) => `${s}://${h}${p}`), // absolute-form
  HOST, // authority-form
  fc.constant('*'), // asterisk-form
  RAW_BYTES,
  fc.tuple(PATH, RAW_BYTES).map(([p, raw]) => p + raw),
  fc.integer({ min: 4_000, max: 40_000 }).map((n) => `/${'a'.repeat(n)}`), // a huge line
)
const VERSION = fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'http/1.1', '')
/** Mostly the server's own name (the preview answers no other), else any host, else none. */
const hostHeader = (port: number) =>
  fc.oneof(
    { arbitrary: fc.constant(`\r\nHost: 127.0.0.1:${port}`), weight: 3 },
    { arbitrary: HOST.map((h) => `\r\nHost: ${h}`), weight: 1 },
    { arbitrary: fc.constant(''), weight: 1 },
  )

/**
 * Headers a request line's handling reads (proxies, negotiation, credentials, MCP, conditionals)
 * with hostile values; none announces a body, which the server would wait for.
 */
const HEADER_NAME = fc.constantFrom(
  'X-Forwarded-For',
  'X-Forwarded-Proto',
  'Forwarded',
  'Accept',
  'Content-Type',
  'Authorization',
  'Origin',
  'Cookie',
  'If-None-Match',
  'If-Modified-Since',
  'Range',
  'Accept-Encoding',
  'Expect',
  'Upgrade',
  'MCP-Protocol-Version',
  'Mcp-Method',
  'X-Request-Id',
)
const HEADER_VALUE = fc.oneof(
  fc.constantFrom(
    '',
    '[::1',
    '1.2.3.4, [',
    '999.1.1.1',
    'unknown, ::ffff:1.2.3.4',
    'for=_x;proto=',
    '*/*;q=x',
    'text/html',
    'application/json; charset=zzz',
    'Bearer ',
    'Bearer x.y.z',
    'null',
    'http://[',
    'bytes=9-1,x',
    'websocket',
    '100-continue',
    '2026-07-28',
  ),
  fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
  RAW_BYTES,
)
const HEADERS = fc
  .array(
    fc.tuple(HEADER_NAME, HEADER_VALUE).map(([name, value]) => `\r\n${name}: ${value}`),
    { maxLength: 3 },
  )
  .map((lines) => lines.join(''))

/** The property for one running process: every line is answered below 500, and the next request is served. */
async function answersEveryLine(port: number, origin: string): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      METHOD,
      TARGET,
      VERSION,
      hostHeader(port),
      HEADERS,
      async (method, target, version, host, more) => {
        const line = `${method} ${target} ${version}`
        const answer = await sendRaw(port, `${line}${host}${more}`)
        const shown = JSON.stringify(`${line.slice(0, 200)}${more}`)
        expect(answer.status, `${shown}: ${answer.text.slice(0, 300)}`).toBeDefined()
        expect(answer.status, `${shown}: ${answer.text.slice(0, 300)}`).toBeLessThan(500)
        const next = await fetch(`${origin}/api/v1/posts?limit=1`)
        expect(next.status, `after ${shown}`).toBe(200)
        await next.body?.cancel()
      },
    ),
    { numRuns: 300 },
  )
}

/** The lines of the review that ended the process, answered 400 with a code. */
async function refusesBrokenHosts(port: number, origin: string): Promise<void> {
  for (const line of [
    'GET http://[::1/ HTTP/1.1',
    'GET http://[ HTTP/1.1',
    'GET ftp://x/ HTTP/1.1',
    'GET * HTTP/1.1',
  ]) {
    const answer = await sendRaw(port, `${line}\r\nHost: 127.0.0.1:${port}`)
    expect(answer.status, line).toBe(400)
    expect(answer.text, line).toContain('"error":"invalid_request"')
    expect(answer.text, line).toContain('RFC 9112')
  }
  expect((await sendRaw(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443')).status).toBe(400)
  expect((await sendRaw(port, `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:${port}`)).status).toBe(204)
  expect((await fetch(`${origin}/api/v1/posts/hashing-rings`)).status).toBe(200)
}

describe.each([
  ['npm start', ['start', '--silent'], 'url'],
  ['npm run dev', ['run', 'dev', '--silent'], /\[preview\] ready on/],
] as const)('%s, sent any request line', (_name, args, ready) => {
  let server: Running
  let port: number
  let origin: string

  beforeAll(async () => {
    const tmp = tempDir('request-lines')
    const content = join(tmp, 'content')
    cpSync(FIXTURE_CORPUS, content, { recursive: true })
    port = await freePort()
    origin = `http://127.0.0.1:${port}`
    const env = {
      ...siteEnv(tmp, content, port),
      LOG_LEVEL: 'warn',
      // As deployed behind nginx: forwarded addresses are read (and may be garbage).
      TRUST_PROXY: 'loopback',
      // The budgets stay on, wide enough for the run's own requests from one address.
      RATE_LIMIT_ANONYMOUS_READS_PER_MINUTE: '100000',
    }
    server = await startProcess('npm', [...args], {
      cwd: ROOT,
      env,
      // Its request lines are off (LOG_LEVEL): ready once it answers.
      ready: ready === 'url' ? { url: `${origin}/healthz` } : ready,
      timeoutMs: 200_000,
    })
  }, 220_000)
  afterAll(async () => {
    await server?.stop()
  })

  it('refuses a target with a broken host, another scheme or no path with a 400, and keeps serving', async () => {
    await refusesBrokenHosts(port, origin)
  })

  it('answers every generated request line below 500 and serves the next request', async () => {
    await answersEveryLine(port, origin)
    expect(server.child.exitCode).toBeNull()
  }, 240_000)

  it('serves /mcp by the parsed path when the line names another authority (absolute-form)', async () => {
    // Not a plain tools/call: this message goes through the SDK, which gets a web Request built from the target.
    const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: {} } })
    const head = [
      'POST http://evil.example/mcp?x=1 HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      'Content-Type: application/json',
      'Accept: application/json, text/event-stream',
      'MCP-Protocol-Version: 2025-11-25',
      `Content-Length: ${Buffer.byteLength(message)}`,
    ].join('\r\n')
    const answer = await sendRaw(port, head, message)
    expect(answer.status, answer.text).toBe(200)
    const body = JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4))
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } })
  })
})
