import { createServer, type RequestListener, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { SERVER_TIMEOUTS } from '../defaults.ts'
import { errorBody, type ErrorCode } from '../errors.ts'

export type ServerLimits = { [K in 'headersTimeoutMs' | 'requestTimeoutMs' | 'maxHeaderBytes']: number }

/**
 * An HTTP server that times out slow clients and caps header sizes, answering those refusals
 * (which Node raises before any route runs) with the same JSON error body as everything else.
 * A CONNECT (which Node hands to no request listener, and would close unanswered) is refused too.
 */
export function createLimitedServer(app: RequestListener, limits: ServerLimits = SERVER_TIMEOUTS): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      // How often Node checks those timeouts (its default, 30 s, would let slow clients linger).
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    app,
  )
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => refuse(err, socket))
  // RFC 9110 §9.3.6: CONNECT asks for a tunnel, which only a proxy opens.
  server.on('connect', (_req, socket: Duplex) => {
    // Node hands the socket over with no error listener of its own: a reset must not be uncaught.
    socket.on('error', () => socket.destroy())
    answer(socket, [400, 'Bad Request', 'invalid_request', 'This server is not a proxy: it opens no CONNECT tunnel.'])
  })
  return server
}

type Refusal = [status: number, reason: string, code: ErrorCode, description: string]

function refuse(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  answer(
    socket,
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'header_fields_too_large', 'The request headers are too large.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'request_timeout', 'The request was not received in time.']
        : [400, 'Bad Request', 'invalid_request', 'The request is not valid HTTP.'],
  )
}

/** Writes the refusal on the socket itself (no response object exists) and closes the connection. */
function answer(socket: Duplex, [status, reason, code, description]: Refusal): void {
  const body = JSON.stringify(errorBody(code, description))
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  )
}
