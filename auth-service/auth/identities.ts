import type { Store } from '../store/store.ts'
import { LIFETIMES } from '../defaults.ts'
import { API_KEY_PREFIX } from './policy.ts'
import { digest, randomSecret } from './secrets.ts'

export interface IdentityRecord {
  kind: 'anonymous'
  createdAt: string
  expiresAt: string
}

export interface RegisteredIdentity {
  id: string
  claimToken: string
  expiresAt: Date
}

const identityKey = (id: string) => `identity:${id}`
const IDENTITY_ID_PREFIX = 'agt_'
/** An identity's id: its prefix and 16 random bytes, base64url (22 characters). */
export const IDENTITY_ID_LENGTH = IDENTITY_ID_PREFIX.length + 22
const claimKey = (token: string) => `claim:${digest(token)}`

/**
 * Registers an anonymous agent identity. Its claim_token is returned once and kept only as a
 * digest; both records live as long as the identity_assertion that names the identity.
 */
export async function registerAnonymousIdentity(store: Store, now = Date.now()): Promise<RegisteredIdentity> {
  const id = `${IDENTITY_ID_PREFIX}${randomSecret(16)}`
  const claimToken = `${API_KEY_PREFIX}_claim_${randomSecret(32)}`
  const expiresAt = new Date(now + LIFETIMES.identityAssertion * 1000)
  const record: IdentityRecord = {
    kind: 'anonymous',
    createdAt: new Date(now).toISOString(),
    expiresAt: expiresAt.toISOString(),
  }
  await store.put(identityKey(id), record, LIFETIMES.identityAssertion)
  await store.put(claimKey(claimToken), { identity: id }, LIFETIMES.identityAssertion)
  return { id, claimToken, expiresAt }
}

export async function findIdentity(store: Store, id: string): Promise<IdentityRecord | undefined> {
  return store.get<IdentityRecord>(identityKey(id))
}

/** Removes an identity: its identity_assertion stops exchanging at once. */
export async function removeIdentity(store: Store, id: string): Promise<void> {
  await store.delete(identityKey(id))
}

/** The identity a claim token belongs to, if the token is live. */
export async function findClaim(store: Store, claimToken: string): Promise<string | undefined> {
  if (claimToken.length > 200) return undefined
  return (await store.get<{ identity: string }>(claimKey(claimToken)))?.identity
}
