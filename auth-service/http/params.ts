import { READ_LIMITS } from '../defaults.ts'
import { ServiceError } from '../errors.ts'

type Query = Record<string, unknown>

/** An optional integer query parameter within bounds; anything else is a 400 naming the range. */
export function intParam(query: Query, name: string, bounds: { min: number; max: number; fallback: number }): number {
  const raw = query[name]
  if (raw === undefined) return bounds.fallback
  const range = `an integer from ${bounds.min} to ${bounds.max}`
  if (typeof raw !== 'string') throw new ServiceError('invalid_request', `"${name}" must be given once, as ${range}.`)
  if (!/^\d{1,6}$/.test(raw))
    throw new ServiceError('invalid_request', `"${name}" must be ${range}, got "${raw.slice(0, 40)}".`)
  const n = Number(raw)
  if (n < bounds.min || n > bounds.max)
    throw new ServiceError('invalid_request', `"${name}" must be ${range}, got ${n}.`)
  return n
}

/** A required text query parameter: present once, not blank, bounded in length. */
export function textParam(query: Query, name: string, maxLength: number): string {
  const raw = query[name]
  if (raw === undefined) throw new ServiceError('invalid_request', `The query parameter "${name}" is required.`)
  if (typeof raw !== 'string') throw new ServiceError('invalid_request', `"${name}" must be given once, as text.`)
  const value = raw.trim()
  if (value.length === 0) throw new ServiceError('invalid_request', `"${name}" must not be blank.`)
  if (value.length > maxLength)
    throw new ServiceError('invalid_request', `"${name}" must be at most ${maxLength} characters.`)
  return value
}

/** An optional text query parameter: absent, or present once, not blank, bounded in length. */
export function optionalTextParam(query: Query, name: string, maxLength: number): string | undefined {
  return query[name] === undefined ? undefined : textParam(query, name, maxLength)
}

/**
 * Refuses a parameter the endpoint does not take: a misspelt filter (or an `offset`) silently
 * ignored would hand back pages the caller did not ask for.
 */
export function onlyParams(query: Query, names: readonly string[]): void {
  for (const name in query) {
    if (names.includes(name)) continue
    const hint =
      name === 'offset' || name === 'page' ? ' Page with "cursor": pass the previous answer\'s next_cursor.' : ''
    throw new ServiceError(
      'invalid_request',
      `"${name.slice(0, 40)}" is not a parameter here; the parameters are ${names.join(', ')}.${hint}`,
    )
  }
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i

/**
 * An optional ISO 8601 moment as milliseconds: a day (`2025-03-14`, midnight UTC) or a date-time
 * with its offset (`2025-03-14T10:30:00Z`, `…+02:00`); a date-time without one is refused, as
 * ambiguous. A `+` sent unencoded arrives as a space and is read as the `+` it was.
 */
export function instantParam(query: Query, name: string): number | undefined {
  const raw = query[name]
  if (raw === undefined) return undefined
  const form = 'an ISO 8601 date (2025-03-14) or date-time with offset (2025-03-14T10:30:00Z)'
  if (typeof raw !== 'string' || raw.length > READ_LIMITS.instantLength)
    throw new ServiceError('invalid_request', `"${name}" must be given once, as ${form}.`)
  const value = raw.trim().replace(/ (\d{2}:\d{2})$/, '+$1')
  const parts = ISO_DAY.exec(value) ?? ISO_DATE_TIME.exec(value)
  const ms = parts ? Date.parse(value) : NaN
  // Date.parse rolls 2025-02-30 over to March: the calendar date must be the one written.
  const [, y, m, d, hh, mm, ss] = parts ?? []
  const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)))
  const valid =
    !Number.isNaN(ms) &&
    day.getUTCMonth() === Number(m) - 1 &&
    day.getUTCDate() === Number(d) &&
    Number(hh ?? 0) < 24 &&
    Number(mm ?? 0) < 60 &&
    Number(ss ?? 0) < 60
  if (!valid) throw new ServiceError('invalid_request', `"${name}" must be ${form}, got "${value.slice(0, 40)}".`)
  return ms
}
