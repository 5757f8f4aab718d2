import { hash } from 'node:crypto'
import type { Store } from '../store/store.ts'
import { LIFETIMES } from '../defaults.ts'
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

/** What a used code leaves behind, so that a replay can revoke what the first use issued (RFC 6749 §4.1.2). */
export interface UsedCode {
  jti?: string
  exp?: number
  family?: string
}

const consentKey = (id: string) => `consent:${digest(id)}`
const codeKey = (code: string) => `code:${digest(code)}`
const usedCodeKey = (code: string) => `code-used:${digest(code)}`

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
export async function takeConsent(store: Store, id: string, browser: string | undefined): Promise<AuthorizationRequest | 'wrong_browser' | undefined> {
  if (id.length > 64) return undefined
  const record = await store.take<{ request: AuthorizationRequest; browser: string }>(consentKey(id))
  if (!record) return undefined
  if (browser === undefined || !secretsEqual(record.browser, digest(browser))) return 'wrong_browser'
  return record.request
}

/** Issues a code for a decided request; it lives a minute and only its digest is stored. */
export async function issueCode(store: Store, grant: CodeGrant): Promise<string> {
  const code = randomSecret(32)
  await store.put(codeKey(code), grant, LIFETIMES.authorizationCode)
  return code
}

/**
 * Redeems a code, once across every replica (an atomic take). A code already redeemed answers
 * with what its first use left, so that the caller can revoke it.
 */
export async function redeemCode(store: Store, code: string): Promise<{ grant: CodeGrant } | { replayed: UsedCode } | undefined> {
  if (code.length > 128) return undefined
  const grant = await store.take<CodeGrant>(codeKey(code))
  if (grant) {
    // Remembered as long as anything issued from it lives (the refresh family is revoked by id).
    await store.put(usedCodeKey(code), {}, LIFETIMES.refreshToken)
    return { grant }
  }
  const used = await store.get<UsedCode>(usedCodeKey(code))
  return used ? { replayed: used } : undefined
}

/** Records what a redeemed code issued, for the revocation a replay triggers. */
export async function recordCodeIssue(store: Store, code: string, issued: UsedCode): Promise<void> {
  await store.put(usedCodeKey(code), issued, LIFETIMES.refreshToken)
}

const UNRESERVED = /^[A-Za-z0-9._~-]{43,128}$/

/** A code_challenge or code_verifier of RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const isPkceValue = (value: string) => UNRESERVED.test(value)

/** RFC 7636 §4.6 with S256: BASE64URL(SHA256(verifier)) equals the challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return isPkceValue(verifier) && secretsEqual(hash('sha256', verifier, 'base64url'), challenge)
}
