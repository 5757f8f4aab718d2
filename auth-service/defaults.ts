/**
 * Every default of the service, in one place: the environment's defaults (the configuration
 * table of docs/configuration.md is checked against ENV_DEFAULTS by test/unit/defaults.test.ts),
 * the budgets, the bounds of requests, the lifetimes of credentials and the server's timeouts.
 * Nothing else writes one of these numbers. The site's settings, which the build reads too, have
 * their defaults in model/site-config.ts.
 */
import { SITE_ENV_DEFAULTS } from '../model/site-config.ts'

/** Requests allowed per window. Identity earns a larger read budget: that is what keys are for. */
export interface RateLimits {
  anonymousReadsPerMinute: number
  identifiedReadsPerMinute: number
  /** Keys issued per client address per hour (refused requests do not count). */
  keysPerHour: number
  /** Agent identities registered per client address per hour (refused requests do not count). */
  identitiesPerHour: number
  /** Access tokens issued per client address per minute (refused requests do not count). */
  tokensPerMinute: number
  /** OAuth clients registered (RFC 7591) per client address per hour (refused requests do not count). */
  clientsPerHour: number
  /** Every write (POST), whatever its outcome, per client address: bounds floods of bad requests. */
  writesPerMinute: number
  /**
   * Refused bearer credentials (401 `invalid_token`) per client address; beyond it the refusal
   * is a 429. Valid credentials never draw on it, so a neighbour's flood starves no key.
   */
  badCredentialsPerMinute: number
}

export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = Object.freeze({
  anonymousReadsPerMinute: 600,
  identifiedReadsPerMinute: 3000,
  keysPerHour: 20,
  identitiesPerHour: 20,
  tokensPerMinute: 60,
  clientsPerHour: 20,
  writesPerMinute: 120,
  badCredentialsPerMinute: 60,
})

/** The environment variable that sets each budget. */
export const RATE_LIMIT_VARS = {
  RATE_LIMIT_ANONYMOUS_READS_PER_MINUTE: 'anonymousReadsPerMinute',
  RATE_LIMIT_IDENTIFIED_READS_PER_MINUTE: 'identifiedReadsPerMinute',
  RATE_LIMIT_KEYS_PER_HOUR: 'keysPerHour',
  RATE_LIMIT_IDENTITIES_PER_HOUR: 'identitiesPerHour',
  RATE_LIMIT_TOKENS_PER_MINUTE: 'tokensPerMinute',
  RATE_LIMIT_CLIENTS_PER_HOUR: 'clientsPerHour',
  RATE_LIMIT_WRITES_PER_MINUTE: 'writesPerMinute',
  RATE_LIMIT_BAD_CREDENTIALS_PER_MINUTE: 'badCredentialsPerMinute',
} as const satisfies Record<string, keyof RateLimits>

/**
 * Defaults of the environment variables that have one written in code (`$PORT` stands for the
 * port in use). Those without one (REDIS_URL, REDIS_CLUSTER_NODES, SIGNING_KEY_SECRET, TRUST_PROXY,
 * CLIENT_METADATA_DEV_ORIGINS) are unset by default.
 */
export const ENV_DEFAULTS = {
  ...SITE_ENV_DEFAULTS,
  DATA_DIR: './data',
  REDIS_KEY_PREFIX: 'lattice:',
  ANONYMOUS_REGISTRATION: 'true',
  LOG_LEVEL: 'info',
  ...(Object.fromEntries(
    Object.entries(RATE_LIMIT_VARS).map(([name, field]) => [name, String(DEFAULT_RATE_LIMITS[field])]),
  ) as Record<keyof typeof RATE_LIMIT_VARS, string>),
} as const

/** Bounds of the article reads' query parameters (docs/api.md#the-api). */
export const READ_LIMITS = {
  posts: { min: 1, max: 100, fallback: 50 },
  search: { min: 1, max: 50, fallback: 20 },
  queryLength: 200,
  /** Longest `tag` or `author` filter of the list. */
  filterLength: 200,
  /** Longest `updated_since`: an ISO 8601 date-time with fraction and offset. */
  instantLength: 40,
} as const

/** Longest label of an API key. */
export const LABEL_MAX = 100

/** Largest request bodies: a token request or a label; a Security Event Token; one MCP JSON-RPC message. */
export const BODY_LIMITS = { form: '16kb', event: 64 * 1024, mcp: '64kb', fields: 32 } as const

/**
 * The MCP endpoint: article resources per `resources/list` page; bytes of tool answers kept per
 * loaded index, and of their text content kept ready to send; how long a client may keep tool
 * lists, resources and discovery (the 2026 `ttlMs`: they change only on a rebuild).
 */
export const MCP_LIMITS = {
  resourcesPerPage: 100,
  textCacheBytes: 64 * 1024 * 1024,
  answerCacheBytes: 64 * 1024 * 1024,
  cacheTtlMs: 5 * 60 * 1000,
} as const

/**
 * Lifetimes in seconds. Those of credentials are documented in
 * docs/api.md#credentials-api-keys-and-the-agent-flow: access token 1 h, identity_assertion
 * 30 days, API key 90 days, authorization code 60 s, refresh token 30 days.
 */
