import type { Store } from '../store/store.ts'
import { LIFETIMES } from '../defaults.ts'
import { grantOf, grantSecret, grantTag, redeemKeys, revokeGrant } from './grants.ts'
import { REFRESH_TOKEN_PREFIX } from './policy.ts'

/** What a refresh token lets its client obtain again: the grant the person consented to. */
export interface RefreshGrant {
  sub: string
  clientId: string
  scope: string
  resource: string
}

// The grant a consent made, kept while its refresh tokens may be used; its tokens rotate on use.
const grantKey = (grantId: string) => `grant:${grantTag(grantId)}`

export const looksLikeRefreshToken = (token: string) => token.startsWith(REFRESH_TOKEN_PREFIX) && token.length <= 128

/** The grant a refresh token names (`<prefix><grant id>.<random>`), or undefined. */
export const refreshGrantOf = (token: string) =>
  looksLikeRefreshToken(token) ? grantOf(token.slice(REFRESH_TOKEN_PREFIX.length)) : undefined

/** Keeps a grant for its refresh tokens, from the consent's code on. */
export async function keepGrant(store: Store, grantId: string, grant: RefreshGrant): Promise<void> {
  await store.put(grantKey(grantId), grant, LIFETIMES.refreshToken)
}

/** The grant a refresh token names, read without using the token (to check a request first). */
export async function findGrant(
  store: Store,
  token: string,
): Promise<{ grantId: string; grant: RefreshGrant } | undefined> {
  const grantId = refreshGrantOf(token)
  const grant = grantId === undefined ? undefined : await store.get<RefreshGrant>(grantKey(grantId))
  return grant && { grantId: grantId!, grant }
}

/** Issues the grant's next refresh token; only its digest is stored. */
export async function issueRefreshToken(store: Store, grantId: string): Promise<string> {
  const token = `${REFRESH_TOKEN_PREFIX}${grantSecret(grantId)}`
  await store.put(redeemKeys('refresh', grantId, token).value, {}, LIFETIMES.refreshToken)
  return token
}

/**
 * Uses a refresh token, once across every replica, in one atomic step (Store.redeem). A token
 * presented again is a sign that it leaked (RFC 9700 §4.14.2): its grant is revoked, and with it
 * every token issued from it, and the answer is 'reused'.
 */
export async function useRefreshToken(
  store: Store,
  grantId: string,
  token: string,
): Promise<'used' | 'reused' | undefined> {
  const redeemed = await store.redeem(redeemKeys('refresh', grantId, token), LIFETIMES.refreshToken)
  if (redeemed === 'replayed') return 'reused'
  return typeof redeemed === 'object' ? 'used' : undefined
}

/** Ends a grant: none of its refresh tokens works again, nor any access token issued from it. */
export async function endGrant(store: Store, grantId: string): Promise<void> {
  await revokeGrant(store, grantId)
  await store.delete(grantKey(grantId))
}

/** RFC 7009: revoking a refresh token revokes its grant (and the access tokens issued from it). */
export async function revokeRefreshToken(store: Store, token: string): Promise<void> {
  const grantId = refreshGrantOf(token)
  if (grantId === undefined) return
  // Only a token that was issued (live or used) may end its grant: the id alone is not enough.
  const keys = redeemKeys('refresh', grantId, token)
  if (await store.has([keys.value, keys.used])) await endGrant(store, grantId)
}
