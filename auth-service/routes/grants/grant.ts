import { issueRefreshToken, type RefreshGrant } from '../../auth/refresh-tokens.ts'
import type { ActionContext } from '../../http/action.ts'

/** A request's fields, as the token endpoint read them from its form. */
export type Fields = Record<string, unknown>

/**
 * One grant type of the token endpoint (RFC 6749 §4): built once, it answers a token request's
 * fields with the token response's body (§5.1), or refuses by throwing (§5.2).
 */
export type Grant = (ctx: ActionContext) => (fields: Fields) => Promise<Record<string, unknown>>

/** An access token from a grant, and with `refresh` the grant's next refresh token. */
export async function issueTokens(ctx: ActionContext, grant: RefreshGrant, grantId: string, refresh: boolean) {
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
