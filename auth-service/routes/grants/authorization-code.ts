import { redeemCode, verifierMatches } from '../../auth/authorization-codes.ts'
import { findIdentity } from '../../auth/identities.ts'
import { keepGrant, type RefreshGrant } from '../../auth/refresh-tokens.ts'
import { ServiceError } from '../../errors.ts'
import { optionalField, requiredField } from '../../http/forms.ts'
import { issueTokens, type Grant } from './grant.ts'

/**
 * RFC 6749 §4.1.3 with RFC 7636: the code is redeemed once, by its client, with its verifier,
 * redirect URI and resource; a second use revokes what the first one issued (§4.1.2).
 */
export const authorizationCode: Grant = (ctx) => async (fields) => {
  const code = requiredField(fields, 'code')
  const redirectUri = requiredField(fields, 'redirect_uri')
  const clientId = requiredField(fields, 'client_id')
  const verifier = requiredField(fields, 'code_verifier')
  const resource = optionalField(fields, 'resource')
  const redeemed = await redeemCode(ctx.store, code)
  if (redeemed === 'replayed')
    throw new ServiceError(
      'invalid_grant',
      'The authorization code was already used; the tokens issued for it are revoked. ' +
        'Start the authorization again.',
    )
  if (!redeemed)
    throw new ServiceError(
      'invalid_grant',
      'The authorization code is unknown or expired; start the authorization again.',
    )
  const { grant, grantId } = redeemed
  if (grant.clientId !== clientId)
    throw new ServiceError('invalid_grant', 'The authorization code was issued to another client.')
  if (grant.redirectUri !== redirectUri)
    throw new ServiceError('invalid_grant', 'The redirect_uri is not the one of the authorization request.')
  if (!verifierMatches(verifier, grant.codeChallenge))
    throw new ServiceError('invalid_grant', 'The code_verifier does not match the code_challenge (S256).')
  if (resource !== undefined && resource !== grant.resource)
    throw new ServiceError(
      'invalid_target',
      `The code was issued for the resource ${grant.resource}; ask for that one, or for none.`,
    )
  if (!(await findIdentity(ctx.store, grant.sub)))
    throw new ServiceError(
      'invalid_grant',
      'The identity behind this code no longer exists; start the authorization again.',
    )
  const refreshGrant: RefreshGrant = { sub: grant.sub, clientId, scope: grant.scope, resource: grant.resource }
  if (grant.refresh) await keepGrant(ctx.store, grantId, refreshGrant)
  return issueTokens(ctx, refreshGrant, grantId, grant.refresh)
}
