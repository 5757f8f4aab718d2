import type { RequestHandler } from 'express'
import { ServiceError } from '../errors.ts'

/**
 * Refuses a path whose percent-encoding does not decode (`/%`, `/posts/%ff`: RFC 3986 §2.1 escapes
 * of bytes that are not UTF-8, RFC 3629) with a 400, before any route or the static site tries to
 * decode it and fails with a URIError. The fast paths hand such paths to the chain unanswered.
 */
export const refuseMalformedPath: RequestHandler = function refuseMalformedPath(req, _res, next) {
  const path = req.path
  if (path.includes('%')) {
    try {
      decodeURIComponent(path)
    } catch {
      throw new ServiceError(
        'invalid_request',
        'The path has malformed percent-encoding (RFC 3986 §2.1); escape "%" as %25.',
      )
    }
  }
  next()
}
