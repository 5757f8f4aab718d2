import type { Json } from '../http/action.ts'
import { CURSOR_MAX_LENGTH } from '../http/cursor.ts'

/** Building blocks of the OpenAPI operations that the actions describe themselves with. */

/** A schema of schemas/schemas.ts (the OpenAPI validity test resolves every reference). */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

export const json = (schema: Json, example?: unknown) => ({
  'application/json': { schema, ...(example === undefined ? {} : { example }) },
})

/** A documented error answer; the first code is the example's. */
export const error = (description: string, codes: string[]) => ({
  description,
  content: json(ref('Error'), { error: codes[0], error_description: 'What to fix, in one sentence.' }),
})

// The schemas of these headers are the document's RESPONSE_HEADERS (openapi/response-headers.ts).
export const cachedRead = {
  ETag: { description: 'Validator for conditional requests (If-None-Match).' },
  'Last-Modified': { description: 'Validator for If-Modified-Since.' },
  'Cache-Control': {},
}

export const noStore = { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } }

/** A page or document whose shape is its format's (HTML, OAI-PMH's XML Schema), not a JSON Schema's. */
export const markup = (type: 'text/html' | 'text/xml') => ({ [type]: {} })

export const READ_ERRORS = {
  '304': { description: 'Not modified: the copy named by If-None-Match or If-Modified-Since is current.' },
  '401': {
    ...error('The bearer credential is invalid, expired or revoked.', ['invalid_token']),
    headers: { 'WWW-Authenticate': { description: 'Bearer error="invalid_token", resource_metadata="…"' } },
  },
  '403': error('The token lacks the scope this call needs.', ['insufficient_scope']),
  '412': error('If-Match or If-Unmodified-Since did not hold: the answer changed.', ['precondition_failed']),
  '503': error('Temporarily unavailable; retry after Retry-After seconds.', ['temporarily_unavailable']),
}

export const limitParam = (bounds: { min: number; max: number; fallback: number }) => ({
  name: 'limit',
  in: 'query',
  required: false,
  description: `How many posts, ${bounds.min} to ${bounds.max}. Anything else is a 400 invalid_request.`,
  schema: { type: 'integer', format: 'int32', minimum: bounds.min, maximum: bounds.max, default: bounds.fallback },
})

export const cursorParam = {
  name: 'cursor',
  in: 'query',
  required: false,
  description:
    'Where the page starts: the `next_cursor` of the previous page, unchanged. ' +
    'Opaque; valid only with the same filters (and q) as the page that gave it, with any limit. ' +
    'A malformed or foreign cursor is a 400 invalid_request.',
  schema: { type: 'string', minLength: 1, maxLength: CURSOR_MAX_LENGTH },
}

/** The paged answers' pointer to the next page (RFC 8288), absent on the last. */
export const nextLink = {
  Link: { description: 'The next page, as `<url>; rel="next"` (RFC 8288); absent on the last page.' },
}

/** The budget's headers (IETF RateLimit header fields, draft 8), on every answer of a budgeted operation. */
export const RATE_LIMIT_HEADERS = {
  RateLimit: { description: 'What is left of each budget and when it refills, e.g. `"reads"; r=119; t=60`.' },
  'RateLimit-Policy': { description: 'The budgets this request draws on, e.g. `"reads"; q=120; w=60`.' },
}

/** Answers any operation may give: a body too large, too many requests, or an unexpected failure. */
export const COMMON = {
  '413': error('The body is too large.', ['payload_too_large']),
  '429': {
    ...error('Too many requests from this client; the RateLimit headers give the budget.', ['rate_limited']),
    headers: { 'Retry-After': { description: 'Seconds to wait.' }, ...RATE_LIMIT_HEADERS },
  },
  default: error('Any other error, in the same shape (500 server_error: retry with backoff).', ['server_error']),
}

/** The discovery documents' answers. */
export const documentResponses = (schema: string) => ({
  '200': { description: 'The metadata.', content: json(ref(schema)) },
  '304': READ_ERRORS['304'],
  '412': READ_ERRORS['412'],
})

export const SAMPLE_POST = {
  slug: 'tail-latency-in-fan-out-services',
  title: 'Tail Latency in Fan-Out Services: Why p99 Becomes the Median',
  description: 'Fan-out multiplies tail latency.',
  date: '2025-07-09',
  lastModified: '2025-08-01T14:20:00.000Z',
  author: 'Jonas Lindqvist',
  authors: [
    {
      name: 'Jonas Lindqvist',
      orcid: '0000-0002-1825-0097',
      affiliation: null,
      url: 'https://research.example.org/authors/0000-0002-1825-0097',
    },
  ],
  tags: ['distributed-systems', 'performance'],
  url: 'https://research.example.org/posts/tail-latency-in-fan-out-services',
  markdown_url: 'https://research.example.org/posts/tail-latency-in-fan-out-services.md',
  image: 'https://research.example.org/images/default-cover.svg',
  doi: '10.5555/12345678',
  license: 'CC-BY-4.0',
  changes: [{ date: '2025-08-01', note: 'Corrected the units in Table 2.' }],
}
