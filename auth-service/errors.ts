/** Status of every error code the service answers with. Codes are OAuth-style strings, never renamed. */
const STATUS = {
  invalid_request: 400,
  invalid_grant: 400,
  invalid_target: 400,
  invalid_scope: 400,
  unsupported_grant_type: 400,
  authorization_pending: 400,
  anonymous_not_enabled: 400,
  service_auth_not_enabled: 400,
  issuer_not_enabled: 400,
  claimed_or_in_flight: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
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

/** An error a client can act on: `{"error": code, "error_description": description}` with the code's status. */
export class ServiceError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  constructor(code: ErrorCode, description: string, options?: { cause?: unknown; headers?: Record<string, string> }) {
    super(description, options)
    this.name = 'ServiceError'
    this.code = code
    this.status = STATUS[code]
    this.headers = options?.headers ?? {}
  }
}

export function errorBody(code: ErrorCode, description: string): { error: ErrorCode; error_description: string } {
  return { error: code, error_description: description }
}
