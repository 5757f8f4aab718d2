/**
 * A raw HTTP request from a chosen loopback address: all of 127/8 reaches this host, so each
 * address is a client of its own to a proxy that budgets per client.
 */
import { request as httpRequest } from 'node:http'

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A request to `port` on 127.0.0.1 from `localAddress`, with its answer read whole. */
export function send(
  port: number,
  localAddress: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', localAddress, headers: options.headers },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (d) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}
