import type { Store } from '../store/store.ts'
import { CLOCK_SKEW_SECONDS } from '../defaults.ts'

const revokedKey = (jti: string) => `revoked:${jti}`

/** Marks an access token revoked until it would have expired anyway (plus the skew allowance). */
export async function revokeTokenId(store: Store, jti: string, exp: number, now = Date.now()): Promise<void> {
  const ttl = exp - Math.floor(now / 1000) + CLOCK_SKEW_SECONDS
  if (ttl > 0) await store.put(revokedKey(jti), { revokedAt: new Date(now).toISOString() }, ttl)
}

export function isTokenRevoked(store: Store, jti: string): Promise<boolean> {
  return store.has(revokedKey(jti))
}
