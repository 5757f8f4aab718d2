import { Resolver } from 'node:dns/promises'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { CLIENT_METADATA_FETCH } from '../defaults.ts'
import { ServiceError } from '../errors.ts'

/** A fetched client ID metadata document, and how long it may be cached (seconds, within bounds). */
export interface FetchedDocument {
  document: unknown
  cacheSeconds: number
}

export interface FetchOptions {
  /**
   * Origins (e.g. `https://127.0.0.1:8443`) whose documents are fetched although they resolve to
   * a private or loopback address, over http too: for a client run on the developer's machine.
   * Empty in production (CLIENT_METADATA_DEV_ORIGINS unset).
   */
  devOrigins?: readonly string[]
  /** Extra trusted certificates (PEM) for https, e.g. a development server's own. */
  ca?: string
  /** DNS servers to ask (`host:port`) instead of the system's: for tests. */
  dnsServers?: readonly string[]
}

/**
 * Addresses a document is never fetched from (SSRF): this host, private networks, link-local
 * (cloud metadata services at 169.254.169.254 and fd00:ec2::254), shared, reserved, documentation
 * and multicast ranges (RFC 6890 special-purpose registries).
 */
const BLOCKED = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4')
// IPv6 (RFC 6890, IANA's special-purpose registry): unspecified, loopback, IPv4-compatible (::/96,
// RFC 4291 §2.5.5.1, so ::7f00:1 is 127.0.0.1), NAT64 (which embeds
// any IPv4 address), discard, TEREDO and other IETF ranges, documentation (2001:db8::/32 and
// 3fff::/20, RFC 9637), 6to4, unique-local (fc00::/7), site-local (fec0::/10, deprecated but still
// routed by some stacks), link-local and multicast.
for (const [net, prefix] of [
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6')

/**
 * Whether an address is one a document must not be fetched from. An IPv4-mapped IPv6 address
 * (::ffff:0:0/96, RFC 4291 §2.5.5.2) is judged as the IPv4 address it reaches, in any spelling.
 */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return true
  if (family === 4) return BLOCKED.check(address, 'ipv4')
  // The URL parser writes every IPv6 spelling one way: ::ffff:127.0.0.1 becomes ::ffff:7f00:1.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1)
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical)
  if (mapped) {
    const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)]
    return BLOCKED.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4')
  }
  return BLOCKED.check(canonical, 'ipv6')
}

/**
 * The refusal of a client_id whose document cannot be used; shown on the authorization error page.
 * It says what to fix, never what this server's DNS or network answered (no internal names or
 * addresses: a refusal must not make the authorization endpoint a probe of the inside).
 */
const refuse = (why: string) =>
  new ServiceError('invalid_client', `The client_id's metadata document cannot be used: ${why}.`)
const NOT_PUBLIC = 'its host does not resolve to public addresses only'

/** Each DNS query's own limit; the fetch's deadline bounds the whole resolution too. */
const DNS_TRY_MS = 2000
/** The c-ares codes of a lookup that no server answered (timed out, or cancelled at the deadline). */
const UNANSWERED = new Set(['ETIMEOUT', 'ECANCELLED'])
const errorCode = (e: unknown) => String((e as NodeJS.ErrnoException | undefined)?.code ?? '')

/**
 * Fetches a client ID metadata document (draft-ietf-oauth-client-id-metadata-document) with the
 * limits a URL chosen by a stranger needs: https only, no redirects followed, every resolved
 * address checked and the connection made to the address that was checked (so DNS rebinding
 * cannot swap it), a time limit for the whole exchange, a size cap, and a JSON content type.
 * Throws ServiceError `invalid_client` saying what was wrong.
 */
export async function fetchClientMetadataDocument(
  clientId: string,
  options: FetchOptions = {},
): Promise<FetchedDocument> {
  // One deadline from the first byte: the DNS resolution, connecting, TLS, headers and body.
  const deadline = Date.now() + CLIENT_METADATA_FETCH.timeoutMs
  const url = new URL(clientId)
  const dev = (options.devOrigins ?? []).includes(url.origin)
  if (url.protocol !== 'https:' && !(dev && url.protocol === 'http:')) throw refuse('it must be served over https')
  // WHATWG URL parsing has already turned 2130706433, 127.1, 0x7f.1 and 0177.0.0.1 into 127.0.0.1.
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const found = isIP(host)
    ? [{ address: host, family: isIP(host) as 4 | 6 }]
    : await resolveHost(host, deadline, options.dnsServers)
  if (found.length === 0) throw refuse(NOT_PUBLIC)
  // Every address must be public: a name that also resolves to an internal one is refused.
  if (!dev && found.some((a) => isBlockedAddress(a.address))) throw refuse(NOT_PUBLIC)
  const { address, family } = found[0]!
  // The connection goes to the address checked above, whatever the name resolves to by now.
  const pinned: LookupFunction = (_name, opts, callback) => {
    if ((opts as { all?: boolean }).all)
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
        { address, family },
      ])
    else callback(null, address, family)
  }
  const response = await get(url, pinned, options.ca, deadline)
  return { document: response.body, cacheSeconds: cacheSeconds(response.cacheControl) }
}

