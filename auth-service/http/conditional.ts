import type { Request, Response } from 'express'
import type { PreparedBody } from '../articles/post-index.ts'

/** Short shared caching for API reads; `Vary: Authorization` keeps a bad token's 401 from being masked by a cache. */
export const API_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300'
/**
 * An answer to a credential: `public` would let a shared cache keep it per Authorization value
 * (RFC 9111 §3.5) and serve it after the key is revoked; the holder's own cache revalidates.
 */
export const CREDENTIAL_CACHE_CONTROL = 'private, no-cache'

/**
 * Sends a prepared JSON body with ETag and Last-Modified, answering 304 when the client's copy
 * is current (RFC 9110 §13.2.2: If-None-Match wins over If-Modified-Since).
 */
export function sendPrepared(req: Request, res: Response, prepared: PreparedBody, cacheControl = API_CACHE_CONTROL): void {
  res.setHeader('Cache-Control', req.headers.authorization === undefined ? cacheControl : CREDENTIAL_CACHE_CONTROL)
  res.setHeader('Vary', 'Authorization')
  res.setHeader('ETag', prepared.etag)
  res.setHeader('Last-Modified', prepared.lastModified)
  if (isNotModified(req, prepared)) {
    res.status(304).end()
    return
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8')
  res.setHeader('Content-Length', prepared.body.length)
  res.end(req.method === 'HEAD' ? undefined : prepared.body)
}

export function isNotModified(req: Pick<Request, 'headers'>, prepared: PreparedBody): boolean {
  const inm = req.headers['if-none-match']
  if (inm !== undefined) {
    if (inm.trim() === '*') return true
    // Weak comparison: W/"x" matches "x".
    return inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === prepared.etag)
  }
  const ims = req.headers['if-modified-since']
  if (ims !== undefined) {
    const since = Date.parse(ims)
    return !Number.isNaN(since) && Date.parse(prepared.lastModified) <= since
  }
  return false
}
