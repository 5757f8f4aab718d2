/**
 * What `npm run build` and a warm builder say to each other over its socket: one JSON object a
 * line. The client sends one request; the builder answers `started` (it builds), or `declined`
 * (the client builds in its own process), then the build's output as it comes, then `exit`.
 */
import { StringDecoder } from 'node:string_decoder'

export interface BuildRequest {
  /** The client's arguments (`--no-search`) and its whole environment: the build is the one it would run. */
  argv: string[]
  env: Record<string, string>
}

export type BuilderMessage =
  | { started: true }
  | { declined: string }
  /** What the build wrote to its standard output and error, as written. */
  | { out: string }
  | { err: string }
  | { exit: number }

/** The exit status with which a warm builder asks `npm start` for a new one (EX_TEMPFAIL, sysexits(3)). */
export const RESTART_STATUS = 75

/**
 * The exit statuses of a builder stopped by a signal to its server's process group (128 + the
 * signal's number, as a shell reports it): its server is stopping, and wants no successor.
 */
export const STOP_STATUS = { SIGINT: 130, SIGTERM: 143 } as const

/** A request is an environment and a few arguments: far below this. */
export const MAX_REQUEST_BYTES = 1024 * 1024
/** A client that connected says what it wants at once; one that does not is let go. */
export const REQUEST_TIMEOUT_MS = 5_000

/** The request in `line`, or why it is not one. */
export function parseRequest(line: string): BuildRequest | string {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return 'the request is not JSON'
  }
  if (typeof value !== 'object' || value === null) return 'the request is not an object'
  const { argv, env } = value as Record<string, unknown>
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return 'argv must be a list of strings'
  if (typeof env !== 'object' || env === null || Array.isArray(env)) return 'env must be an object'
  if (!Object.values(env).every((v) => typeof v === 'string')) return 'env values must be strings'
  return { argv, env: env as Record<string, string> }
}

/**
 * Splits a stream's chunks into lines, refusing a line longer than `max` bytes (`onTooLong`),
 * so that a peer cannot make this process hold an endless line.
 */
export function lineReader(max: number, onLine: (line: string) => void, onTooLong: () => void) {
  // A character's bytes may arrive in two chunks.
  const decoder = new StringDecoder('utf8')
  let pending = ''
  return (chunk: Buffer) => {
    pending += decoder.write(chunk)
    let at = pending.indexOf('\n')
    while (at >= 0) {
      onLine(pending.slice(0, at))
      pending = pending.slice(at + 1)
      at = pending.indexOf('\n')
    }
    if (Buffer.byteLength(pending) > max) {
      pending = ''
      onTooLong()
    }
  }
}

/** One message as its line. */
export const messageLine = (m: BuildRequest | BuilderMessage) => `${JSON.stringify(m)}\n`
