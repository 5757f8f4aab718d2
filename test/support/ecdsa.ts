/**
 * ECDSA's malleability, for tests: an ES256 signature (r, s) and its twin (r, n - s) both verify
 * (https://www.secg.org/sec1-v2.pdf §4.1.4); the service signs and accepts only the low-S one.
 */
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n

const sOf = (signature: Buffer) => BigInt(`0x${signature.subarray(32).toString('hex')}`)

/** Whether a compact JWS's ES256 signature has s in the upper half of the group order. */
export const isHighS = (token: string) => sOf(Buffer.from(token.split('.')[2]!, 'base64url')) > N >> 1n

/**
 * The same token with its signature's last base64url character spelled otherwise: 64 bytes take
 * 86 characters, whose last carries 4 unused bits (RFC 4648 §3.5), so a lenient decoder reads the
 * same bytes from both spellings.
 */
export function respelled(token: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  const last = alphabet.indexOf(token.at(-1)!)
  return token.slice(0, -1) + alphabet[last ^ 1]
}

/** The same token with the signature's s in the half asked for (the other twin if needed). */
export function withS(token: string, half: 'low' | 'high'): string {
  if (isHighS(token) === (half === 'high')) return token
  const [header, payload, sig] = token.split('.') as [string, string, string]
  const signature = Buffer.from(sig, 'base64url')
  const twin = Buffer.concat([
    signature.subarray(0, 32),
    Buffer.from((N - sOf(signature)).toString(16).padStart(64, '0'), 'hex'),
  ])
  return `${header}.${payload}.${twin.toString('base64url')}`
}
