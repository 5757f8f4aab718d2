import { hash } from 'node:crypto'
import type { Store } from '../store/store.ts'
import { LIFETIMES } from '../defaults.ts'
import { grantOf, grantSecret, newGrantId, redeemKeys } from './grants.ts'
import { digest, randomSecret, secretsEqual } from './secrets.ts'

/** An authorization request whose client, redirect URI, PKCE challenge, scope and resource were checked. */
export interface AuthorizationRequest {
  clientId: string
  clientName?: string
  clientKind: 'registered' | 'metadata_document'
  /** Whether the client may use refresh tokens (its grant_types). */
  refresh: boolean
  redirectUri: string
  /** RFC 7636 S256 challenge. */
  codeChallenge: string
  scope: string
  resource: string
  state?: string
}

/** What an authorization code stands for: the request it answers and the identity the person created. */
export interface CodeGrant extends AuthorizationRequest {
  sub: string
}

const consentKey = (id: string) => `consent:${digest(id)}`

/**
 * Starts a consent: the checked request, bound to the browser that asked (a digest of its consent
 * cookie). The returned id goes into the page's form; it is single use and expires.
 */
export async function startConsent(store: Store, request: AuthorizationRequest, browser: string): Promise<string> {
  const id = randomSecret(32)
  await store.put(consentKey(id), { request, browser: digest(browser) }, LIFETIMES.consentTransaction)
  return id
}

/** Ends a consent, once: the request, if the id is live and the browser is the one that started it. */
export async function takeConsent(
  store: Store,
  id: string,
  browser: string | undefined,
): Promise<AuthorizationRequest | 'wrong_browser' | undefined> {
  if (id.length > 64) return undefined
  const record = await store.take<{ request: AuthorizationRequest; browser: string }>(consentKey(id))
  if (!record) return undefined
  if (browser === undefined || !secretsEqual(record.browser, digest(browser))) return 'wrong_browser'
  return record.request
}

/**
 * Issues a code for a decided request, the first secret of a new grant (grants.ts); it lives a
 * minute and only its digest is stored.
 */
export async function issueCode(store: Store, grant: CodeGrant): Promise<string> {
  const code = grantSecret(newGrantId())
  await store.put(redeemKeys('code', grantOf(code)!, code).value, grant, LIFETIMES.authorizationCode)
  return code
}

/**
 * Redeems a code, once across every replica, in one atomic step (Store.redeem). A code presented
 * again revokes its grant, and so every token its first use issued, even one still being issued
 * (RFC 6749 §4.1.2): 'replayed'.
 */
export async function redeemCode(
  store: Store,
  code: string,
): Promise<{ grantId: string; grant: CodeGrant } | 'replayed' | undefined> {
  const grantId = code.length <= 128 ? grantOf(code) : undefined
  if (grantId === undefined) return undefined
  // Remembered as long as anything issued from the grant lives.
  const redeemed = await store.redeem<CodeGrant>(redeemKeys('code', grantId, code), LIFETIMES.refreshToken)
  if (redeemed === 'replayed') return 'replayed'
  return typeof redeemed === 'object' ? { grantId, grant: redeemed.value } : undefined
}

const UNRESERVED = /^[A-Za-z0-9._~-]{43,128}$/

/** A code_challenge or code_verifier of RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const isPkceValue = (value: string) => UNRESERVED.test(value)

/** RFC 7636 §4.6 with S256: BASE64URL(SHA256(verifier)) equals the challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return isPkceValue(verifier) && secretsEqual(hash('sha256', verifier, 'base64url'), challenge)
}
