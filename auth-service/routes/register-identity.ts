import { registerAnonymousIdentity } from '../auth/identities.ts'
import { ID_JAG, SCOPES } from '../auth/policy.ts'
import { ServiceError } from '../errors.ts'
import { JSON_TYPES, bodyFields, isType, jsonBody, requiredField, sendJson } from '../http/forms.ts'
import { READ_ERRORS, error, json, noStore, ref } from './openapi-parts.ts'
import type { HandlerAction } from '../http/action.ts'
import { SITE_PAGES } from './documents.ts'

/**
 * POST /agent/identity (docs/api.md#the-agent-flow): anonymous registration;
 * the other methods are off on this host.
 */
export const registerIdentity: HandlerAction = {
  operation: () => ({
    tags: ['Agents'],
    summary: 'Register an agent identity',
    requestBody: { required: true, content: json(ref('IdentityRequest'), { type: 'anonymous' }) },
    responses: {
      '200': { description: 'An anonymous identity.', headers: noStore, content: json(ref('IdentityRegistration')) },
      '400': error(
        'invalid_request for a malformed body; anonymous_not_enabled, issuer_not_enabled or ' +
          'service_auth_not_enabled for a method that is off.',
        ['invalid_request', 'anonymous_not_enabled', 'issuer_not_enabled', 'service_auth_not_enabled'],
      ),
      '503': READ_ERRORS['503'],
    },
  }),
  handle: (ctx) => [
    jsonBody,
    async function registerIdentity(call) {
      call.res.setHeader('Cache-Control', 'no-store')
      if (!isType(call.req, JSON_TYPES))
        throw new ServiceError(
          'invalid_request',
          'Send a JSON body such as {"type": "anonymous"} with Content-Type: application/json.',
        )
      const fields = bodyFields(call.body)
      const type = requiredField(fields, 'type')
      switch (type) {
        case 'anonymous': {
          if (!ctx.anonymousRegistration)
            throw new ServiceError(
              'anonymous_not_enabled',
              'Anonymous registration is switched off on this host; pick another method.',
            )
          const identity = await registerAnonymousIdentity(ctx.store)
          const { token, claims } = await ctx.tokens.signIdentityAssertion({ sub: identity.id })
          ctx.onIssued('identity')
          sendJson(call, 200, {
            registration_id: identity.id,
            registration_type: 'anonymous',
            identity_assertion: token,
            assertion_expires: new Date(claims.exp * 1000).toISOString(),
            expires_in: claims.exp - claims.iat,
            scopes: [...SCOPES],
            claim_token: identity.claimToken,
            claim_token_expires: identity.expiresAt.toISOString(),
            claim_url: `${ctx.baseUrl}${SITE_PAGES.claim}?claim_token=${encodeURIComponent(identity.claimToken)}`,
            token_endpoint: ctx.url('exchangeToken'),
            resource: ctx.url('getCatalog'),
          })
          return
        }
        case 'identity_assertion': {
          const assertionType = requiredField(fields, 'assertion_type')
          requiredField(fields, 'assertion')
          if (assertionType !== ID_JAG)
            throw new ServiceError('invalid_request', `"assertion_type" must be "${ID_JAG}".`)
          throw new ServiceError(
            'issuer_not_enabled',
            'This host keeps no list of trusted ID-JAG issuers; register with {"type": "anonymous"} instead.',
          )
        }
        case 'service_auth':
          requiredField(fields, 'login_hint')
          throw new ServiceError(
            'service_auth_not_enabled',
            'This host has no end-user accounts; register with {"type": "anonymous"} instead.',
          )
        default:
          throw new ServiceError(
            'invalid_request',
            '"type" must be "anonymous", "identity_assertion" or "service_auth".',
          )
      }
    },
  ],
}
