import { RETRY_AFTER_SECONDS } from './defaults.ts'

/**
 * The one error family of the service, after jose's JOSEError: every error thrown on purpose is
 * a LatticeError whose subclass fixes what it means, with a `code` from a closed set. The family,
 * not the route, chooses the wire shape of a refusal: RFC 6749 §5.2 `{error, error_description}`
 * for ServiceError, RFC 8935 §2.4 `{err, description}` for SecurityEventError.
 */

/** Status of every error code clients can receive. Codes are OAuth-style strings, never renamed. */
const STATUS = {
  invalid_request: 400,
  invalid_grant: 400,
  invalid_target: 400,
  invalid_scope: 400,
  unsupported_grant_type: 400,
  invalid_client: 400,
  unsupported_response_type: 400,
  access_denied: 400,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  authorization_pending: 400,
  anonymous_not_enabled: 400,
  service_auth_not_enabled: 400,
  issuer_not_enabled: 400,
  claimed_or_in_flight: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  invalid_origin: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  precondition_failed: 412,
  payload_too_large: 413,
  rate_limited: 429,
  header_fields_too_large: 431,
  unsupported_media_type: 415,
  server_error: 500,
  temporarily_unavailable: 503,
} as const

export type ErrorCode = keyof typeof STATUS

/** Every code the service can answer with: each must be documented for clients (a test checks). */
export const ERROR_CODES = Object.keys(STATUS) as ErrorCode[]

/** RFC 8935 §2.4 error codes of the Security Event Token receiver; all are 400. */
export const EVENT_ERROR_CODES = [
  'invalid_request',
  'invalid_key',
  'invalid_issuer',
  'invalid_audience',
  'authentication_failed',
  'access_denied',
] as const
export type EventErrorCode = (typeof EVENT_ERROR_CODES)[number]

/** Codes of the errors that never reach a client as such (start-up, credentials checked inside). */
type InternalCode = 'signing_key_unusable' | 'token_invalid' | 'store_unavailable'

interface Options {
  cause?: unknown
  headers?: Record<string, string>
}

/** A response to send for an error of the family. */
export interface ErrorResponse {
  status: number
  headers: Readonly<Record<string, string>>
  body: object
}

/** The base of the family. `code` is from a closed set; `message` is for logs unless a subclass sends it. */
export abstract class LatticeError extends Error {
  abstract readonly code: ErrorCode | EventErrorCode | InternalCode
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
  /** The answer to a request that failed with this error: a 500 `server_error` unless the subclass says otherwise. */
  response(): ErrorResponse {
    return new ServiceError('server_error', 'The server failed to answer; retry with backoff.').response()
  }
}

/**
 * The longest error description sent: a sentence, which may quote a little of the request.
 * Longer ones are cut where error bodies are made (errorBody, and the event receiver's), so the
 * OpenAPI bound holds.
 */
export const ERROR_DESCRIPTION_MAX = 1000

/** An error a client can act on: `{"error": code, "error_description": description}` with the code's status. */
export class ServiceError extends LatticeError {
  readonly code: ErrorCode
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  constructor(code: ErrorCode, description: string, options?: Options) {
    super(description, options)
    this.code = code
    this.status = STATUS[code]
    this.headers = options?.headers ?? {}
  }
  override response(): ErrorResponse {
    return { status: this.status, headers: this.headers, body: errorBody(this.code, this.message) }
  }
}

/** A refusal of the Security Event Token receiver (RFC 8935 §2.4): 400 `{"err": code, "description": text}`. */
export class SecurityEventError extends LatticeError {
  readonly code: EventErrorCode
  constructor(code: EventErrorCode, description: string, options?: Options) {
    super(description, options)
    this.code = code
  }
  override response(): ErrorResponse {
    return {
      status: 400,
      headers: {},
      body: { err: this.code, description: this.message.slice(0, ERROR_DESCRIPTION_MAX) },
    }
  }
}

/**
 * A refusal of an authorization request once its client and redirect URI are known: it goes
 * back to the client's redirect URI (RFC 6749 §4.1.2.1) with `error`, `error_description`,
 * `state` and `iss` (RFC 9207), never to a page of ours. Earlier refusals are ServiceErrors,
 * shown on the authorization error page and never redirected.
 */
export class AuthorizationRedirectError extends LatticeError {
  readonly code: ErrorCode
  readonly location: string
  constructor(code: ErrorCode, description: string, target: { redirectUri: string; state?: string; issuer: string }) {
    super(description)
    this.code = code
    this.location = authorizationResponseUrl(target.redirectUri, {
      error: code,
      error_description: description,
      state: target.state,
      iss: target.issuer,
    })
  }
  override response(): ErrorResponse {
    return { status: 303, headers: { Location: this.location }, body: errorBody(this.code, this.message) }
  }
}

/** The redirect URI with the response's parameters added to its query (RFC 6749 §4.1.2); unset ones are left out. */
export function authorizationResponseUrl(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value)
  return url.href
}

/**
 * The backing store cannot be reached: 503, never a 500, and never a false 401 that would send agents
 * to register again.
 */
export class StoreUnavailableError extends LatticeError {
  readonly code = 'store_unavailable'
  override response(): ErrorResponse {
    return new ServiceError(
      'temporarily_unavailable',
      'Credentials cannot be checked or issued right now; retry shortly.',
      {
        headers: { 'Retry-After': String(RETRY_AFTER_SECONDS.storeUnavailable) },
      },
    ).response()
  }
}

/** A JWT that does not verify; callers say what it means for them (invalid_token, invalid_grant). */
export class InvalidTokenError extends LatticeError {
  readonly code = 'token_invalid'
  override response(): ErrorResponse {
    return new ServiceError('invalid_token', this.message).response()
  }
}

/** The signing key in the store cannot be used (sealed under another secret, or gone): start-up stops. */
export class SigningKeyError extends LatticeError {
  readonly code = 'signing_key_unusable'
}

export function errorBody(code: ErrorCode, description: string): { error: ErrorCode; error_description: string } {
  return { error: code, error_description: description.slice(0, ERROR_DESCRIPTION_MAX) }
}

/** Errors whose details belong in the log: everything but a client's own mistake. */
export function isLoggable(err: unknown): boolean {
  return !(
    err instanceof ServiceError ||
    err instanceof SecurityEventError ||
    err instanceof InvalidTokenError ||
    err instanceof AuthorizationRedirectError
  )
}
