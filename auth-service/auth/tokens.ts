import { jwtVerify, errors, type JWTPayload } from 'jose'
import { randomUUID, sign as signBytes } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { SigningKey } from './signing-key.ts'
import { CLOCK_SKEW_SECONDS, LIFETIMES, VERIFIED_TOKEN_CACHE_SIZE } from '../defaults.ts'
import { InvalidTokenError } from '../errors.ts'
import { TOKEN_TYPES } from './policy.ts'

/** Claims of an access token (RFC 9068 §2.2). */
export interface AccessTokenClaims {
  iss: string
  sub: string
  aud: string
  client_id: string
  scope: string
  iat: number
  exp: number
  jti: string
  /** The grant the token was issued from (a consent, or an identity): revoking it revokes the token. */
  gid?: string
}

/** Claims of the service-signed identity_assertion (an RFC 7523 §3 assertion for the jwt-bearer grant). */
export interface IdentityAssertionClaims {
  iss: string
  sub: string
  aud: string
  iat: number
  exp: number
  jti: string
}

export { InvalidTokenError }

export interface TokenService {
  /**
   * An access token for one protected resource (RFC 8707: its audience), the first of `resources`
   * unless named; `clientId` is the OAuth client it was issued to (the identity itself when the
   * agent is its own client).
   */
  signAccessToken(input: {
    sub: string
    scope: string
    resource?: string
    clientId?: string
    grantId?: string
  }): Promise<{ token: string; claims: AccessTokenClaims }>
  /**
   * Verifies signature, `typ`, issuer, audience and expiry; throws InvalidTokenError. The audience
   * must be `resource` (the first of `resources` by default), or any of `resources` with `anyResource`.
   */
  verifyAccessToken(
    token: string,
    options?: { ignoreExpiry?: boolean; resource?: string; anyResource?: boolean },
  ): Promise<AccessTokenClaims>
  /** Whether verified claims are still unexpired by this service's clock (with the skew allowance). */
  unexpired(claims: { exp?: number }): boolean
  /** The protected resources this service issues tokens for (absolute URLs), the default first. */
  readonly resources: readonly string[]
  signIdentityAssertion(input: { sub: string }): Promise<{ token: string; claims: IdentityAssertionClaims }>
  verifyIdentityAssertion(token: string, options?: { ignoreExpiry?: boolean }): Promise<IdentityAssertionClaims>
}

/**
 * Signs and verifies the service's JWTs: signs with node:crypto (`sign` below), verifies with
 * jose's jwtVerify (in the service, only this module and signing-key.ts, for the JWK and its
 * thumbprint, import jose). Verification follows RFC 8725: one allowed algorithm, an explicit
 * `typ` per token kind, issuer and audience checked, a known `kid`, and bounded clock skew.
 */
