import { hash, randomBytes, timingSafeEqual } from 'node:crypto'

/** URL-safe random text with `bytes` bytes of entropy (32 bytes: 43 characters). */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/**
 * How secrets are stored: a SHA-256 digest. The secrets are 256 random bits, so a fast hash is
 * enough (no dictionary to guess from), and a lookup by digest compares no secret byte by byte.
 */
export function digest(secret: string): string {
  // The one-shot hash: about half the cost of a Hash object, and an API key is digested on every call.
  return hash('sha256', secret, 'base64url')
}

/** Constant-time equality of two secrets' bytes; their lengths are not secret. */
export function secretsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
