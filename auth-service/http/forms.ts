import express, { type Request, type RequestHandler } from 'express'
import { BODY_LIMITS, FIELD_LIMITS, type FieldName } from '../defaults.ts'
import { ServiceError } from '../errors.ts'

export const JSON_TYPES = ['application/json', 'application/*+json']
export const FORM_TYPE = 'application/x-www-form-urlencoded'

/** Bodies are small: a token request or a label. Bounded size and field count (413/400 beyond). */
export const formBody: RequestHandler = express.urlencoded({
  extended: false,
  limit: BODY_LIMITS.form,
  parameterLimit: BODY_LIMITS.fields,
})
export const jsonBody: RequestHandler = express.json({ limit: BODY_LIMITS.form, type: JSON_TYPES })

/** True when the request carries a body of at least one byte. */
export function hasBody(req: Request): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined
}

type Fields = Record<string, unknown>

/** The request body as an object of fields; refuses arrays, scalars and `null`. */
export function bodyFields(body: unknown): Fields {
  if (body === undefined) return {}
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ServiceError('invalid_request', 'The request body must be an object of fields.')
  if (nestsTooDeep(body))
    throw new ServiceError('invalid_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`)
  return body as Fields
}

/** No request of this API (nor an MCP message) needs more than a few levels; deep nesting is refused early. */
export const MAX_JSON_DEPTH = 8

/** Whether a parsed JSON body nests objects or arrays deeper than MAX_JSON_DEPTH (counted without recursion). */
export const nestsTooDeep = (body: unknown): boolean => depth(body) > MAX_JSON_DEPTH

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

/** A field given at most once as text (RFC 6749 §3.2: parameters must not repeat), within its limit. */
export function optionalField(
  fields: Fields,
  name: FieldName,
  maxLength: number = FIELD_LIMITS[name],
): string | undefined {
  const value = fields[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw new ServiceError('invalid_request', `"${name}" must be given once, as a string.`)
  if (value.length > maxLength)
    throw new ServiceError('invalid_request', `"${name}" must be at most ${maxLength} characters.`)
  return value
}

export function requiredField(fields: Fields, name: FieldName): string {
  const value = optionalField(fields, name)
  if (value === undefined || value === '') throw new ServiceError('invalid_request', `The field "${name}" is required.`)
  return value
}

/** The fields of a form-encoded request (RFC 6749 §4.1.3 and alike); anything else is a 400. */
export function formFields(req: Request): Fields {
  if (!req.is(FORM_TYPE))
    throw new ServiceError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.')
  return bodyFields(req.body)
}
