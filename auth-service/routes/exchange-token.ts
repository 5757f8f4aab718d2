import type { Request, Response } from 'express'
import { redeemCode, verifierMatches } from '../auth/authorization-codes.ts'
import { findClaim, findIdentity } from '../auth/identities.ts'
import {
  endGrant,
  findGrant,
  issueRefreshToken,
  keepGrant,
  useRefreshToken,
  type RefreshGrant,
} from '../auth/refresh-tokens.ts'
import { grantedScope, requestedResource } from '../auth/grant-request.ts'
import { GRANTS } from '../auth/policy.ts'
import { CLAIM_POLL_INTERVAL_SECONDS } from '../defaults.ts'
import { InvalidTokenError, ServiceError } from '../errors.ts'
import { formBody, formFields, optionalField, requiredField } from '../http/forms.ts'
import { oauthNoStore } from '../http/conditional.ts'
import { READ_ERRORS, error, json, noStore, ref } from './openapi-parts.ts'
import type { ActionContext, HandlerAction } from '../http/action.ts'

type Fields = Record<string, unknown>
type GrantHandler = (fields: Fields, res: Response) => Promise<void>

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
    const grants = grantHandlers(ctx)
    return [oauthNoStore, formBody, (req, res) => exchange(grants, req, res)]
  },
}

/** One token request: its grant type's handler answers it (RFC 6749 §5.1), or 400 unsupported_grant_type. */
async function exchange(grants: Record<string, GrantHandler>, req: Request, res: Response): Promise<void> {
  const fields = formFields(req)
  const grantType = requiredField(fields, 'grant_type')
  // Public clients only (auth method "none"): client_id identifies, it does not authenticate;
  // the grants that are bound to a client check it, the jwt-bearer grant ignores it.
  optionalField(fields, 'client_id')
  const grant = Object.hasOwn(grants, grantType) ? grants[grantType] : undefined
  if (!grant)
    throw new ServiceError(
      'unsupported_grant_type',
      `Use "${GRANTS.jwtBearer}", "${GRANTS.authorizationCode}" or "${GRANTS.refreshToken}" ` +
        `(or the claim grant "${GRANTS.claim}").`,
    )
  await grant(fields, res)
}

function grantHandlers(ctx: ActionContext): Record<string, GrantHandler> {
  const register = ctx.url('registerIdentity')

  /** An access token from a grant, and with `refresh` the grant's next refresh token. */
  async function issueTokens(grant: RefreshGrant, grantId: string, refresh: boolean) {
    const { token, claims } = await ctx.tokens.signAccessToken({ ...grant, grantId })
    ctx.onIssued('access_token')
    const body: Record<string, unknown> = {
      access_token: token,
      token_type: 'Bearer',
      expires_in: claims.exp - claims.iat,
      scope: grant.scope,
    }
    if (refresh) body.refresh_token = await issueRefreshToken(ctx.store, grantId)
    return body
  }
  return {
    async [GRANTS.jwtBearer](fields, res) {
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
      res.json({ access_token: token, token_type: 'Bearer', expires_in: issued.exp - issued.iat, scope })
    },
    // RFC 6749 §4.1.3 with RFC 7636: the code is redeemed once, by its client, with its verifier,
    // redirect URI and resource; a second use revokes what the first one issued (§4.1.2).
    async [GRANTS.authorizationCode](fields, res) {
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
      res.json(await issueTokens(refreshGrant, grantId, grant.refresh))
    },
    // RFC 6749 §6; each refresh token is used once and replaced (RFC 9700 §4.14.2): a reused one
    // revokes its grant. A request that asks for more than the grant is refused before the token
    // is used, so that it leaves the grant as it was.
    async [GRANTS.refreshToken](fields, res) {
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
      res.json(await issueTokens({ ...grant, scope }, grantId, true))
    },
    async [GRANTS.claim](fields) {
      const claimToken = requiredField(fields, 'claim_token')
      if (!(await findClaim(ctx.store, claimToken)))
        throw new ServiceError('invalid_grant', `The claim_token is unknown or expired; register again at ${register}.`)
      throw new ServiceError(
        'authorization_pending',
        'The claim is not complete; this host does not complete claims. ' +
          `Poll no faster than every ${CLAIM_POLL_INTERVAL_SECONDS} s, or exchange the identity_assertion instead.`,
      )
    },
  }
}
