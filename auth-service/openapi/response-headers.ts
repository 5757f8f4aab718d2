/**
 * The schema of every response header the document names, each bounded by what the code writes:
 * the document's operations name a header and say what it means, and take its schema from here.
 */
import { SCOPES } from '../auth/policy.ts'
import { FIELD_LIMITS, RETRY_AFTER_SECONDS } from '../defaults.ts'
import { ERROR_DESCRIPTION_MAX } from '../errors.ts'
import { CORS_HEADERS } from '../http/cors.ts'
import { WRITE_WINDOWS } from '../http/rate-limits.ts'
import { READ_BUDGET_NAMES, WINDOW_SECONDS } from '../http/read-budget.ts'
import { ORIGIN_MAX, SENT_URL_MAX } from '../../model/wire-limits.ts'
import type { Json } from '../http/action.ts'
import { LINE_MAX } from '../schemas/shared.ts'

const bounded = (maxLength: number) => ({ type: 'string', maxLength })
const longest = (values: readonly string[]) => Math.max(...values.map((v) => v.length))

/** A budget's quota: config.ts takes at most nine digits. */
const QUOTA = '9'.repeat(9)
const WINDOWS = { ...WRITE_WINDOWS, ...Object.fromEntries(READ_BUDGET_NAMES.map((n) => [n, WINDOW_SECONDS])) }
/** express-rate-limit's partition key (draft 8): base64 of 12 hex digits of a SHA-256. */
const PARTITION_KEY = 'x'.repeat(16)
/** The budgets one request may draw on: the general writes budget, the row's own, the refused credentials'. */
const BUDGETS_PER_REQUEST = 3
/** A header listing one item per budget drawn on (RFC 9651 §3.1), each at most `item` long. */
const budgetList = (item: (name: string, window: number) => string) => {
  const max = longest(Object.entries(WINDOWS).map(([name, w]) => item(name, w)))
  return bounded(BUDGETS_PER_REQUEST * max + (BUDGETS_PER_REQUEST - 1) * ', '.length)
}

/** A prepared body's ETag (`"` and 27 base64url characters), or a file's (`"<mtime hex>-<size hex>"`). */
const MAX_HEX = Number.MAX_SAFE_INTEGER.toString(16)
const ETAG_MAX = Math.max(29, `"${MAX_HEX}-${MAX_HEX}"`.length)
/** An IMF-fixdate (RFC 9110 §5.6.7), as toUTCString writes it. */
const HTTP_DATE_LENGTH = 'Sun, 06 Nov 1994 08:49:37 GMT'.length

/**
 * The longest redirect to a client: its redirect URI, then the names (100 characters at most) and
 * values of code, state, iss, error and error_description, each value percent-encoded.
 */
const REDIRECT_MAX =
  FIELD_LIMITS.redirect_uri +
  100 +
  3 * (FIELD_LIMITS.code + FIELD_LIMITS.state + ORIGIN_MAX + LINE_MAX + ERROR_DESCRIPTION_MAX)

export const RESPONSE_HEADERS: Record<string, Json> = {
  ...Object.fromEntries(Object.entries(CORS_HEADERS).map(([name, value]) => [name, { type: 'string', const: value }])),
  RateLimit: budgetList((name, w) => `"${name}"; r=${QUOTA}; t=${w}`),
  'RateLimit-Policy': budgetList((name, w) => `"${name}"; q=${QUOTA}; w=${w}; pk=:${PARTITION_KEY}:`),
  'Retry-After': {
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: Math.max(...Object.values(WINDOWS), ...Object.values(RETRY_AFTER_SECONDS)),
  },
  ETag: bounded(ETAG_MAX),
  'Last-Modified': bounded(HTTP_DATE_LENGTH),
  Link: bounded(`<>; rel="next"`.length + SENT_URL_MAX),
  Location: { ...bounded(REDIRECT_MAX), format: 'uri' },
  'WWW-Authenticate': bounded(
    `Bearer error="insufficient_scope", scope="${SCOPES.join(' ')}", resource_metadata=""`.length + SENT_URL_MAX,
  ),
}
