/**
 * Sealing a text with AES-256-GCM under a 32-byte key: the 12-byte nonce, the 16-byte tag and the
 * ciphertext, as one base64url string. Opening fails on anything not sealed under that key or
 * altered since (the tag is checked), so a sealed value can be handed out and trusted back.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

const IV = 12
const TAG = 16

export function seal(plaintext: string, key: Buffer): string {
  const iv = randomBytes(IV)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
}

/** The text sealed in `sealed`; throws when it was sealed under another key, cut or altered. */
export function open(sealed: string, key: Buffer): string {
  const raw = Buffer.from(sealed, 'base64url')
  if (raw.length < IV + TAG) throw new Error('too short to be sealed')
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV))
  decipher.setAuthTag(raw.subarray(IV, IV + TAG))
  return Buffer.concat([decipher.update(raw.subarray(IV + TAG)), decipher.final()]).toString('utf8')
}