export const LIFETIMES = {
  accessToken: 60 * 60,
  identityAssertion: 30 * 24 * 60 * 60,
  apiKey: 90 * 24 * 60 * 60,
  /** An authorization code, from the consent to its exchange (RFC 6749 §4.1.2: short; single use). */
  authorizationCode: 60,
  /** The consent page's transaction: how long the person may take to decide. */
  consentTransaction: 10 * 60,
  /** A refresh token; each use replaces it with a new one of the same lifetime. */
  refreshToken: 30 * 24 * 60 * 60,
  /** A dynamically registered client (RFC 7591). */
  registeredClient: 365 * 24 * 60 * 60,
  /** Records that must outlive any token that refers to them. */
  forever: 100 * 365 * 24 * 60 * 60,
} as const

/**
 * OAI-PMH (/oai): records or headers per list answer, and how long a resumption token stays
 * valid (§3.5 of the protocol: long enough for a slow harvester to come back).
 */
export const OAI_LIMITS = { pageSize: 100, tokenLifetimeSeconds: 24 * 60 * 60 } as const

/** Tolerated clock difference between replicas when checking exp/iat/nbf (RFC 8725 §3.10). */
export const CLOCK_SKEW_SECONDS = 30

/** Seconds an agent should wait between claim-grant polls (RFC 8628 §3.5 `interval`). */
export const CLAIM_POLL_INTERVAL_SECONDS = 5

/** Verified tokens remembered, so a presented token's signature is checked once. */
export const VERIFIED_TOKEN_CACHE_SIZE = 50_000

/** Credentials resolved on reads remembered by their header (revocation is still read on every call). */
export const KNOWN_CREDENTIALS_CACHE_SIZE = 10_000

/** Client addresses remembered as over a write budget until their window ends (refused without a store call). */
export const REFUSED_CLIENTS_CACHE_SIZE = 10_000

/** Timeouts and size caps of the HTTP server. */
export const SERVER_TIMEOUTS = {
  /** Time a client has to send all request headers. */
  headersTimeoutMs: 10_000,
  /** Time a client has to send the whole request, body included. */
  requestTimeoutMs: 30_000,
  maxHeaderBytes: 16 * 1024,
  /** Longer than the proxy's, so nginx never reuses a socket we are closing. */
  keepAliveTimeoutMs: 65_000,
  /** How long in-flight requests get to finish after SIGTERM before the process exits anyway. */
  drainTimeoutMs: 25_000,
} as const

/**
 * How long a Redis command may wait, and how long connecting may take, before failing as
 * unavailable; on a Cluster, how long a write waits for its replica (below commandMs) and how
 * often the slot map is refreshed.
 */
export const REDIS_TIMEOUTS = { commandMs: 1500, connectMs: 2000, replicaAckMs: 1000, slotsRefreshMs: 2000 } as const

/** Seconds a client is told to wait when the store or the article index is not there yet. */
export const RETRY_AFTER_SECONDS = { storeUnavailable: 5, indexLoading: 2 } as const

/**
 * Fetching a Client ID Metadata Document (the client_id is a URL the client names): small, quick,
 * and cached within bounds whatever the document's own caching headers say.
 */
export const CLIENT_METADATA_FETCH = {
  timeoutMs: 5000,
  maxBytes: 5 * 1024,
  /** Cache bounds in seconds, and the lifetime of a document that sends no caching headers. */
  minCacheSeconds: 60,
  maxCacheSeconds: 24 * 60 * 60,
  defaultCacheSeconds: 5 * 60,
  /** A document that could not be fetched is not fetched again for this long. */
  failureCacheSeconds: 30,
} as const

/** Bounds of client metadata, registered (RFC 7591) or fetched (client ID metadata document). */
export const CLIENT_METADATA_LIMITS = {
  redirectUris: 10,
  uriLength: 2000,
  clientName: 200,
  /** Entries of `grant_types` or `response_types`. */
  listItems: 10,
  /** A registration request's JSON body. */
  registrationBody: '8kb',
} as const

/**
 * The longest value of each field of a request (form, query or JSON), in characters: the code
 * refuses a longer one with 400 invalid_request (http/forms.ts) and the OpenAPI document declares
 * the same `maxLength`, so both read this one table.
 */
export const FIELD_LIMITS = {
  // Tokens and assertions: JWTs and opaque secrets.
  assertion: 8192,
  token: 8192,
  token_type_hint: 64,
  code: 128,
  code_verifier: 128,
  refresh_token: 128,
  claim_token: 512,
  // The OAuth request itself.
  grant_type: 256,
  client_id: 2048,
  redirect_uri: 2048,
  resource: 2048,
  scope: 512,
  state: 1024,
  response_type: 64,
  code_challenge: 256,
  code_challenge_method: 16,
  // The consent form and agent registration.
  decision: 16,
  transaction: 64,
  type: 64,
  assertion_type: 200,
  login_hint: 320,
  label: LABEL_MAX,
} as const

export type FieldName = keyof typeof FIELD_LIMITS
