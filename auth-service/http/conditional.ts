import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Step } from './action.ts'
import fresh from 'fresh'
import type { PreparedBody } from '../../post-index/post-index.ts'
import { ServiceError } from '../errors.ts'

/** Short shared caching for API reads; `Vary: Authorization` keeps a bad token's 401 from being masked by a cache. */
export const API_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300'
/**
 * An answer to a credential: `public` would let a shared cache keep it per Authorization value
 * (RFC 9111 §3.5) and serve it after the key is revoked; the holder's own cache revalidates.
 */
export const CREDENTIAL_CACHE_CONTROL = 'private, no-cache'

/**
 * The answer to every successful read, in one write: a prepared JSON body with its validators,
 * or 304 when the client's copy is current (RFC 9110 §13.2.2, via `fresh`). `headers` are
 * further name/value pairs to send (the pipeline passes the frame's headers here).
 * Returns the status sent.
 */
export function sendPrepared(
  req: IncomingMessage,
  res: ServerResponse,
  prepared: PreparedBody,
  cacheControl = API_CACHE_CONTROL,
  headers: string[] = [],
): number {
  if (!preconditionsHold(req, prepared))
    throw new ServiceError(
      'precondition_failed',
      'If-Match or If-Unmodified-Since did not hold: the answer changed; read it again without them.',
    )
  const caching = req.headers.authorization === undefined ? cacheControl : CREDENTIAL_CACHE_CONTROL
  headers.push(
    'Cache-Control',
    caching,
    'Vary',
    'Authorization',
    'ETag',
    prepared.etag,
    'Last-Modified',
    prepared.lastModified,
  )
  if (prepared.headers) headers.push(...prepared.headers)
  // Only the preconditions are handed to `fresh`: its reading of a request's `Cache-Control:
  // no-cache` is a cache's (RFC 9111 §5.2.1.4), while an origin evaluates preconditions as sent
  // (RFC 9110 §13.2.1), and fetch() adds no-cache to every request with If-None-Match.
  const conditions = {
    'if-none-match': req.headers['if-none-match'],
    'if-modified-since': req.headers['if-modified-since'],
  }
  if (fresh(conditions, { etag: prepared.etag, 'last-modified': prepared.lastModified })) {
    res.writeHead(304, headers).end()
    return 304
  }
  headers.push(
    'Content-Type',
    prepared.contentType ?? 'application/json; charset=utf-8',
    'Content-Length',
    String(prepared.body.length),
  )
  res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : prepared.body)
  return 200
}

/**
 * The preconditions that can refuse a read (RFC 9110 §13.2.2 steps 1 and 2): If-Match, compared
 * strongly, or without it If-Unmodified-Since (ignored when not a date). False means 412, as
 * nginx answers them from an article's file or its cache.
 */
export function preconditionsHold(req: IncomingMessage, prepared: PreparedBody): boolean {
  const ifMatch = req.headers['if-match']
  if (ifMatch !== undefined)
    return ifMatch.trim() === '*' || ifMatch.split(',').some((tag) => tag.trim() === prepared.etag)
  const since = req.headers['if-unmodified-since']
  const sinceMs = since === undefined ? Number.NaN : Date.parse(since)
  return Number.isNaN(sinceMs) || Date.parse(prepared.lastModified) <= sinceMs
}

/**
 * Names the build an answer of the post index came from (see PostIndex.build): the edge cache
 * (deploy/nginx) stores an answer under the build it serves only when the two agree, so a
 * replica that has not loaded a new build yet cannot fill the new build's cache with old answers.
 */
export function buildHeader(index: { build?: string } | undefined): string[] {
  return index?.build ? ['Lattice-Build', index.build] : []
}

/** RFC 6749 §5.1: token responses and their errors are never cached. */
export const oauthNoStore: Step = ({ res }) => {
  res.setHeader('Cache-Control', 'no-store')
  res.setHeader('Pragma', 'no-cache')
}
