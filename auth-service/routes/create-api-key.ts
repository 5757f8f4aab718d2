import { issueApiKey } from '../auth/api-keys.ts'
import { SCOPES } from '../auth/policy.ts'
import { LABEL_MAX, LIFETIMES } from '../defaults.ts'
import { ServiceError } from '../errors.ts'
import { FORM_TYPE, JSON_TYPES, bodyFields, formBody, hasBody, isType, jsonBody, sendJson } from '../http/forms.ts'
import { READ_ERRORS, error, json, noStore, ref } from './openapi-parts.ts'
import type { Call, HandlerAction } from '../http/action.ts'
import { describeDuration } from '../../model/duration.ts'

/** POST /api/v1/keys (docs/api.md#an-api-key): no body, JSON or a form, with an optional short `label`. */
export const createApiKey: HandlerAction = {
  operation: () => ({
    tags: ['Keys'],
    summary: 'Issue an API key',
    description:
      `The body is optional. The key is shown once, expires after ${describeDuration(LIFETIMES.apiKey)}, ` +
      `and carries ${SCOPES.join(' and ')}.`,
    requestBody: {
      required: false,
      content: {
        'application/json': { schema: ref('KeyRequest'), example: { label: 'nightly crawler' } },
        'application/x-www-form-urlencoded': { schema: ref('KeyRequest') },
      },
    },
    responses: {
      '201': {
        description: 'The new key.',
        headers: noStore,
        content: json(ref('ApiKey'), {
          key: 'lat_live_Ab3dE9xQ7vNw2Lk5TgHs0pYc8RfUe1JmZo4iBq6Xa_D',
          prefix: 'lat_live_Ab3dE9xQ',
          token_type: 'Bearer',
          scopes: [...SCOPES],
          expires_in: LIFETIMES.apiKey,
          label: 'nightly crawler',
        }),
      },
      '400': error('A label that is not a short string, or a malformed body.', ['invalid_request']),
      '401': READ_ERRORS['401'],
      '415': error('The body is neither JSON nor a form.', ['unsupported_media_type']),
      '503': READ_ERRORS['503'],
    },
  }),
  handle: (ctx) => [
    jsonBody,
    formBody,
    async function createApiKey(call) {
      const label = parseLabel(call)
      const issued = await issueApiKey(ctx.store, label)
      ctx.onIssued('api_key')
      call.res.setHeader('Cache-Control', 'no-store')
      sendJson(call, 201, issued)
    },
  ],
}

function parseLabel({ req, body }: Call): string | null {
  if (hasBody(req) && !isType(req, [...JSON_TYPES, FORM_TYPE]))
    throw new ServiceError(
      'unsupported_media_type',
      'Send the body as application/json or application/x-www-form-urlencoded, or send none.',
    )
  const raw = bodyFields(body).label
  if (raw === undefined || raw === null) return null
  if (typeof raw !== 'string')
    throw new ServiceError('invalid_request', `"label" must be a string of at most ${LABEL_MAX} characters.`)
  const label = raw.trim()
  if (label.length > LABEL_MAX)
    throw new ServiceError('invalid_request', `"label" must be at most ${LABEL_MAX} characters.`)
  // Control characters would corrupt logs and listings.
  if (/\p{Cc}/u.test(label)) throw new ServiceError('invalid_request', '"label" must not contain control characters.')
  return label === '' ? null : label
}
