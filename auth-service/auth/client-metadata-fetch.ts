import { lookup } from 'node:dns/promises'
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
}

/**
 * Addresses a document is never fetched from (SSRF): this host, private networks, link-local
 * (cloud metadata services at 169.254.169.254 and fd00:ec2::254), shared, reserved, documentation
 * and multicast ranges (RFC 6890 special-purpose registries).
 */
const BLOCKED = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6')

/** Whether an address is one a document must not be fetched from; IPv4-mapped IPv6 counts as its IPv4. */
export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4')
  if (/^::ffff:/i.test(address)) return true
  const family = isIP(address)
  if (family === 0) return true
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/** The refusal of a client_id whose document cannot be used; shown on the authorization error page. */
const refuse = (why: string) => new ServiceError('invalid_client', `The client_id's metadata document cannot be used: ${why}.`)

/**
 * Fetches a client ID metadata document (draft-ietf-oauth-client-id-metadata-document) with the
 * limits a URL chosen by a stranger needs: https only, no redirects followed, every resolved
 * address checked and the connection made to the address that was checked (so DNS rebinding
 * cannot swap it), a time limit for the whole exchange, a size cap, and a JSON content type.
 * Throws ServiceError `invalid_client` saying what was wrong.
 */
export async function fetchClientMetadataDocument(clientId: string, options: FetchOptions = {}): Promise<FetchedDocument> {
  const url = new URL(clientId)
  const dev = (options.devOrigins ?? []).includes(url.origin)
  if (url.protocol !== 'https:' && !(dev && url.protocol === 'http:')) throw refuse('it must be served over https')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  let address: string
  let family: 4 | 6
  if (isIP(host)) {
    address = host
    family = isIP(host) as 4 | 6
  } else {
    const found = await lookup(host, { all: true, order: 'verbatim' }).catch(() => [])
    if (found.length === 0) throw refuse(`its host ${host} does not resolve`)
    // Every address must be public: a name that also resolves to an internal one is refused.
    if (!dev && found.some((a) => isBlockedAddress(a.address))) throw refuse(`its host ${host} resolves to a private or reserved address`)
    address = found[0]!.address
    family = found[0]!.family as 4 | 6
  }
  if (!dev && isBlockedAddress(address)) throw refuse(`its host ${host} is a private or reserved address`)
  // The connection goes to the address checked above, whatever the name resolves to by now.
  const pinned: LookupFunction = (_name, opts, callback) => {
    if ((opts as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }])
    else callback(null, address, family)
  }
  const response = await get(url, pinned, options.ca)
  return { document: response.body, cacheSeconds: cacheSeconds(response.cacheControl) }
}

function get(url: URL, pinned: LookupFunction, ca: string | undefined): Promise<{ body: unknown; cacheControl: string | undefined }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    let settled = false
    const fail = (error: ServiceError) => {
      if (settled) return
      settled = true
      req.destroy()
      reject(error)
    }
    // One deadline for everything: connecting, TLS, headers and a slowly trickled body.
    const timer = setTimeout(() => fail(refuse(`it did not arrive within ${CLIENT_METADATA_FETCH.timeoutMs / 1000} s`)), CLIENT_METADATA_FETCH.timeoutMs)
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
        return fail(refuse(res.statusCode! >= 300 && res.statusCode! < 400 ? 'it redirects, and redirects are not followed' : `it answered HTTP ${res.statusCode}`))
      const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
      if (type !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(type)) return fail(refuse('its content type is not application/json'))
      if (Number(res.headers['content-length'] ?? 0) > CLIENT_METADATA_FETCH.maxBytes) return fail(refuse(`it is larger than ${CLIENT_METADATA_FETCH.maxBytes} bytes`))
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > CLIENT_METADATA_FETCH.maxBytes) return fail(refuse(`it is larger than ${CLIENT_METADATA_FETCH.maxBytes} bytes`))
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
