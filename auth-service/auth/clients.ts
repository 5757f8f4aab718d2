import type { Store } from '../store/store.ts'
import { CLIENT_METADATA_FETCH, CLIENT_METADATA_LIMITS, LIFETIMES } from '../defaults.ts'
import { ServiceError } from '../errors.ts'
import { fetchClientMetadataDocument, type FetchOptions } from './client-metadata-fetch.ts'
import { GRANTS } from './policy.ts'
import { digest, randomSecret } from './secrets.ts'
import { redirectUriProblem } from './redirect-uris.ts'

/**
 * An OAuth client as the authorization endpoint sees it: registered here (RFC 7591) or described
 * by the document its client_id URL serves (client ID metadata document). Every client is public
 * (`token_endpoint_auth_method: none`): PKCE, not a secret, binds its code to it.
 */
export interface Client {
  client_id: string
  client_name?: string
  redirect_uris: string[]
  grant_types: string[]
  kind: 'registered' | 'metadata_document'
}

/** The metadata fields this server reads (RFC 7591 §2); others are ignored, as §2 allows. */
export interface ClientMetadata {
  client_name?: string
  redirect_uris: string[]
  grant_types: string[]
  response_types: string[]
  token_endpoint_auth_method: 'none'
}

const GRANT_TYPES: readonly string[] = [GRANTS.authorizationCode, GRANTS.refreshToken]

/**
 * Checks client metadata, registered or fetched, against what this server supports; throws
 * `invalid_redirect_uri` or `invalid_client_metadata` (RFC 7591 §3.2.2) saying what to change.
 */
export function validateClientMetadata(raw: unknown): ClientMetadata {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ServiceError('invalid_client_metadata', 'The client metadata must be a JSON object.')
  const m = raw as Record<string, unknown>
  const uris = m.redirect_uris
  if (!Array.isArray(uris) || uris.length === 0 || uris.some((u) => typeof u !== 'string'))
    throw new ServiceError('invalid_redirect_uri', '"redirect_uris" must be a non-empty array of URLs.')
  if (uris.length > CLIENT_METADATA_LIMITS.redirectUris)
    throw new ServiceError(
      'invalid_redirect_uri',
      `At most ${CLIENT_METADATA_LIMITS.redirectUris} redirect URIs may be registered.`,
    )
  for (const uri of uris as string[]) {
    const problem = redirectUriProblem(uri)
    if (problem) throw new ServiceError('invalid_redirect_uri', `Not a usable redirect URI: ${problem}.`)
  }
  const name = m.client_name
  if (name !== undefined && (typeof name !== 'string' || name.length > CLIENT_METADATA_LIMITS.clientName))
    throw new ServiceError(
      'invalid_client_metadata',
      `"client_name" must be a string of at most ${CLIENT_METADATA_LIMITS.clientName} characters.`,
    )
  const nameProblem = typeof name === 'string' ? clientNameProblem(name) : undefined
  if (nameProblem) throw new ServiceError('invalid_client_metadata', nameProblem)
  const method = m.token_endpoint_auth_method ?? 'none'
  if (method !== 'none')
    throw new ServiceError(
      'invalid_client_metadata',
      'Only public clients are supported here: "token_endpoint_auth_method" must be "none" (PKCE protects the code).',
    )
  const grantTypes = stringList(m.grant_types, [GRANTS.authorizationCode], 'grant_types')
  const unsupported = grantTypes.find((g) => !GRANT_TYPES.includes(g))
  if (unsupported !== undefined || !grantTypes.includes(GRANTS.authorizationCode))
    throw new ServiceError(
      'invalid_client_metadata',
      `"grant_types" must include "authorization_code" and may add "refresh_token", nothing else.`,
    )
  const responseTypes = stringList(m.response_types, ['code'], 'response_types')
  if (responseTypes.some((r) => r !== 'code'))
    throw new ServiceError('invalid_client_metadata', '"response_types" may only be ["code"].')
  return {
    ...(typeof name === 'string' && name.trim() !== '' ? { client_name: name.trim() } : {}),
    redirect_uris: [...new Set(uris as string[])],
    grant_types: [...new Set(grantTypes)],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }
}

/**
 * What a client name must not hold, since the consent page shows it to a person as the client's
 * own claim: control characters (NUL, line breaks), format characters (bidi embeddings,
 * overrides and isolates U+202A–U+202E and U+2066–U+2069, zero-width ones), line and paragraph
 * separators, other invisible (default-ignorable) code points, lone surrogates, private-use and
 * unassigned code points. Each can make a name read otherwise than it was registered; the PRECIS
 * FreeformClass (RFC 8264 §4.3) refuses most of them for the same reason.
 */
const UNSHOWABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u

/** Why a client name cannot be shown on the consent page, or undefined when it can. */
export function clientNameProblem(name: string): string | undefined {
  const found = UNSHOWABLE.exec(name)
  if (!found) return undefined
  const codePoint = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')
  return (
    `"client_name" must be plain visible text: U+${codePoint} (a ` +
    `control, format, invisible or unassigned character) is not allowed.`
  )
}

