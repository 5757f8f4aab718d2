import type { Scope } from '../auth/policy.ts'
import type { Action } from './action.ts'

/**
 * Budgets an endpoint draws on (limits in defaults.ts). `reads` counts every read; the issuance
 * budgets count only what was issued. Every POST also draws on the general `writes` budget.
 */
export type Budget = 'reads' | 'keys' | 'identities' | 'tokens' | 'clients'

/**
 * What a request to the endpoint does: `read` changes nothing (a GET, or a message to /mcp);
 * `write` stores something; `credential` issues, revokes or consents to a credential. Writes and
 * credentials draw on the general `writes` budget; reads never do.
 */
export type Kind = 'read' | 'write' | 'credential'

export interface Endpoint {
  /** The OpenAPI operationId, and the name other documents refer to the endpoint by. */
  operationId: string
  method: 'GET' | 'POST'
  /** An Express path (`:name` parameters). */
  path: string
  kind: Kind
  budget?: Budget
  /**
   * The scope an identified caller needs. The pipeline checks it on reads; a message to /mcp may
   * need more, which its handler checks. Rows under a protected resource are bearer-checked.
   */
  scope?: Scope
  /**
   * The row answers pages for people (the consent page), which carry the pages' security
   * headers; every other row answers programs (http/security-headers.ts apiSecurityHeaderList).
   */
  page?: true
  action: Action
}

/** The protected resource (RFC 9728): every path under it is bearer-checked. */
export const RESOURCE_PATH = '/api/v1'

/** The MCP endpoint (Streamable HTTP), a second protected resource with its own metadata. */
export const MCP_PATH = '/mcp'

/**
 * The protected resources access tokens are issued for (RFC 8707 `resource`), as absolute URLs;
 * the REST API first, as the default audience of a token requested without `resource`.
 */
export function protectedResources(baseUrl: string): [string, ...string[]] {
  return [`${baseUrl}${RESOURCE_PATH}`, `${baseUrl}${MCP_PATH}`]
}

/** `/api/v1/posts/:slug` as OpenAPI writes it: `/api/v1/posts/{slug}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')
