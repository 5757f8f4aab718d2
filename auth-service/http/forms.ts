import type { IncomingMessage } from 'node:http'
import express, { type RequestHandler } from 'express'
import typeis from 'type-is'
import { BODY_LIMITS, FIELD_LIMITS, type FieldName } from '../defaults.ts'
import { ServiceError } from '../errors.ts'
import type { Call, Step } from './action.ts'
import { middleware } from './middleware-step.ts'

export const JSON_TYPES = ['application/json', 'application/*+json']
export const FORM_TYPE = 'application/x-www-form-urlencoded'

/**
 * A step that reads the body with one of Express's parsers (body-parser), when its type is the
 * parser's: `call.body` is then what it parsed. A body already read is left as it is.
 */
export function bodyStep(parser: RequestHandler): Step {
  const parse = middleware(parser)
  return async (call) => {
    await parse(call)
    call.body = (call.req as { body?: unknown }).body
  }
}

/** Bodies are small: a token request or a label. Bounded size and field count (413/400 beyond). */
export const formBody = bodyStep(
  express.urlencoded({ extended: false, limit: BODY_LIMITS.form, parameterLimit: BODY_LIMITS.fields }),
)
export const jsonBody = bodyStep(express.json({ limit: BODY_LIMITS.form, type: JSON_TYPES }))

/** Whether the request's body is of one of `types` (as Express's `req.is`): false without a body. */
export const isType = (req: IncomingMessage, types: string[]): boolean => Boolean(typeis(req, types))

/** True when the request carries a body of at least one byte. */
export function hasBody(req: IncomingMessage): boolean {
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
export function formFields(call: Call): Fields {
  if (!isType(call.req, [FORM_TYPE]))
    throw new ServiceError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.')
  return bodyFields(call.body)
}

/** A JSON answer, as Express's `res.json` writes it, with the call's headers. */
export function sendJson(call: Call, status: number, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value))
  call.res
    .writeHead(status, [
      ...call.headers,
      ...['Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(body.length)],
    ])
    .end(call.req.method === 'HEAD' ? undefined : body)
}

/**
 * A 303 to `url` (RFC 9110 §15.4.4) with a plain-text note, the same for every client, so no
 * `Vary: Accept`: a browser follows the Location and never shows it.
 */
export function seeOther(call: Call, url: string): void {
  const body = Buffer.from(`See Other. Redirecting to ${url}`)
  call.res
    .writeHead(303, [
      ...call.headers,
      ...['Location', url, 'Content-Type', 'text/plain; charset=utf-8'],
      ...['Content-Length', String(body.length)],
    ])
    .end(call.req.method === 'HEAD' ? undefined : body)
}
