import { grantedScope } from '../../auth/grant-request.ts'
import { findIdentity } from '../../auth/identities.ts'
import { endGrant, findGrant, useRefreshToken } from '../../auth/refresh-tokens.ts'
import { ServiceError } from '../../errors.ts'
import { optionalField, requiredField } from '../../http/forms.ts'
import { issueTokens, type Grant } from './grant.ts'

/**
 * RFC 6749 §6; each refresh token is used once and replaced (RFC 9700 §4.14.2): a reused one
 * revokes its grant. A request that asks for more than the grant is refused before the token
 * is used, so that it leaves the grant as it was.
 */
export const refreshToken: Grant = (ctx) => async (fields) => {
  const token = requiredField(fields, 'refresh_token')
  const clientId = requiredField(fields, 'client_id')
  const resource = optionalField(fields, 'resource')
  const requestedScope = optionalField(fields, 'scope')
  const found = await findGrant(ctx.store, token)
  if (!found)
    throw new ServiceError(
      'invalid_grant',
      'The refresh token is unknown, expired or revoked; start the authorization again.',
    )
  const { grant, grantId } = found
  if (resource !== undefined && resource !== grant.resource)
    throw new ServiceError(
      'invalid_target',
      `The refresh token is for the resource ${grant.resource}; ask for that one, or for none.`,
    )
  let scope = grant.scope
  if (requestedScope !== undefined && requestedScope.trim() !== '') {
    scope = grantedScope(requestedScope)
    if (scope.split(' ').some((s) => !grant.scope.split(' ').includes(s)))
      throw new ServiceError('invalid_scope', `This grant covers only "${grant.scope}".`)
  }
  const used = await useRefreshToken(ctx.store, grantId, token)
  if (used === 'reused')
    throw new ServiceError(
      'invalid_grant',
      'The refresh token was already used; every token of this grant is now revoked. ' +
        'Start the authorization again.',
    )
  if (!used)
    throw new ServiceError(
      'invalid_grant',
      'The refresh token is unknown, expired or revoked; start the authorization again.',
    )
  if (grant.clientId !== clientId) {
    await endGrant(ctx.store, grantId)
    throw new ServiceError('invalid_grant', 'The refresh token was issued to another client; it is now revoked.')
  }
  if (!(await findIdentity(ctx.store, grant.sub))) {
    await endGrant(ctx.store, grantId)
    throw new ServiceError(
      'invalid_grant',
      'The identity behind this refresh token no longer exists; start the authorization again.',
    )
  }
  return issueTokens(ctx, { ...grant, scope }, grantId, true)
}
