import type { Store } from '../store/store.ts'
import { LIFETIMES } from '../defaults.ts'
import { API_KEY_PREFIX, SCOPES } from './policy.ts'
import { digest, randomSecret, secretsEqual } from './secrets.ts'

const LIVE = `${API_KEY_PREFIX}_live_`
/** The shape of an issued key: the live prefix and 32 random bytes, base64url. */
export const API_KEY_PATTERN = `^${LIVE}[A-Za-z0-9_-]{43}$`
/** Characters of the secret kept in clear as the key's visible prefix, for recognising a key in lists. */
const VISIBLE = 8
/** The lengths of a key and of its visible prefix, as API_KEY_PATTERN and the prefix's slice make them. */
export const API_KEY_LENGTH = LIVE.length + 43
export const API_KEY_PREFIX_LENGTH = LIVE.length + VISIBLE

export interface IssuedApiKey {
  key: string
  prefix: string
  token_type: 'Bearer'
  scopes: string[]
  expires_in: number
  label: string | null
}

interface ApiKeyRecord {
  /** The key's digest again, checked in constant time on every use (defence in depth). */
  digest: string
  prefix: string
  label: string | null
  scopes: string[]
  createdAt: string
  expiresAt: string
}

export interface ApiKeyIdentity {
  subject: string
  scopes: readonly string[]
  /** The key's digest: what `isApiKeyLive` checks again on later calls. */
  digest: string
}

const recordKey = (keyDigest: string) => `api-key:${keyDigest}`

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(LIVE)
}

/** Issues a key: shown once in the response, stored only as a digest, expiring with its record. */
export async function issueApiKey(store: Store, label: string | null, now = Date.now()): Promise<IssuedApiKey> {
  const key = `${LIVE}${randomSecret(32)}`
  const prefix = key.slice(0, LIVE.length + VISIBLE)
  const keyDigest = digest(key)
  const record: ApiKeyRecord = {
    digest: keyDigest,
    prefix,
    label,
    scopes: [...SCOPES],
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + LIFETIMES.apiKey * 1000).toISOString(),
  }
  await store.put(recordKey(keyDigest), record, LIFETIMES.apiKey)
  return { key, prefix, token_type: 'Bearer', scopes: [...SCOPES], expires_in: LIFETIMES.apiKey, label }
}

/** The identity behind a presented key, or undefined when unknown, expired or revoked. */
export async function findApiKey(store: Store, key: string): Promise<ApiKeyIdentity | undefined> {
  if (!looksLikeApiKey(key) || key.length > 200) return undefined
  const keyDigest = digest(key)
  const record = await store.get<ApiKeyRecord>(recordKey(keyDigest))
  if (!record || !secretsEqual(record.digest, keyDigest)) return undefined
  return { subject: `key:${record.prefix}`, scopes: record.scopes, digest: keyDigest }
}

/** True while the key of this digest is stored: not revoked, not expired. One store read. */
export function isApiKeyLive(store: Store, keyDigest: string): Promise<boolean> {
  return store.has(recordKey(keyDigest))
}

export async function revokeApiKey(store: Store, key: string): Promise<void> {
  await store.delete(recordKey(digest(key)))
}
