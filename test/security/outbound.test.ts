/**
 * The fetch of a client ID metadata document, a URL a stranger names, is bounded from its first
 * byte: the DNS resolution is under the same deadline and cannot stall other fetches; every IPv6
 * or odd IPv4 spelling of an internal address is refused before any connection; and a refusal
 * names no internal host or address. DNS answers come from a small server the test runs.
 */
import { createSocket, type RemoteInfo } from 'node:dgram'
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createTcpServer } from 'node:net'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { fetchClientMetadataDocument } from '../../auth-service/auth/client-metadata-fetch.ts'
import { CLIENT_METADATA_FETCH } from '../../auth-service/defaults.ts'
import { ServiceError } from '../../auth-service/errors.ts'
import { testDeps } from '../support/index.ts'

/** What the test's DNS server answers: addresses per name and type; a name absent here is never answered. */
const ZONE: Record<string, { A?: string[]; AAAA?: string[] }> = {
  'fast.test': { A: ['127.0.0.1'], AAAA: [] },
  'empty.test': { A: [], AAAA: [] },
  'inside.corp.test': { A: ['10.0.0.5'], AAAA: [] },
  'mixed.test': { A: ['93.184.215.14', '127.0.0.1'], AAAA: [] },
  'v6loop.test': { AAAA: ['::1'] },
  'v6compat.test': { AAAA: ['::7f00:1'] },
  'v6mapped.test': { AAAA: ['::ffff:10.0.0.5'] },
  'sitelocal.test': { AAAA: ['fec0::1'] },
  'ula.test': { AAAA: ['fd12:3456::1'] },
}

const dns = createSocket('udp4')
let dnsServer = ''
const asked: string[] = []

/** A DNS answer (RFC 1035 §4.1) to one question, with the zone's records of its type. */
function answer(query: Buffer, from: RemoteInfo) {
  let at = 12
  const labels: string[] = []
  while (query[at]! > 0) {
    labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString())
    at += query[at]! + 1
  }
  const name = labels.join('.').toLowerCase()
  const type = query.readUInt16BE(at + 1)
  const question = query.subarray(12, at + 5)
  asked.push(name)
  const records = ZONE[name]
  if (!records) return // silent: a DNS server that never answers
  const addresses = (type === 1 ? records.A : type === 28 ? records.AAAA : []) ?? []
  const header = Buffer.alloc(12)
  header.writeUInt16BE(query.readUInt16BE(0), 0)
  header.writeUInt16BE(0x8180, 2) // a response, recursion desired and available, no error
  header.writeUInt16BE(1, 4)
  header.writeUInt16BE(addresses.length, 6)
  const rrs = addresses.map((address) => {
    const rdata = type === 1 ? Buffer.from(address.split('.').map(Number)) : ipv6Bytes(address)
    const rr = Buffer.alloc(12)
    rr.writeUInt16BE(0xc00c, 0) // the name of the question
    rr.writeUInt16BE(type, 2)
    rr.writeUInt16BE(1, 4)
    rr.writeUInt32BE(60, 6)
    rr.writeUInt16BE(rdata.length, 10)
    return Buffer.concat([rr, rdata])
  })
  dns.send(Buffer.concat([header, question, ...rrs]), from.port, from.address)
}

function ipv6Bytes(address: string): Buffer {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1)
  const [head, tail = ''] = canonical.split('::')
  const groups = (s: string) => (s ? s.split(':') : [])
  const missing = 8 - groups(head!).length - groups(tail).length
  const all = [...groups(head!), ...Array(canonical.includes('::') ? missing : 0).fill('0'), ...groups(tail)]
  return Buffer.from(all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 255]))
}

// A document server on loopback, for the development origins, and a TCP listener that counts
// the connections a refused fetch must never make.
let documents: Server
let documentPort = 0
const tcp = createTcpServer((socket) => {
  connections++
  socket.destroy()
})
let connections = 0
let tcpPort = 0

beforeAll(async () => {
  dns.on('message', answer)
  await new Promise<void>((r) => dns.bind(0, '127.0.0.1', r))
  dnsServer = `127.0.0.1:${dns.address().port}`
  documents = createHttpServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json')
    res.end(JSON.stringify({ client_id: 'x', redirect_uris: ['https://app.example/cb'] }))
  })
  await new Promise<void>((r) => documents.listen(0, '127.0.0.1', r))
  documentPort = (documents.address() as { port: number }).port
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r))
  tcpPort = (tcp.address() as { port: number }).port
})

afterAll(async () => {
  dns.close()
  await new Promise((r) => documents.close(r))
  await new Promise((r) => tcp.close(r))
})

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ServiceError)
  expect((error as ServiceError).code).toBe('invalid_client')
  return (error as ServiceError).message
}

