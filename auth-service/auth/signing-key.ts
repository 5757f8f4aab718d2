import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto'
import { calculateJwkThumbprint, exportJWK } from 'jose'
import type { Store } from '../store/store.ts'
import { LIFETIMES } from '../defaults.ts'
import { SigningKeyError } from '../errors.ts'
import { open, seal } from './sealed-box.ts'

export interface SigningKey {
  readonly kid: string
  readonly alg: 'ES256'
  readonly privateKey: KeyObject
  readonly publicKey: KeyObject
  /** The public half as published in the JWKS. */
  readonly publicJwk: PublicJwk
}

export interface PublicJwk {
  kty: string
  crv: string
  x: string
  y: string
  kid: string
  alg: 'ES256'
  use: 'sig'
}

interface SealedKey {
  kid: string
  alg: 'ES256'
  createdAt: string
  /** AES-256-GCM of the private JWK: iv | tag | ciphertext, base64url. */
  sealed: string
}

export { SigningKeyError }

const STORE_KEY = 'signing-key:current'

/**
 * The service's ES256 key: created once, on the first start against a store, and shared by
 * every replica through it (create-if-absent, so two replicas starting together agree on one).
 * The private half is stored sealed with a key derived from `secret`, never in clear.
 */
export async function loadOrCreateSigningKey(store: Store, secret: string): Promise<SigningKey> {
  const sealingKey = Buffer.from(hkdfSync('sha256', secret, 'lattice-signing-key', 'aes-256-gcm', 32))
  const existing = await store.get<SealedKey>(STORE_KEY)
  if (existing) return unseal(existing, sealingKey)

  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = await exportJWK(privateKey)
  // RFC 7638: a `kid` that any party can recompute from the public key.
  const kid = await calculateJwkThumbprint(jwk)
  const record: SealedKey = {
    kid,
    alg: 'ES256',
    createdAt: new Date().toISOString(),
    sealed: seal(JSON.stringify(jwk), sealingKey),
  }
  if (await store.putIfAbsent(STORE_KEY, record, LIFETIMES.forever)) return fromPrivateKey(privateKey, kid)
  // Another replica won the race: use its key.
  const winner = await store.get<SealedKey>(STORE_KEY)
  if (!winner) throw new SigningKeyError('The signing key vanished from the store while starting.')
  return unseal(winner, sealingKey)
}

async function unseal(record: SealedKey, sealingKey: Buffer): Promise<SigningKey> {
  let jwk: JsonWebKey
  try {
    jwk = JSON.parse(open(record.sealed, sealingKey))
  } catch (cause) {
    throw new SigningKeyError(
      'The signing key in the store was sealed with another secret: give every replica the same SIGNING_KEY_SECRET.',
      { cause },
    )
  }
  return fromPrivateKey(createPrivateKey({ key: jwk, format: 'jwk' }), record.kid)
}

async function fromPrivateKey(privateKey: KeyObject, kid: string): Promise<SigningKey> {
  const publicKey = createPublicKey(privateKey)
  const { kty, crv, x, y } = (await exportJWK(publicKey)) as Required<Pick<JsonWebKey, 'kty' | 'crv' | 'x' | 'y'>>
  const publicJwk: PublicJwk = { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' }
  return Object.freeze({ kid, alg: 'ES256' as const, privateKey, publicKey, publicJwk })
}
