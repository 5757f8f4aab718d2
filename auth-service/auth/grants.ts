import type { Store } from '../store/store.ts'
import { LIFETIMES } from '../defaults.ts'
import { digest, randomSecret } from './secrets.ts'

/**
 * A grant: what one consent (authorization code, then its refresh tokens) or one identity (the
 * access tokens exchanged from its identity_assertion) has issued. Every key of one grant carries
 * its id as a hash tag (`{id}`), so that the atomic steps on it stay in one Redis Cluster slot,
 * and revoking the grant is one key that every token issued from it is checked against.
 */
export const grantTag = (grantId: string) => `{${grantId}}`

const GRANT_ID = /^[A-Za-z0-9_-]{16,64}$/

export const newGrantId = () => randomSecret(16)

/** A single-use secret that names its grant: `<grant id>.<random>`; only its digest is stored. */
export function grantSecret(grantId: string): string {
  return `${grantId}.${randomSecret(32)}`
}

/** The grant a `<grant id>.<random>` secret names, or undefined for anything of another shape. */
export function grantOf(secret: string): string | undefined {
  const dot = secret.indexOf('.')
  const id = secret.slice(0, dot)
  return dot > 0 && GRANT_ID.test(id) && secret.length - dot > 32 ? id : undefined
}

/** The key whose presence revokes every token of a grant. */
export const grantRevokedKey = (grantId: string) => `grant-revoked:${grantTag(grantId)}`

/** The keys of one single-use secret of a grant (a code, a refresh token), for Store.redeem. */
export function redeemKeys(kind: string, grantId: string, secret: string) {
  const tag = grantTag(grantId)
  return {
    value: `${kind}:${tag}:${digest(secret)}`,
    used: `${kind}-used:${tag}:${digest(secret)}`,
    revoked: grantRevokedKey(grantId),
  }
}

/**
 * Revokes a grant: none of its codes, refresh tokens or access tokens works again. The mark lives
 * as long as anything issued from the grant could (`ttlSeconds`, refresh tokens' by default).
 */
export async function revokeGrant(
  store: Store,
  grantId: string,
  ttlSeconds: number = LIFETIMES.refreshToken,
): Promise<void> {
  await store.put(grantRevokedKey(grantId), { revokedAt: new Date().toISOString() }, ttlSeconds)
}
