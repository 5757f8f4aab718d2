/**
 * HTTP/1.1 as bytes on a TCP socket, for requests no HTTP client would send: a request line of
 * any shape, raw bytes, broken hosts. The answer is read until the server closes the connection.
 */
import { connect } from 'node:net'

export interface RawAnswer {
  /** The status of the answer's status line; undefined when no answer came. */
  status: number | undefined
  /** What the server wrote, as latin1. */
  text: string
}

/**
 * Sends `head` (a request line and headers, without the blank line; a string is taken as latin1,
 * one byte per character), then `body`, and reads the answer whole.
 */
export function sendRaw(port: number, head: string | Buffer, body = '', timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    const done = () => {
      clearTimeout(timer)
      socket.destroy()
      const text = Buffer.concat(chunks).toString('latin1')
      const status = /^HTTP\/1\.[01] (\d{3}) /.exec(text)?.[1]
      resolve({ status: status === undefined ? undefined : Number(status), text })
    }
    const timer = setTimeout(done, timeoutMs)
    socket.on('data', (d: Buffer) => chunks.push(d))
    socket.on('close', done)
    // A server that closes while we still write resets the connection: what it answered counts.
    socket.on('error', () => {})
    const bytes = typeof head === 'string' ? Buffer.from(head, 'latin1') : head
    socket.write(Buffer.concat([bytes, Buffer.from('\r\nConnection: close\r\n\r\n', 'latin1'), Buffer.from(body)]))
  })
}
