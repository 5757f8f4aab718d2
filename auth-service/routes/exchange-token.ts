import { GRANTS } from '../auth/policy.ts'
import { ServiceError } from '../errors.ts'
import type { HandlerAction } from '../http/action.ts'
import { oauthNoStore } from '../http/conditional.ts'
import { formBody, formFields, optionalField, requiredField, sendJson } from '../http/forms.ts'
import { authorizationCode } from './grants/authorization-code.ts'
import { claim } from './grants/claim.ts'
import type { Fields, Grant } from './grants/grant.ts'
import { jwtBearer } from './grants/jwt-bearer.ts'
import { refreshToken } from './grants/refresh-token.ts'
import { READ_ERRORS, error, json, noStore, ref } from './openapi-parts.ts'

/** The grant types the token endpoint answers, one module each (grants/). */
const GRANT_TYPES: Record<string, Grant> = {
  [GRANTS.jwtBearer]: jwtBearer,
  [GRANTS.authorizationCode]: authorizationCode,
  [GRANTS.refreshToken]: refreshToken,
  [GRANTS.claim]: claim,
}

/** POST /oauth2/token: the token endpoint (RFC 6749 §5, RFC 7523), one handler per grant type. */
export const exchangeToken: HandlerAction = {
  operation: ({ url }) => ({
    tags: ['Agents'],
    summary: 'Token endpoint (jwt-bearer, authorization_code with PKCE, refresh_token and claim grants)',
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: ref('TokenRequest'),
          example: { grant_type: GRANTS.jwtBearer, assertion: '<identity_assertion>', resource: url('getCatalog') },
        },
      },
    },
    responses: {
      '200': { description: 'An access token (RFC 6749 §5.1).', headers: noStore, content: json(ref('TokenResponse')) },
      '400': error('RFC 6749 §5.2 errors.', [
        'invalid_request',
        'invalid_grant',
        'invalid_target',
        'invalid_scope',
        'unsupported_grant_type',
        'authorization_pending',
      ]),
      '503': READ_ERRORS['503'],
    },
  }),
  handle(ctx) {
    const grants = new Map(Object.entries(GRANT_TYPES).map(([type, grant]) => [type, grant(ctx)]))
    // The token endpoint's steps: never cached (RFC 6749 §5.1), the form read, its grant's answer.
    return [oauthNoStore, formBody, async (call) => sendJson(call, 200, await exchange(grants, formFields(call)))]
  },
}

/** One token request: its grant type answers it (RFC 6749 §5.1), or 400 unsupported_grant_type. */
function exchange(grants: Map<string, ReturnType<Grant>>, fields: Fields): Promise<Record<string, unknown>> {
  const grantType = requiredField(fields, 'grant_type')
  // Public clients only (auth method "none"): client_id identifies, it does not authenticate;
  // the grants that are bound to a client check it, the jwt-bearer grant ignores it.
  optionalField(fields, 'client_id')
  const grant = grants.get(grantType)
  if (!grant)
    throw new ServiceError(
      'unsupported_grant_type',
      `Use "${GRANTS.jwtBearer}", "${GRANTS.authorizationCode}" or "${GRANTS.refreshToken}" ` +
        `(or the claim grant "${GRANTS.claim}").`,
    )
  return grant(fields)
}
