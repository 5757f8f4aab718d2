import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { pino, type Logger } from 'pino'
import { batchedLines, type BatchedLines, type BufferSink, type HoldLimits } from './log-batch.ts'

/**
 * Query parameters whose values are credentials (the claim page link, for one), or the
 * authorization request's `state`, which the client uses against CSRF (RFC 6749 §10.12).
 */
const SECRET_PARAM = /token|assertion|key|secret|code|password|state/i
const REQUEST_ID = /^[\w.-]{1,100}$/

/**
 * pino's isoTime, formatted once per millisecond: a busy server writes many lines in each, and
 * formatting a date was a measurable part of a read's cost.
 */
function isoTimeEachMillisecond(): () => string {
  let ms = -1
  let field = ''
  return () => {
    const now = Date.now()
    if (now !== ms) {
      ms = now
      field = `,"time":"${new Date(now).toISOString()}"`
    }
    return field
  }
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: isoTimeEachMillisecond(),
      // Credentials never reach the log, whatever a caller sends.
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["proxy-authorization"]',
          'res.headers["set-cookie"]',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? bufferedDestination(),
  )
}

/**
 * Where log lines go: standard output unless `dest` names a file. Lines are gathered for a
 * moment and handed to the file writer (sonic-boom) as one buffer (log-batch.ts), which writes
 * them without blocking; if it falls 16 MiB behind, lines are dropped rather than held in
 * memory without bound.
 */
export function bufferedDestination(dest: number | string = 1, limits?: HoldLimits): BatchedLines {
  const sink = pino.destination({ dest, sync: false, maxLength: 16 * 1024 * 1024, contentMode: 'buffer' })
  return batchedLines(sink as unknown as BufferSink, limits)
}

/** Writes the one request line of an answer (http/pipeline.ts): its request id, status and time. */
export type RequestLog = (req: IncomingMessage, id: string, status: number, ms: number) => void

/**
 * The pipeline's request lines, in the logger's sink, level and format: the line pino writes
 * for them (test/unit/request-log.test.ts compares the two), written here because its shape is
 * fixed and pino's general path (serializers, redaction, its own stringify) was a measurable
 * part of a read's cost. The fields come from REQUEST_SERIALIZERS, which never carry a credential.
 * An answer of 5xx is logged as an error.
 */
export function requestLog(logger: Logger): RequestLog {
  const stream = (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym]!
  const time = isoTimeEachMillisecond()
  const tail = `,"msg":${JSON.stringify(REQUEST_COMPLETED)}}\n`
  return (req, id, status, ms) => {
    const level = status >= 500 ? 'error' : 'info'
    if (!logger.isLevelEnabled(level)) return
    const fields = REQUEST_SERIALIZERS.req({
      id,
      method: req.method,
      url: req.url,
      headers: req.headers,
      remoteAddress: req.socket.remoteAddress,
    })
    stream.write(
      `{"level":${logger.levels.values[level]}${time()},"req":${JSON.stringify(fields)},` +
        `"res":{"statusCode":${status}},"responseTime":${Math.round(ms)}${tail}`,
    )
  }
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
function redactUrl(url: string): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const params = new URLSearchParams(url.slice(q + 1))
  for (const name of [...params.keys()]) if (SECRET_PARAM.test(name)) params.set(name, '[redacted]')
  return `${url.slice(0, q)}?${params}`
}

/** The request id: X-Request-Id when the proxy sent a sane one, else a fresh one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
}

/** The message of every request's log line. */
export const REQUEST_COMPLETED = 'request completed'

interface LoggedRequest {
  id: string
  method?: string
  url?: string
  headers: IncomingMessage['headers']
  remoteAddress?: string
}

/** The `req` and `res` of a request's log line: no credential, no query secret. */
export const REQUEST_SERIALIZERS = {
  req: (req: LoggedRequest) => ({
    id: req.id,
    method: req.method,
    url: redactUrl(req.url ?? ''),
    remoteAddress: req.remoteAddress,
    userAgent: req.headers['user-agent'],
    authorization: req.headers.authorization ? '[redacted]' : undefined,
  }),
  res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
}
