/**
 * The schemas of the errors the service sends: the one error body of the API, agent and OAuth
 * endpoints, and the error of the Security Event Token receiver.
 */
import { ERROR_CODES, ERROR_DESCRIPTION_MAX, EVENT_ERROR_CODES } from '../errors.ts'
import { oneOf, text } from './shared.ts'

export const ERROR_SCHEMAS = {
  Error: {
    type: 'object',
    description: 'Every error of the API, agent and OAuth endpoints (RFC 6749 §5.2 shape).',
    properties: {
      error: { ...oneOf(ERROR_CODES), description: 'A stable code to act on.' },
      error_description: { ...text(ERROR_DESCRIPTION_MAX), description: 'One sentence saying what to fix.' },
    },
    required: ['error', 'error_description'],
    additionalProperties: false,
  },
  EventError: {
    type: 'object',
    description: 'RFC 8935 §2.4 error of the Security Event Token receiver.',
    properties: {
      err: oneOf(EVENT_ERROR_CODES),
      description: text(ERROR_DESCRIPTION_MAX),
    },
    required: ['err', 'description'],
    additionalProperties: false,
  },
} as const
