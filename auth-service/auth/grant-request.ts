/**
 * What a client may ask for in a token or authorization request, shared by the token endpoint
 * and the authorization endpoint: the scope (RFC 6749 §3.3) and the resource (RFC 8707 §2).
 */
import { ServiceError } from '../errors.ts'
import { SCOPES } from './policy.ts'

/**
 * RFC 8707 §2: the token is bound to the resource asked for, one of this service's; the first (the
 * REST API) by default.
 */
export function requestedResource(resources: readonly string[], requested: string | undefined): string {
  if (requested === undefined) return resources[0]!
  if (!resources.includes(requested))
    throw new ServiceError('invalid_target', `The resources here are ${resources.join(' and ')}.`)
  return requested
}

/** RFC 6749 §3.3: the scopes asked for, in the host's order; every scope when none is named. */
export function grantedScope(requested: string | undefined): string {
  if (requested === undefined || requested.trim() === '') return SCOPES.join(' ')
  const wanted = [...new Set(requested.trim().split(/ +/))]
  const unknown = wanted.filter((s) => !(SCOPES as readonly string[]).includes(s))
  if (unknown.length)
    throw new ServiceError(
      'invalid_scope',
      `Unknown scope "${unknown[0]!.slice(0, 64)}"; this host grants ${SCOPES.join(' ')}.`,
    )
  return SCOPES.filter((s) => wanted.includes(s)).join(' ')
}
