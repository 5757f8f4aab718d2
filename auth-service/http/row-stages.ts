import type { IncomingMessage } from 'node:http'
import { ServiceError } from '../errors.ts'
import { ANONYMOUS, type Principal, type ResolvePrincipal } from './bearer.ts'
import { overBudget, rateLimitHeaders, type BadCredentialBudget, type ReadBudget } from './read-budget.ts'

/**
 * The stages a row's request passes before its action, each written once: prepared reads call
 * them directly, handler rows through `asHandlers`. A stage puts the headers it adds to every
 * answer from then on (a budget's) into `headers`, and refuses by throwing.
 */

/** A protected resource (RFC 9728): requests to its path are bearer-checked for it. */
export interface Resource {
  path: string
  /** Whether the paths below `path` are the resource's too (the REST API's are; the MCP endpoint is one path). */
  subtree: boolean
  resolve: ResolvePrincipal
  /** Named by a 403 insufficient_scope (RFC 6750 §3.1). */
  metadataUrl: string
  /** A check of the resource's own before the bearer's (MCP's origin rule): throws to refuse. */
  guard?: (req: IncomingMessage) => void
}

/** The protected resource a path belongs to, if any. */
export const resourceOf = (resources: readonly Resource[], path: string) =>
  resources.find((r) => path === r.path || (r.subtree && path.startsWith(`${r.path}/`)))

/** Where a stage adds name/value pairs to the answer. */
export type Headers = (pairs: readonly string[]) => void

export interface StageDeps {
  readBudget?: ReadBudget
  badCredentials?: BadCredentialBudget
  /** The client's budget key, behind the configured proxies. */
  clientAddress: (req: IncomingMessage) => string
}

/**
 * The bearer check (RFC 6750 §2.1): anonymous without a credential (at once, without a turn of
 * the event loop: the common case), else its holder. A refused credential draws on the
 * per-address budget of refusals, beyond which the answer is a 429 instead of the 401.
 */
export function credential(
  resource: Resource,
  req: IncomingMessage,
  deps: StageDeps,
  headers: Headers,
): Principal | Promise<Principal> {
  const authorization = req.headers.authorization
  if (authorization === undefined) return ANONYMOUS
  return resource.resolve(authorization).catch((err: unknown) => {
    if (deps.badCredentials && err instanceof ServiceError && err.code === 'invalid_token') {
      const decision = deps.badCredentials.take(deps.clientAddress(req))
      headers(rateLimitHeaders(decision))
      if (!decision.allowed) throw overBudget(decision)
    }
    throw err
  })
}

/** Counts one read on the caller's budget (by credential, else by address): 429 beyond it. */
export function drawRead(
  budget: ReadBudget,
  principal: Principal,
  req: IncomingMessage,
  deps: StageDeps,
  headers: Headers,
) {
  const decision = budget.take(principal, () => deps.clientAddress(req))
  headers(rateLimitHeaders(decision))
  if (!decision.allowed) throw overBudget(decision)
}
