import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { pino, type Logger } from 'pino'
import { pinoHttp } from 'pino-http'

/** Query parameters whose values are credentials (the claim page link, for one). */
const SECRET_PARAM = /token|assertion|key|secret|code|password/i
const REQUEST_ID = /^[\w.-]{1,100}$/

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      // Credentials never reach the log, whatever a caller sends.
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["proxy-authorization"]', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
    },
    // Buffered writes: a log line per request must not cost a write system call each. If the
    // log sink falls 16 MiB behind, lines are dropped rather than held in memory without bound.
    destination ?? pino.destination({ sync: false, maxLength: 16 * 1024 * 1024 }),
  )
}

/** Writes out buffered log lines now: before the process exits. */
export function flushLogs(logger: Logger): void {
  const stream = (logger as unknown as Record<symbol, { flushSync?: () => void }>)[pino.symbols.streamSym]
  try {
    stream?.flushSync?.()
  } catch {
    // nothing left to write, or the stream is not open yet
  }
}

/** Hides the values of credential-like query parameters in a logged URL. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const params = new URLSearchParams(url.slice(q + 1))
  for (const name of [...params.keys()]) if (SECRET_PARAM.test(name)) params.set(name, '[redacted]')
  return `${url.slice(0, q)}?${params}`
}

/**
 * One JSON line per request with a request id: taken from X-Request-Id when the proxy sent a
 * sane one, else generated, and echoed back so a client can quote it.
 */
export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const given = req.headers['x-request-id']
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
      res.setHeader('X-Request-Id', id)
      return id
    },
    serializers: {
      req: (req: { id: string; method: string; url: string; headers: Record<string, string>; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.remoteAddress,
        userAgent: req.headers['user-agent'],
        authorization: req.headers.authorization ? '[redacted]' : undefined,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
  })
}
