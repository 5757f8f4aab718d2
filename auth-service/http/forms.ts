import express, { type RequestHandler } from 'express'
import { ServiceError } from '../errors.ts'

/** Bodies are small: a token request or a label. Bounded size and field count (413/400 beyond). */
export const formBody: RequestHandler = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 32 })
export const jsonBody: RequestHandler = express.json({ limit: '16kb', type: ['application/json', 'application/*+json'] })

type Fields = Record<string, unknown>

/** The request body as an object of fields; refuses arrays, scalars and `null`. */
export function bodyFields(body: unknown): Fields {
  if (body === undefined) return {}
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ServiceError('invalid_request', 'The request body must be an object of fields.')
  if (depth(body) > MAX_JSON_DEPTH) throw new ServiceError('invalid_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`)
  return body as Fields
}

/** No request of this API needs more than a flat object; deep nesting is refused early. */
const MAX_JSON_DEPTH = 8

function depth(value: unknown): number {
  let max = 0
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length) {
    const [v, d] = stack.pop()!
    if (typeof v !== 'object' || v === null) continue
    if (d > max) max = d
    if (max > MAX_JSON_DEPTH) return max
    for (const child of Object.values(v)) stack.push([child, d + 1])
  }
  return max
}

/** A field given at most once as text (RFC 6749 §3.2: parameters must not repeat). */
export function optionalField(fields: Fields, name: string, maxLength = 8192): string | undefined {
  const value = fields[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw new ServiceError('invalid_request', `"${name}" must be given once, as a string.`)
  if (value.length > maxLength) throw new ServiceError('invalid_request', `"${name}" must be at most ${maxLength} characters.`)
  return value
}

export function requiredField(fields: Fields, name: string, maxLength = 8192): string {
  const value = optionalField(fields, name, maxLength)
  if (value === undefined || value === '') throw new ServiceError('invalid_request', `The field "${name}" is required.`)
  return value
}

/** True for a form-encoded request, whatever its parameters (charset etc.). */
export function isForm(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded'
}
