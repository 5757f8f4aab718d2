import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../auth-service/app.ts'
import { createLimitedServer } from '../../auth-service/http/server-limits.ts'
import { testDeps } from '../support/index.ts'
import type { Server } from 'node:http'

let server: Server
let port: number

beforeAll(async () => {
  server = createLimitedServer(createApp(await testDeps()), {
    headersTimeoutMs: 400,
    requestTimeoutMs: 800,
    maxHeaderBytes: 8 * 1024,
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as AddressInfo).port
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

/** Writes raw bytes, optionally in timed pieces, and returns everything the server sent back. */
function raw(pieces: Array<string | number>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    socket.on('data', (d) => (received += d))
    socket.on('close', () => resolve(received))
    socket.on('error', reject)
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')))
    ;(async () => {
      for (const p of pieces) {
        if (typeof p === 'number') await new Promise((r) => setTimeout(r, p))
        else if (!socket.destroyed) socket.write(p)
      }
    })()
  })
}

const parse = (response: string) => {
  const [head, body] = response.split('\r\n\r\n')
  return { status: Number(head!.split(' ')[1]), head: head!, body: JSON.parse(body!) }
}

describe('limits below the routes', () => {
  it('answers oversized headers with 431 and a JSON error', async () => {
    const r = parse(await raw([`GET /api/v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(10_000)}\r\n\r\n`]))
    expect(r.status).toBe(431)
    expect(r.head).toContain('Content-Type: application/json')
    expect(r.body).toEqual({ error: 'header_fields_too_large', error_description: expect.any(String) })
  })

  it('times out a client that sends its headers too slowly, with 408', async () => {
    const started = Date.now()
    const r = parse(await raw(['GET /api/v1 HTTP/1.1\r\n', 200, 'Host: x\r\n', 1500, 'X-Late: 1\r\n\r\n']))
    expect(r.status).toBe(408)
    expect(r.body.error).toBe('request_timeout')
    expect(Date.now() - started).toBeLessThan(2500)
  })

  it('times out a body that never finishes', async () => {
    const r = parse(
      await raw([
        'POST /api/v1/keys HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"la',
        2500,
      ]),
    )
    expect(r.status).toBe(408)
  })

  it('answers garbage with 400 and a JSON error', async () => {
    const r = parse(await raw(['NOT HTTP AT ALL\r\n\r\n']))
    expect(r.status).toBe(400)
    expect(r.body.error).toBe('invalid_request')
  })

  it('refuses deeply nested JSON bodies with 400', async () => {
    const deep = `{"x":${'{"a":'.repeat(50)}1${'}'.repeat(51)}`
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: deep,
    })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error).toBe('invalid_request')
    expect(body.error_description).toContain('nests deeper')
  })

  it('still serves normal requests', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/api/v1`)).status).toBe(200)
  })
})
