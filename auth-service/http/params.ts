import { ServiceError } from '../errors.ts'

type Query = Record<string, unknown>

/** An optional integer query parameter within bounds; anything else is a 400 naming the range. */
export function intParam(query: Query, name: string, bounds: { min: number; max: number; fallback: number }): number {
  const raw = query[name]
  if (raw === undefined) return bounds.fallback
  const range = `an integer from ${bounds.min} to ${bounds.max}`
  if (typeof raw !== 'string') throw new ServiceError('invalid_request', `"${name}" must be given once, as ${range}.`)
  if (!/^\d{1,6}$/.test(raw)) throw new ServiceError('invalid_request', `"${name}" must be ${range}, got "${raw.slice(0, 40)}".`)
  const n = Number(raw)
  if (n < bounds.min || n > bounds.max) throw new ServiceError('invalid_request', `"${name}" must be ${range}, got ${n}.`)
  return n
}

/** A required text query parameter: present once, not blank, bounded in length. */
export function textParam(query: Query, name: string, maxLength: number): string {
  const raw = query[name]
  if (raw === undefined) throw new ServiceError('invalid_request', `The query parameter "${name}" is required.`)
  if (typeof raw !== 'string') throw new ServiceError('invalid_request', `"${name}" must be given once, as text.`)
  const value = raw.trim()
  if (value.length === 0) throw new ServiceError('invalid_request', `"${name}" must not be blank.`)
  if (value.length > maxLength) throw new ServiceError('invalid_request', `"${name}" must be at most ${maxLength} characters.`)
  return value
}