export function createTokenService(options: {
  issuer: string
  /** The protected resources (RFC 8707), the audiences of access tokens; the first is the default. */
  resources: readonly [string, ...string[]]
  key: SigningKey
  now?: () => number
}): TokenService {
  const { issuer, resources, key } = options
  const [defaultResource] = resources
  const nowSeconds = () => Math.floor((options.now?.() ?? Date.now()) / 1000)
  const headers = new Map<string, string>()
  const unexpired = (claims: { exp?: number }) =>
    claims.exp !== undefined && claims.exp + CLOCK_SKEW_SECONDS >= nowSeconds()

  /**
   * Compact JWS with node:crypto's synchronous ES256 signer: the same bytes jose would write,
   * without a round trip through WebCrypto's thread pool on every token issued.
   */
  async function sign(typ: string, claims: Record<string, unknown>): Promise<string> {
    let header = headers.get(typ)
    if (!header) {
      header = Buffer.from(JSON.stringify({ alg: key.alg, typ, kid: key.kid })).toString('base64url')
      headers.set(typ, header)
    }
    const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
    const signature = lowS(signBytes('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' }))
    return `${input}.${signature.toString('base64url')}`
  }

  // Verified tokens, by their exact text (signature included), until they expire: an agent
  // presents the same token on every call, and checking an ES256 signature once is enough.
  // Expiry is re-checked on every hit; revocation is checked by the caller on every call.
  const verified = new LRUCache<string, { typ: string; audience: string; payload: JWTPayload }>({
    max: VERIFIED_TOKEN_CACHE_SIZE,
  })

  async function verify(
    token: string,
    typ: string,
    audience: string | readonly string[],
    ignoreExpiry = false,
  ): Promise<JWTPayload> {
    const hit = ignoreExpiry ? undefined : verified.get(token)
    if (
      hit &&
      hit.typ === typ &&
      (typeof audience === 'string' ? hit.audience === audience : audience.includes(hit.audience))
    ) {
      if (unexpired(hit.payload)) return hit.payload
      verified.delete(token)
      throw new InvalidTokenError('The token has expired.')
    }
    const payload = await verifyUncached(token, typ, audience, ignoreExpiry)
    if (!ignoreExpiry && typeof payload.aud === 'string') verified.set(token, { typ, audience: payload.aud, payload })
    return payload
  }

  async function verifyUncached(
    token: string,
    typ: string,
    audience: string | readonly string[],
    ignoreExpiry: boolean,
  ): Promise<JWTPayload> {
    // A high-S twin of a valid signature verifies too (ECDSA malleability), and so does another
    // spelling of its last base64url character: one token, one text.
    if (!isCanonicalSignature(token))
      throw new InvalidTokenError(
        'The token signature is not in canonical form (low S, base64url as written by its signer).',
      )
    try {
      const { payload } = await jwtVerify(
        token,
        (header) => {
          if (header.kid !== key.kid) throw new InvalidTokenError('The token was signed with an unknown key.')
          return key.publicKey
        },
        {
          algorithms: [key.alg],
          typ,
          issuer,
          audience: typeof audience === 'string' ? audience : [...audience],
          clockTolerance: CLOCK_SKEW_SECONDS,
          requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat', 'jti'],
          currentDate: new Date(nowSeconds() * 1000),
        },
      )
      if (!ignoreExpiry && typeof payload.iat === 'number' && payload.iat > nowSeconds() + CLOCK_SKEW_SECONDS)
        throw new InvalidTokenError('The token was issued in the future.')
      return payload
    } catch (e) {
      if (e instanceof InvalidTokenError) throw e
      // Expiry is checked after the signature, so an expired token's claims are still authentic.
      if (ignoreExpiry && e instanceof errors.JWTExpired) return e.payload
      throw new InvalidTokenError(describe(e), { cause: e })
    }
  }

  return {
    resources,
    unexpired,
    async signAccessToken({ sub, scope, resource = defaultResource, clientId = sub, grantId }) {
      if (!resources.includes(resource)) throw new Error(`No protected resource is called "${resource}".`)
      const iat = nowSeconds()
      const claims: AccessTokenClaims = {
        iss: issuer,
        sub,
        aud: resource,
        client_id: clientId,
        scope,
        iat,
        exp: iat + LIFETIMES.accessToken,
        jti: randomUUID(),
        ...(grantId === undefined ? {} : { gid: grantId }),
      }
      return { token: await sign(TOKEN_TYPES.accessToken, { ...claims }), claims }
    },
    async verifyAccessToken(token, opts) {
      const audience = opts?.anyResource ? resources : (opts?.resource ?? defaultResource)
      const p = await verify(token, TOKEN_TYPES.accessToken, audience, opts?.ignoreExpiry)
      if (typeof p.scope !== 'string' || typeof p.client_id !== 'string')
        throw new InvalidTokenError('The access token lacks scope or client_id.')
      if (p.gid !== undefined && typeof p.gid !== 'string')
        throw new InvalidTokenError('The access token\'s "gid" claim is not valid.')
      return p as unknown as AccessTokenClaims
    },
    async signIdentityAssertion({ sub }) {
      const iat = nowSeconds()
      const claims: IdentityAssertionClaims = {
        iss: issuer,
        sub,
        aud: issuer,
        iat,
        exp: iat + LIFETIMES.identityAssertion,
        jti: randomUUID(),
      }
      return { token: await sign(TOKEN_TYPES.identityAssertion, { ...claims }), claims }
    },
    async verifyIdentityAssertion(token, opts) {
      return (await verify(
        token,
        TOKEN_TYPES.identityAssertion,
        issuer,
        opts?.ignoreExpiry,
      )) as unknown as IdentityAssertionClaims
    },
  }
}

// The order of P-256 (SEC 2 §2.4.2, https://www.secg.org/sec2-v2.pdf), and half of it.
const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n
const P256_HALF_N = P256_N >> 1n

const scalar = (bytes: Buffer) => BigInt(`0x${bytes.toString('hex') || '0'}`)

/** An ES256 signature (r || s, RFC 7518 §3.4) with s in the lower half: the canonical one of the pair. */
function lowS(signature: Buffer): Buffer {
  const s = scalar(signature.subarray(32))
  if (s <= P256_HALF_N) return signature
  return Buffer.concat([signature.subarray(0, 32), Buffer.from((P256_N - s).toString(16).padStart(64, '0'), 'hex')])
}

/**
 * Whether a compact JWS's ES256 signature is written the one way its signer writes it: base64url
 * without spare bits set (RFC 4648 §3.5) and s ≤ n/2. Other lengths are refused as malformed later.
 */
function isCanonicalSignature(token: string): boolean {
  const text = token.slice(token.lastIndexOf('.') + 1)
  const signature = Buffer.from(text, 'base64url')
  if (signature.toString('base64url') !== text) return false
  return signature.length !== 64 || scalar(signature.subarray(32)) <= P256_HALF_N
}

function describe(e: unknown): string {
  if (e instanceof errors.JWTExpired) return 'The token has expired.'
  if (e instanceof errors.JWTClaimValidationFailed) return `The token's "${e.claim}" claim is not valid here.`
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'The token signature does not verify.'
  if (e instanceof errors.JOSEAlgNotAllowed) return 'The token uses an algorithm this service does not accept.'
  return 'The token is malformed.'
}
