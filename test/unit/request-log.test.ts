/**
 * The pipeline's request lines are written without pino's general path: each must be the line
 * pino writes for the same fields, in the same sink, at the same level, with no credential.
 */
import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { REQUEST_COMPLETED, REQUEST_SERIALIZERS, createLogger, requestLog } from '../../auth-service/ops/logger.ts'

const capture = (level: string) => {
  const lines: string[] = []
  const logger = createLogger(level, { write: (line: string) => void lines.push(line) })
  return { logger, lines }
}

const request = (url: string, headers: IncomingMessage['headers']) =>
  ({ method: 'GET', url, headers, socket: { remoteAddress: '::ffff:127.0.0.1' } }) as unknown as IncomingMessage

/** The line without its time, which each writer reads from the clock itself. */
const timeless = (line: string) => line.replace(/,"time":"[^"]*"/, '')

const REQUESTS: Array<[string, IncomingMessage['headers'], number]> = [
  ['/api/v1/posts/tail-latency', {}, 200],
  ['/api/v1/search?q=caf%C3%A9&limit=5', { 'user-agent': 'agent "quoted" \u2028 ü/1.0' }, 200],
  [
    '/claim?token=secret-value&state=xyz&next=%2F',
    { authorization: 'Bearer abc.def', cookie: 'sid=cookie-value' },
    401,
  ],
  ['/api/v1/posts/x', { 'user-agent': 'a\\b' }, 503],
]

describe('the request line', () => {
  it('is the line pino writes for the same fields, byte for byte but for the time', () => {
    for (const [url, headers, status] of REQUESTS) {
      const ours = capture('info')
      requestLog(ours.logger)(request(url, headers), 'req-1', status, 12.4)
      const pinos = capture('info')
      const req = request(url, headers)
      pinos.logger[status >= 500 ? 'error' : 'info'](
        {
          req: REQUEST_SERIALIZERS.req({
            id: 'req-1',
            method: req.method,
            url: req.url,
            headers: req.headers,
            remoteAddress: req.socket.remoteAddress,
          }),
          res: REQUEST_SERIALIZERS.res({ statusCode: status }),
          responseTime: 12,
        },
        REQUEST_COMPLETED,
      )
      expect(ours.lines).toHaveLength(1)
      expect(timeless(ours.lines[0]!)).toBe(timeless(pinos.lines[0]!))
      expect(ours.lines[0]).toMatch(/^\{"level":\d+,"time":"\d{4}-\d\d-\d\dT[\d:.]+Z",/)
      expect(ours.lines[0]).not.toMatch(/secret-value|abc\.def|xyz|cookie-value/)
    }
  })

  it('follows the logger level: 5xx as errors, the rest as info', () => {
    const quiet = capture('warn')
    const log = requestLog(quiet.logger)
    log(request('/api/v1/posts/a', {}), 'r', 200, 1)
    log(request('/api/v1/posts/a', {}), 'r', 500, 1)
    expect(quiet.lines.map((l) => (JSON.parse(l) as { level: number }).level)).toEqual([50])
  })
})
