import { FIELD_LIMITS } from '../defaults.ts'
import { ServiceError } from '../errors.ts'
import { bodyFields, formBody, jsonBody, optionalField } from '../http/forms.ts'
import { error } from './openapi-parts.ts'
import type { HandlerAction } from '../http/action.ts'

const CLAIM_REQUEST = {
  type: 'object',
  properties: { claim_token: { type: 'string', maxLength: FIELD_LIMITS.claim_token } },
}

/** POST /agent/identity/claim (docs/api.md#the-agent-flow): the claim ceremony, never completed on this host. */
export const claimIdentity: HandlerAction = {
  operation: () => ({
    tags: ['Agents'],
    summary: 'Claim ceremony (never completed on this host)',
    requestBody: {
      required: false,
      content: {
        'application/json': { schema: CLAIM_REQUEST },
        'application/x-www-form-urlencoded': { schema: CLAIM_REQUEST },
      },
    },
    responses: {
      '400': error('Always claimed_or_in_flight: exchange the identity_assertion instead.', [
        'claimed_or_in_flight',
        'invalid_request',
      ]),
    },
  }),
  handle: () => [
    jsonBody,
    formBody,
    function claimIdentity({ res, body }) {
      res.setHeader('Cache-Control', 'no-store')
      optionalField(bodyFields(body), 'claim_token')
      // Claims are never completed here, whatever the token: the agent keeps exchanging its
      // identity_assertion. The same answer for every token also reveals nothing about them.
      throw new ServiceError(
        'claimed_or_in_flight',
        'This host does not complete claims; the agent keeps its identity and should exchange its ' +
          'identity_assertion at the token endpoint.',
      )
    },
  ],
}
