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
  return body as Fields
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