describe('the DNS resolution', () => {
  it('is under the fetch deadline, and names whose DNS never answers do not hold up another fetch', async () => {
    const options = { dnsServers: [dnsServer], devOrigins: [`http://fast.test:${documentPort}`] }
    const started = Date.now()
    // More silent names than libuv's thread pool has threads (4): getaddrinfo would queue the next lookup behind them.
    const silent = Array.from({ length: 6 }, (_, i) =>
      fetchClientMetadataDocument(`https://silent-${i}.test/client.json`, options),
    )
    const settled = silent.map(() => false)
    silent.forEach((p, i) => {
      p.catch(() => {
        settled[i] = true
      })
    })
    const fast = await fetchClientMetadataDocument(`http://fast.test:${documentPort}/client.json`, options)
    expect(fast.document).toMatchObject({ client_id: 'x' })
    expect(settled).toEqual(Array(6).fill(false)) // the silent ones are still waiting
    for (const p of silent) {
      const message = await refusal(p)
      expect(message).toMatch(/did not arrive within 5 s/)
      expect(message).not.toMatch(/silent/)
    }
    // Every silent name gave up by the deadline (a second of slack for a loaded machine).
    expect(Date.now() - started).toBeLessThan(CLIENT_METADATA_FETCH.timeoutMs + 1000)
    expect(asked).toContain('silent-0.test')
  }, 15_000)
})

describe('addresses that reach inside', () => {
  it.each([
    ['https://[::7f00:1]:PORT/c.json', 'IPv4-compatible loopback'],
    ['https://[::ffff:127.0.0.1]:PORT/c.json', 'IPv4-mapped loopback, dotted'],
    ['https://[::ffff:7f00:1]:PORT/c.json', 'IPv4-mapped loopback, hex'],
    ['https://[::ffff:a00:5]/c.json', 'IPv4-mapped private'],
    ['https://[fec0::1]/c.json', 'site-local'],
    ['https://[fc00::1]/c.json', 'unique-local'],
    ['https://[fd00:ec2::254]/c.json', 'a cloud metadata address'],
    ['https://[64:ff9b::a00:5]/c.json', 'NAT64 of a private address'],
    ['https://[::]/c.json', 'unspecified'],
    ['https://2130706433:PORT/c.json', 'decimal IPv4'],
    ['https://127.1:PORT/c.json', 'short IPv4'],
    ['https://0x7f.0.0.1:PORT/c.json', 'hexadecimal IPv4'],
    ['https://0177.0.0.1:PORT/c.json', 'octal IPv4'],
    ['https://0.0.0.0:PORT/c.json', 'this host'],
    ['https://inside.corp.test:PORT/c.json', 'a name of a private address'],
    ['https://mixed.test:PORT/c.json', 'a name with a public and a loopback address'],
    ['https://v6loop.test:PORT/c.json', 'a name of ::1'],
    ['https://v6compat.test:PORT/c.json', 'a name of ::7f00:1'],
    ['https://v6mapped.test:PORT/c.json', 'a name of ::ffff:10.0.0.5'],
    ['https://sitelocal.test:PORT/c.json', 'a name of fec0::1'],
    ['https://ula.test:PORT/c.json', 'a name of fd12:3456::1'],
  ])('refuses %s (%s) before connecting, naming no internal host or address', async (template, _name) => {
    const url = template.replace('PORT', String(tcpPort))
    const before = connections
    const message = await refusal(fetchClientMetadataDocument(url, { dnsServers: [dnsServer] }))
    expect(message).toMatch(/does not resolve to public addresses only/)
    expect(message).not.toMatch(/10\.0\.0\.5|127\.|::|corp|inside|mixed|v6|fec0|fd12/)
    expect(connections).toBe(before)
  })

  it(
    'refuses a name without addresses in the same words ' + 'as an internal one, so the endpoint probes nothing',
    async () => {
      const inside = await refusal(
        fetchClientMetadataDocument('https://inside.corp.test/c.json', { dnsServers: [dnsServer] }),
      )
      const empty = await refusal(fetchClientMetadataDocument('https://empty.test/c.json', { dnsServers: [dnsServer] }))
      expect(empty).toBe(inside)
    },
  )

  it('shows the refusal on the authorization page without the resolved address', async () => {
    const app = createApp({ ...(await testDeps()), clientMetadata: { dnsServers: [dnsServer] } })
    const res = await request(app)
      .get('/oauth2/authorize')
      .query({
        response_type: 'code',
        client_id: 'https://inside.corp.test/client.json',
        redirect_uri: 'https://app.example/cb',
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'S256',
      })
    expect(res.status).toBe(400)
    expect(res.headers.location).toBeUndefined()
    expect(res.text).toContain('invalid_client')
    expect(res.text).not.toContain('10.0.0.5')
  })
})
