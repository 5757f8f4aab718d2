import { grantedScope, requestedResource } from '../../auth/grant-request.ts'
import { findIdentity } from '../../auth/identities.ts'
import { InvalidTokenError, ServiceError } from '../../errors.ts'
import { optionalField, requiredField } from '../../http/forms.ts'
import type { Grant } from './grant.ts'

/**
 * RFC 7523 §2.1: an access token for the identity_assertion of a registered identity. The
 * identity is the grant of the tokens exchanged from its assertion: revoking it revokes them.
 */
export const jwtBearer: Grant = (ctx) => {
  const register = ctx.url('registerIdentity')
  return async (fields) => {
    const assertion = requiredField(fields, 'assertion')
    const resource = requestedResource(ctx.tokens.resources, optionalField(fields, 'resource'))
    const scope = grantedScope(optionalField(fields, 'scope'))
    let claims
    try {
      claims = await ctx.tokens.verifyIdentityAssertion(assertion)
    } catch (e) {
      if (e instanceof InvalidTokenError)
        throw new ServiceError(
          'invalid_grant',
          `The identity_assertion is not valid (${e.message}) Register again at ${register}.`,
          { cause: e },
        )
      throw e
    }
    if (!(await findIdentity(ctx.store, claims.sub)))
      throw new ServiceError(
        'invalid_grant',
        `The identity behind this identity_assertion no longer exists; register again at ${register}.`,
      )
    // The identity is the grant of the tokens exchanged from its assertion: revoking it revokes them.
    const { token, claims: issued } = await ctx.tokens.signAccessToken({
      sub: claims.sub,
      scope,
      resource,
      grantId: claims.sub,
    })
    ctx.onIssued('access_token')
    return { access_token: token, token_type: 'Bearer', expires_in: issued.exp - issued.iat, scope }
  }
}
