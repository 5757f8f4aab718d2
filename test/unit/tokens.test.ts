import { SignJWT, generateKeyPair } from 'jose'
import { describe, expect, it } from 'vitest'
import { findApiKey, issueApiKey } from '../../auth-service/auth/api-keys.ts'
import { digest, secretsEqual } from '../../auth-service/auth/secrets.ts'
import { loadOrCreateSigningKey } from '../../auth-service/auth/signing-key.ts'
import { createTokenService, InvalidTokenError } from '../../auth-service/auth/tokens.ts'
import { withS } from '../support/ecdsa.ts'
import { SEALING_SECRET, tempStore } from '../support/index.ts'

const ISSUER = 'https://research.example.org'
const RESOURCE = `${ISSUER}/api/v1`
const OTHER_RESOURCE = `${ISSUER}/mcp`
const store = await tempStore()
const key = await loadOrCreateSigningKey(store, SEALING_SECRET)
const now = Date.now()
const tokens = createTokenService({ issuer: ISSUER, resources: [RESOURCE, OTHER_RESOURCE], key, now: () => now })
const seconds = () => Math.floor(now / 1000)

/** A token signed with the service's own key, with whatever header and claims a test needs. */
async function forge(header: Record<string, unknown>, claims: Record<string, unknown>) {
  const token = await new SignJWT({
    iss: ISSUER,
    sub: 'agt_x',
    aud: RESOURCE,
    client_id: 'agt_x',
    scope: 'research.read',
    iat: seconds(),
    exp: seconds() + 600,
    jti: 'j',
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid, ...header } as { alg: string })
    .sign(key.privateKey)
  return withS(token, 'low')
}
const refused = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(InvalidTokenError)

describe('token verification (RFC 8725)', () => {
  it('accepts a well-formed access token', async () => {
    await expect(tokens.verifyAccessToken(await forge({}, {}))).resolves.toMatchObject({ sub: 'agt_x', aud: RESOURCE })
  })

  it('allows only ES256: an HS256 token keyed with the public key is refused', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(key.publicJwk))
    const hs = await new SignJWT({
      iss: ISSUER,
      sub: 'x',
      aud: RESOURCE,
      scope: 'research.read',
      client_id: 'x',
      jti: 'j',
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: key.kid })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret)
    await refused(tokens.verifyAccessToken(hs))
    const none = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${hs.split('.')[1]}.`
    await refused(tokens.verifyAccessToken(none))
  })

  it('checks typ both ways: an identity assertion is no access token, and the reverse', async () => {
    const { token: assertion } = await tokens.signIdentityAssertion({ sub: 'agt_x' })
    await refused(tokens.verifyAccessToken(assertion))
    const { token: access } = await tokens.signAccessToken({ sub: 'agt_x', scope: 'research.read' })
    await refused(tokens.verifyIdentityAssertion(access))
    await refused(tokens.verifyAccessToken(await forge({ typ: 'JWT' }, {})))
    await refused(tokens.verifyAccessToken(await forge({ typ: undefined }, {})))
  })

  it('checks issuer and audience', async () => {
    await refused(tokens.verifyAccessToken(await forge({}, { iss: 'https://elsewhere.example' })))
    await refused(tokens.verifyAccessToken(await forge({}, { aud: 'https://elsewhere.example/api' })))
    await refused(tokens.verifyAccessToken(await forge({}, { aud: undefined })))
  })

  it(
    'binds a token to the resource it was issued for (RFC ' + "8707): one resource's token is refused by the other",
    async () => {
      const { token: forMcp } = await tokens.signAccessToken({
        sub: 'agt_x',
        scope: 'research.read',
        resource: OTHER_RESOURCE,
        clientId: 'https://client.example/meta.json',
      })
      await expect(tokens.verifyAccessToken(forMcp, { resource: OTHER_RESOURCE })).resolves.toMatchObject({
        aud: OTHER_RESOURCE,
        client_id: 'https://client.example/meta.json',
      })
      await refused(tokens.verifyAccessToken(forMcp))
      const { token: forApi } = await tokens.signAccessToken({ sub: 'agt_x', scope: 'research.read' })
      await refused(tokens.verifyAccessToken(forApi, { resource: OTHER_RESOURCE }))
      // Revocation accepts a token of any of the resources.
      await expect(tokens.verifyAccessToken(forMcp, { anyResource: true })).resolves.toMatchObject({
        aud: OTHER_RESOURCE,
      })
      await expect(
        tokens.signAccessToken({ sub: 'agt_x', scope: 'research.read', resource: 'https://elsewhere.example/mcp' }),
      ).rejects.toThrow()
    },
  )

  it('tolerates 30 seconds of clock skew, and no more', async () => {
    await expect(tokens.verifyAccessToken(await forge({}, { exp: seconds() - 20 }))).resolves.toBeTruthy()
    await refused(tokens.verifyAccessToken(await forge({}, { exp: seconds() - 40 })))
    await expect(tokens.verifyAccessToken(await forge({}, { iat: seconds() + 20 }))).resolves.toBeTruthy()
    await refused(tokens.verifyAccessToken(await forge({}, { iat: seconds() + 90 })))
    await refused(tokens.verifyAccessToken(await forge({}, { nbf: seconds() + 90 })))
  })

  it('refuses an unknown or missing kid, even with a valid signature', async () => {
    await refused(tokens.verifyAccessToken(await forge({ kid: 'some-other-key' }, {})))
    await refused(tokens.verifyAccessToken(await forge({ kid: undefined }, {})))
    const { privateKey } = await generateKeyPair('ES256')
    const foreign = await new SignJWT({
      iss: ISSUER,
      sub: 'x',
      aud: RESOURCE,
      scope: 'research.read',
      client_id: 'x',
      jti: 'j',
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey)
    await refused(tokens.verifyAccessToken(foreign))
  })

  it('requires the RFC 9068 claims', async () => {
    for (const missing of ['jti', 'sub', 'exp', 'iat', 'scope', 'client_id'])
      await refused(tokens.verifyAccessToken(await forge({}, { [missing]: undefined })))
  })
})

describe('secret handling', () => {
  it('compares secrets in constant time, whatever their lengths', () => {
    expect(secretsEqual('a'.repeat(43), 'a'.repeat(43))).toBe(true)
    expect(secretsEqual('a'.repeat(43), `${'a'.repeat(42)}b`)).toBe(false)
    expect(secretsEqual('short', 'a much longer value')).toBe(false)
  })

  it('finds a key only through its digest, and re-checks the stored digest', async () => {
    const issued = await issueApiKey(store, null)
    expect(await findApiKey(store, issued.key)).toBeTruthy()
    // A record that does not carry the presented key's digest is refused.
    await store.put(
      `api-key:${digest(issued.key)}`,
      { digest: digest('another'), prefix: 'p', label: null, scopes: [] },
      60,
    )
    expect(await findApiKey(store, issued.key)).toBeUndefined()
  })
})
