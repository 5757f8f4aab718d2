import type { Response } from 'express'
import { findClaim, findIdentity } from '../auth/identities.ts'
import { GRANTS, SCOPES } from '../auth/policy.ts'
import { CLAIM_POLL_INTERVAL_SECONDS } from '../defaults.ts'
import { InvalidTokenError, ServiceError } from '../errors.ts'
import { formBody, formFields, optionalField, requiredField } from '../http/forms.ts'
import { oauthNoStore } from '../http/conditional.ts'
import { READ_ERRORS, error, json, noStore, ref } from './openapi-parts.ts'
import type { ActionContext, WriteAction } from './action.ts'

type Fields = Record<string, unknown>
type GrantHandler = (fields: Fields, res: Response) => Promise<void>

/** POST /oauth2/token: the token endpoint (RFC 6749 §5, RFC 7523), one handler per grant type. */
export const exchangeToken: WriteAction = {
  kind: 'write',
  operation: ({ url }) => ({
    tags: ['Agents'],
    summary: 'Token endpoint (jwt-bearer and claim grants)',
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
      '400': error('RFC 6749 §5.2 errors.', ['invalid_request', 'invalid_grant', 'invalid_target', 'invalid_scope', 'unsupported_grant_type', 'authorization_pending']),
      '503': READ_ERRORS['503'],
    },
  }),
  handle(ctx) {
    const grants = grantHandlers(ctx)
    return [
      oauthNoStore,
      formBody,
      async function exchangeToken(req, res) {
        const fields = formFields(req)
        const grantType = requiredField(fields, 'grant_type', 256)
        // client_id is accepted and ignored: the agent is a public client (auth method "none").
        optionalField(fields, 'client_id', 256)
        const grant = Object.hasOwn(grants, grantType) ? grants[grantType] : undefined
        if (!grant) throw new ServiceError('unsupported_grant_type', `Use "${GRANTS.jwtBearer}" (or the claim grant "${GRANTS.claim}").`)
        await grant(fields, res)
      },
    ]
  },
}

function grantHandlers(ctx: ActionContext): Record<string, GrantHandler> {
  const register = ctx.url('registerIdentity')
  return {
    async [GRANTS.jwtBearer](fields, res) {
      const assertion = requiredField(fields, 'assertion', 16_384)
      const resource = requestedResource(ctx, optionalField(fields, 'resource', 2048))
      const scope = grantedScope(optionalField(fields, 'scope', 512))
      let claims
      try {
        claims = await ctx.tokens.verifyIdentityAssertion(assertion)
      } catch (e) {
        if (e instanceof InvalidTokenError)
          throw new ServiceError('invalid_grant', `The identity_assertion is not valid (${e.message}) Register again at ${register}.`, { cause: e })
        throw e
      }
      if (!(await findIdentity(ctx.store, claims.sub)))
        throw new ServiceError('invalid_grant', `The identity behind this identity_assertion no longer exists; register again at ${register}.`)
      const { token, claims: issued } = await ctx.tokens.signAccessToken({ sub: claims.sub, scope, resource })
      ctx.onIssued('access_token')
      res.json({ access_token: token, token_type: 'Bearer', expires_in: issued.exp - issued.iat, scope })
    },
    async [GRANTS.claim](fields) {
      const claimToken = requiredField(fields, 'claim_token', 512)
      if (!(await findClaim(ctx.store, claimToken)))
        throw new ServiceError('invalid_grant', `The claim_token is unknown or expired; register again at ${register}.`)
      throw new ServiceError(
        'authorization_pending',
        `The claim is not complete; this host does not complete claims. Poll no faster than every ${CLAIM_POLL_INTERVAL_SECONDS} s, or exchange the identity_assertion instead.`,
      )
    },
  }
}

/** RFC 8707: the token is bound to the resource asked for, one of this service's; the REST API by default. */
export function requestedResource(ctx: Pick<ActionContext, 'tokens'>, requested: string | undefined): string {
  const { resources } = ctx.tokens
  if (requested === undefined) return resources[0]!
  if (!resources.includes(requested)) throw new ServiceError('invalid_target', `The resources here are ${resources.join(' and ')}.`)
  return requested
}

export function grantedScope(requested: string | undefined): string {
  if (requested === undefined || requested.trim() === '') return SCOPES.join(' ')
  const wanted = [...new Set(requested.trim().split(/ +/))]
  const unknown = wanted.filter((s) => !(SCOPES as readonly string[]).includes(s))
  if (unknown.length) throw new ServiceError('invalid_scope', `Unknown scope "${unknown[0]!.slice(0, 64)}"; this host grants ${SCOPES.join(' ')}.`)
  return SCOPES.filter((s) => wanted.includes(s)).join(' ')
}
