import type { IncomingMessage, ServerResponse } from 'node:http'

/** The loopback names a browser on this machine reaches the preview by. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]']

/**
 * Whether a request's Host names this preview: a loopback name with the port it was received on,
 * or BASE_URL's host. A page of any other name that resolves here (DNS rebinding) is refused, so
 * it cannot read the preview or its event stream; the same rule as the MCP SDK's localhost
 * default (MCP, Streamable HTTP, Security Warning). Host is compared case-insensitively
 * (RFC 9110 §7.2, RFC 3986 §3.2.2); a default port may be left out (RFC 9110 §4.2.3).
 */
export function hostCheck(baseUrl: string): (req: IncomingMessage) => boolean {
  const configured = new URL(baseUrl)
  const defaultPort = configured.protocol === 'https:' ? 443 : 80
  return (req) => {
    const host = req.headers.host?.toLowerCase()
    if (host === undefined) return false
    if (host === configured.host) return true
    const port = req.socket.localPort
    return LOOPBACK.some((name) => host === `${name}:${port}` || (port === defaultPort && host === name))
  }
}

/** RFC 9110 §15.5.20: 421, the request was sent to a server that does not answer for its Host. */
export function refuseHost(req: IncomingMessage, res: ServerResponse, baseUrl: string): void {
  const body = JSON.stringify({
    error: 'misdirected_request',
    error_description:
      `The preview answers only to localhost, 127.0.0.1 and [::1] on its port, and to ${new URL(baseUrl).host}` +
      ` (BASE_URL), not to the Host ${JSON.stringify((req.headers.host ?? '').slice(0, 100))}. Open it at ${baseUrl}.`,
  })
  res.writeHead(421, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  })
  res.end(req.method === 'HEAD' ? undefined : body)
}
