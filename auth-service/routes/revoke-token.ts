import { looksLikeApiKey, revokeApiKey } from '../auth/api-keys.ts'
import { removeIdentity } from '../auth/identities.ts'
import { looksLikeRefreshToken, revokeRefreshToken } from '../auth/refresh-tokens.ts'
import { revokeGrant } from '../auth/grants.ts'
import { revokeTokenId } from '../auth/revocations.ts'
import { CLOCK_SKEW_SECONDS, LIFETIMES } from '../defaults.ts'
import { InvalidTokenError } from '../errors.ts'
import { oauthNoStore } from '../http/conditional.ts'
import { formBody, formFields, optionalField, requiredField } from '../http/forms.ts'
import { READ_ERRORS, error, ref } from './openapi-parts.ts'
import type { ActionContext, HandlerAction } from '../http/action.ts'

/** POST /oauth2/revoke (RFC 7009): revokes an API key, an access token, a refresh token or an identity_assertion. */
export const revokeToken: HandlerAction = {
  operation: () => ({
    tags: ['Agents'],
    summary: 'Revoke an access token, refresh token, API key or identity_assertion (RFC 7009)',
    requestBody: {
      required: true,
      content: { 'application/x-www-form-urlencoded': { schema: ref('RevocationRequest') } },
    },
    responses: {
      '200': { description: 'Revoked, or nothing to revoke: the answer is the same.' },
      '400': error('The token parameter is missing.', ['invalid_request']),
      '503': READ_ERRORS['503'],
    },
  }),
  handle: (ctx) => [
    oauthNoStore,
    formBody,
    async function revokeToken(call) {
      const fields = formFields(call)
      const token = requiredField(fields, 'token')
      optionalField(fields, 'token_type_hint')
      optionalField(fields, 'client_id')
      await revoke(ctx, token)
      // RFC 7009 §2.2: 200 whether or not the token was valid, so nothing about it leaks.
      call.res.writeHead(200, call.headers).end()
    },
  ],
}

/**
 * Revokes whatever the token is: an API key, a refresh token (its grant, and every access token
 * issued from it), an access token, or an identity_assertion (its identity, and the access tokens
 * exchanged from it).
 */
async function revoke(ctx: ActionContext, token: string): Promise<void> {
  if (looksLikeApiKey(token)) return revokeApiKey(ctx.store, token)
  if (looksLikeRefreshToken(token)) return revokeRefreshToken(ctx.store, token)
  try {
    const claims = await ctx.tokens.verifyAccessToken(token, { ignoreExpiry: true, anyResource: true })
    return revokeTokenId(ctx.store, claims)
  } catch (e) {
    if (!(e instanceof InvalidTokenError)) throw e
  }
  try {
    const claims = await ctx.tokens.verifyIdentityAssertion(token)
    // The identity is the grant of the access tokens exchanged from it: they end with it.
    await revokeGrant(ctx.store, claims.sub, LIFETIMES.accessToken + CLOCK_SKEW_SECONDS)
    return removeIdentity(ctx.store, claims.sub)
  } catch (e) {
    if (!(e instanceof InvalidTokenError)) throw e
  }
}
