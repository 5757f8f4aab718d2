import type { Store } from '../store/store.ts'
import { LIFETIMES } from '../defaults.ts'
import { REFRESH_TOKEN_PREFIX } from './policy.ts'
import { revokeTokenId } from './revocations.ts'
import { digest, randomSecret } from './secrets.ts'

/** What a refresh token lets its client obtain again: the grant the person consented to. */
export interface RefreshGrant {
  sub: string
  clientId: string
  scope: string
  resource: string
}

/**
 * A family: the refresh tokens that descend from one consent by rotation. It remembers the last
 * access token issued in it, so that revoking the family also revokes that token.
 */
interface Family {
  grant: RefreshGrant
  jti?: string
  exp?: number
}

const familyKey = (id: string) => `refresh-family:${id}`
const tokenKey = (token: string) => `refresh:${digest(token)}`
const usedKey = (token: string) => `refresh-used:${digest(token)}`

export const looksLikeRefreshToken = (token: string) => token.startsWith(REFRESH_TOKEN_PREFIX) && token.length <= 128

/** Starts a family for a new consent; returns its id. */
export async function startFamily(store: Store, grant: RefreshGrant): Promise<string> {
  const id = randomSecret(16)
  await store.put(familyKey(id), { grant } satisfies Family, LIFETIMES.refreshToken)
  return id
}

/** Issues the family's next refresh token and notes the access token issued beside it. */
export async function issueRefreshToken(store: Store, familyId: string, grant: RefreshGrant, accessToken: { jti: string; exp: number }): Promise<string> {
  const token = `${REFRESH_TOKEN_PREFIX}${randomSecret(32)}`
  await store.put(familyKey(familyId), { grant, jti: accessToken.jti, exp: accessToken.exp } satisfies Family, LIFETIMES.refreshToken)
  await store.put(tokenKey(token), { family: familyId }, LIFETIMES.refreshToken)
  return token
}

/**
 * Uses a refresh token, once (an atomic take, so two replicas cannot both rotate it). A token
 * presented again is a sign that it leaked (RFC 9700 §4.14.2): its whole family is revoked and
 * the answer is 'reused'.
 */
export async function useRefreshToken(store: Store, token: string): Promise<{ familyId: string; grant: RefreshGrant } | 'reused' | undefined> {
  if (!looksLikeRefreshToken(token)) return undefined
  const record = await store.take<{ family: string }>(tokenKey(token))
  if (!record) {
    const used = await store.get<{ family: string }>(usedKey(token))
    if (!used) return undefined
    await revokeFamily(store, used.family)
    return 'reused'
  }
  await store.put(usedKey(token), { family: record.family }, LIFETIMES.refreshToken)
  const family = await store.get<Family>(familyKey(record.family))
  return family ? { familyId: record.family, grant: family.grant } : undefined
}

/** Ends a family: none of its refresh tokens works again, nor its latest access token. */
export async function revokeFamily(store: Store, familyId: string): Promise<void> {
  const family = await store.get<Family>(familyKey(familyId))
  await store.delete(familyKey(familyId))
  if (family?.jti && family.exp) await revokeTokenId(store, family.jti, family.exp)
}

/** RFC 7009: revoking a refresh token revokes its family (and the access token issued with it). */
export async function revokeRefreshToken(store: Store, token: string): Promise<void> {
  if (!looksLikeRefreshToken(token)) return
  const record = (await store.get<{ family: string }>(tokenKey(token))) ?? (await store.get<{ family: string }>(usedKey(token)))
  if (record) await revokeFamily(store, record.family)
}
