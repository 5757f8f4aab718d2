import type { Store } from '../store/store.ts'
import { CLOCK_SKEW_SECONDS } from '../defaults.ts'
import { grantRevokedKey, grantTag } from './grants.ts'

/** What names an access token for revocation: its id, and the grant it was issued from, if any. */
export interface RevocableToken {
  jti: string
  exp: number
  gid?: string
}

// Under the grant's hash tag, so that the token and its grant are checked in one command.
const revokedKey = ({ jti, gid }: RevocableToken) =>
  gid === undefined ? `revoked:${jti}` : `revoked:${grantTag(gid)}:${jti}`

/** Marks an access token revoked until it would have expired anyway (plus the skew allowance). */
export async function revokeTokenId(store: Store, token: RevocableToken, now = Date.now()): Promise<void> {
  const ttl = token.exp - Math.floor(now / 1000) + CLOCK_SKEW_SECONDS
  if (ttl > 0) await store.put(revokedKey(token), { revokedAt: new Date(now).toISOString() }, ttl)
}

/** Whether the token, or the grant it was issued from, is revoked: one store round trip. */
export function isTokenRevoked(store: Store, token: RevocableToken): Promise<boolean> {
  return store.has(token.gid === undefined ? revokedKey(token) : [revokedKey(token), grantRevokedKey(token.gid)])
}
