import { Router } from 'express'
import { ServiceError } from '../errors.ts'
import { bodyFields, formBody, jsonBody } from '../http/forms.ts'
import { issueApiKey } from '../auth/api-keys.ts'
import type { Store } from '../store/store.ts'

export const LABEL_MAX = 100

/** POST /api/v1/keys (spec §4.1): no body, JSON or a form, with an optional short `label`. */
export function keysRouter(store: Store, onIssued: (kind: 'api_key') => void = () => {}): Router {
  const router = Router()
  router.post('/api/v1/keys', jsonBody, formBody, async function createApiKey(req, res) {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined
    if (hasBody && req.body === undefined)
      throw new ServiceError('unsupported_media_type', 'Send the body as application/json or application/x-www-form-urlencoded, or send none.')
    const label = parseLabel(bodyFields(req.body).label)
    const issued = await issueApiKey(store, label)
    onIssued('api_key')
    res.setHeader('Cache-Control', 'no-store')
    res.status(201).json(issued)
  })
  return router
}

function parseLabel(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null
  if (typeof raw !== 'string') throw new ServiceError('invalid_request', `"label" must be a string of at most ${LABEL_MAX} characters.`)
  const label = raw.trim()
  if (label.length > LABEL_MAX) throw new ServiceError('invalid_request', `"label" must be at most ${LABEL_MAX} characters.`)
  // Control characters would corrupt logs and listings.
  if (/\p{Cc}/u.test(label)) throw new ServiceError('invalid_request', '"label" must not contain control characters.')
  return label === '' ? null : label
}