/**
 * A name's addresses, by c-ares (A and AAAA at once) rather than getaddrinfo: the system lookup
 * runs on libuv's small thread pool, where a few names whose DNS server never answers would stall
 * every other lookup of the process. Each resolution has its own resolver, cancelled at the
 * deadline. `localhost` is never sent to DNS (RFC 6761 §6.3).
 */
async function resolveHost(
  host: string,
  deadline: number,
  servers: readonly string[] | undefined,
): Promise<Array<{ address: string; family: 4 | 6 }>> {
  if (host === 'localhost' || host.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }]
  const resolver = new Resolver({ timeout: DNS_TRY_MS, tries: 2 })
  if (servers) resolver.setServers([...servers])
  const timer = setTimeout(() => resolver.cancel(), Math.max(0, deadline - Date.now()))
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)])
    // c-ares may give up on a silent server before the deadline (its retries are timed on its own):
    // a name that got no answer at all did not arrive in time, whatever the clock says.
    const unanswered = [v4, v6].every((r) => r.status === 'rejected' && UNANSWERED.has(errorCode(r.reason)))
    if (Date.now() >= deadline || unanswered)
      throw refuse(`it did not arrive within ${CLIENT_METADATA_FETCH.timeoutMs / 1000} s`)
    return [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ]
  } finally {
    clearTimeout(timer)
  }
}

function get(
  url: URL,
  pinned: LookupFunction,
  ca: string | undefined,
  deadline: number,
): Promise<{ body: unknown; cacheControl: string | undefined }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    let settled = false
    const fail = (error: ServiceError) => {
      if (settled) return
      settled = true
      req.destroy()
      reject(error)
    }
    // What is left of the deadline bounds connecting, TLS, headers and a slowly trickled body.
    const timer = setTimeout(
      () => fail(refuse(`it did not arrive within ${CLIENT_METADATA_FETCH.timeoutMs / 1000} s`)),
      Math.max(0, deadline - Date.now()),
    )
    const req = send(url, {
      method: 'GET',
      lookup: pinned,
      ...(ca ? { ca } : {}),
      headers: { Accept: 'application/json', 'User-Agent': 'lattice-authorization-server' },
      agent: false,
    })
    req.on('error', () => fail(refuse('the connection failed')))
    req.on('close', () => clearTimeout(timer))
    req.on('response', (res: IncomingMessage) => {
      if (res.statusCode !== 200)
        return fail(
          refuse(
            res.statusCode! >= 300 && res.statusCode! < 400
              ? 'it redirects, and redirects are not followed'
              : `it answered HTTP ${res.statusCode}`,
          ),
        )
      const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
      if (type !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(type))
        return fail(refuse('its content type is not application/json'))
      if (Number(res.headers['content-length'] ?? 0) > CLIENT_METADATA_FETCH.maxBytes)
        return fail(refuse(`it is larger than ${CLIENT_METADATA_FETCH.maxBytes} bytes`))
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > CLIENT_METADATA_FETCH.maxBytes)
          return fail(refuse(`it is larger than ${CLIENT_METADATA_FETCH.maxBytes} bytes`))
        chunks.push(chunk)
      })
      res.on('error', () => fail(refuse('the connection failed')))
      res.on('end', () => {
        if (settled) return
        let body: unknown
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
        } catch {
          return fail(refuse('it is not valid JSON'))
        }
        settled = true
        clearTimeout(timer)
        resolve({ body, cacheControl: res.headers['cache-control'] })
      })
    })
    req.end()
  })
}

/** RFC 9111 freshness from Cache-Control (max-age; no-store and no-cache as the minimum), within bounds. */
function cacheSeconds(cacheControl: string | undefined): number {
  const { minCacheSeconds: min, maxCacheSeconds: max, defaultCacheSeconds } = CLIENT_METADATA_FETCH
  if (!cacheControl) return defaultCacheSeconds
  if (/(^|,)\s*(no-store|no-cache)\b/i.test(cacheControl)) return min
  const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl)
  return maxAge ? Math.min(max, Math.max(min, Number(maxAge[1]))) : defaultCacheSeconds
}
