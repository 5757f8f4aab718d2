/** Tokens this service did not sign, or did not sign as they read, for the tests of its refusals. */
import { SignJWT, generateKeyPair } from 'jose'
import { BASE_URL } from './index.ts'

/** An identity assertion signed by a key of another issuer. */
export async function foreignAssertion(): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256')
  return new SignJWT({ events: {} })
    .setProtectedHeader({ alg: 'ES256', typ: 'agent-identity+jwt', kid: 'foreign' })
    .setIssuer('https://evil.example')
    .setSubject('agt_x')
    .setAudience(BASE_URL)
    .setIssuedAt()
    .setExpirationTime('1h')
    .setJti('j')
    .sign(privateKey)
}

/** A JSON value as a JWT segment (base64url), to assemble a token by hand. */
export function b64(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}