function stringList(value: unknown, fallback: string[], name: string): string[] {
  if (value === undefined) return fallback
  if (
    !Array.isArray(value) ||
    value.length > CLIENT_METADATA_LIMITS.listItems ||
    value.some((v) => typeof v !== 'string')
  )
    throw new ServiceError(
      'invalid_client_metadata',
      `"${name}" must be an array of at most ${CLIENT_METADATA_LIMITS.listItems} strings.`,
    )
  return value as string[]
}

const clientKey = (id: string) => `client:${id}`
const documentKey = (url: string) => `client-document:${digest(url)}`

/** Registers a public client (RFC 7591 §3); its client_id is random and not a secret. */
export async function registerClient(
  store: Store,
  metadata: ClientMetadata,
  now = Date.now(),
): Promise<{ client: Client; issuedAt: number }> {
  const client: Client = {
    client_id: `lat_client_${randomSecret(16)}`,
    ...(metadata.client_name ? { client_name: metadata.client_name } : {}),
    redirect_uris: metadata.redirect_uris,
    grant_types: metadata.grant_types,
    kind: 'registered',
  }
  await store.put(clientKey(client.client_id), client, LIFETIMES.registeredClient)
  return { client, issuedAt: Math.floor(now / 1000) }
}

/**
 * Whether a client_id is meant as the URL of a client ID metadata document
 * (draft-ietf-oauth-client-id-metadata-document §3) rather than a registered client's id; the
 * URL's form (https, a path, no fragment) is checked when the document is fetched.
 */
export function isMetadataDocumentId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId)
}

/**
 * The client a client_id names: a registered one, or the one its metadata document describes
 * (fetched with SSRF limits, cached in the Store by the document's caching headers within
 * bounds, and a failure for a short while). Throws `invalid_client` saying why not.
 */
export async function resolveClient(store: Store, clientId: string, fetchOptions: FetchOptions): Promise<Client> {
  const client = await findClient(store, clientId, fetchOptions)
  // A client stored before its name's characters were checked is not shown to anyone.
  if (client.client_name !== undefined && clientNameProblem(client.client_name) !== undefined)
    throw new ServiceError(
      'invalid_client',
      "This client's name cannot be shown as registered; register the client again with a plain name.",
    )
  return client
}

async function findClient(store: Store, clientId: string, fetchOptions: FetchOptions): Promise<Client> {
  if (!isMetadataDocumentId(clientId)) {
    const client = clientId.length <= 64 ? await store.get<Client>(clientKey(clientId)) : undefined
    if (!client)
      throw new ServiceError(
        'invalid_client',
        'This client_id is not registered here; register the client first (or use a client ID metadata document URL).',
      )
    return client
  }
  const cached = await store.get<{ client?: Client; refusal?: string }>(documentKey(clientId))
  if (cached?.client) return cached.client
  if (cached?.refusal) throw new ServiceError('invalid_client', cached.refusal)
  try {
    return await clientFromDocument(clientId, fetchOptions, store)
  } catch (e) {
    if (
      e instanceof ServiceError &&
      (e.code === 'invalid_client' || e.code === 'invalid_client_metadata' || e.code === 'invalid_redirect_uri')
    ) {
      const refusal =
        e.code === 'invalid_client' ? e.message : `The client_id's metadata document cannot be used: ${e.message}`
      await store.put(documentKey(clientId), { refusal }, CLIENT_METADATA_FETCH.failureCacheSeconds)
      throw new ServiceError('invalid_client', refusal, { cause: e })
    }
    throw e
  }
}

async function clientFromDocument(clientId: string, fetchOptions: FetchOptions, store: Store): Promise<Client> {
  let url: URL
  try {
    url = new URL(clientId)
  } catch {
    throw new ServiceError('invalid_client', 'The client_id is not a valid URL.')
  }
  if (url.pathname === '/' || url.hash || url.username || url.password || url.href !== clientId)
    throw new ServiceError(
      'invalid_client',
      'A client_id URL must be an https URL with a path, in normal form, without fragment or credentials.',
    )
  const { document, cacheSeconds } = await fetchClientMetadataDocument(clientId, fetchOptions)
  if (typeof document !== 'object' || document === null || (document as { client_id?: unknown }).client_id !== clientId)
    throw new ServiceError(
      'invalid_client',
      'The client_id\'s metadata document cannot be used: its "client_id" is not the URL it was fetched from.',
    )
  const metadata = validateClientMetadata(document)
  const client: Client = {
    client_id: clientId,
    ...(metadata.client_name ? { client_name: metadata.client_name } : {}),
    redirect_uris: metadata.redirect_uris,
    grant_types: metadata.grant_types,
    kind: 'metadata_document',
  }
  await store.put(documentKey(clientId), { client }, cacheSeconds)
  return client
}
