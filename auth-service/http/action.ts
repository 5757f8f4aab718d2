import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PostIndex, PreparedBody } from '../../post-index/post-index.ts'
import type { FetchOptions } from '../auth/client-metadata-fetch.ts'
import type { SigningKey } from '../auth/signing-key.ts'
import type { TokenService } from '../auth/tokens.ts'
import type { Principal } from './bearer.ts'
import type { LogError } from './errors-middleware.ts'
import type { ReadInput } from './read-path.ts'
import type { RequestTarget } from './request-target.ts'
import type { Store } from '../store/store.ts'

/** An OpenAPI fragment (routes/openapi-parts.ts builds them). */
export type Json = Record<string, unknown>

/** What an operation's description may depend on. */
export interface OperationContext {
  baseUrl: string
  /** The absolute URL of an endpoint, by its operationId. */
  url(operationId: string): string
}

/** What every action may use: state through interfaces only, never a driver or process.env. */
export interface ActionContext {
  baseUrl: string
  /** The absolute URL of an endpoint of the table, by its operationId. */
  url(operationId: string): string
  /** A query string as every row reads it (Express's query parser, with the app's settings). */
  parseQuery(search: string | null): Record<string, unknown>
  /** The live post index; a 503 `temporarily_unavailable` while the first one loads. */
  posts(): PostIndex
  store: Store
  tokens: TokenService
  signingKey: SigningKey
  anonymousRegistration: boolean
  /** How client ID metadata documents are fetched (development origins allowed, extra CA). */
  clientMetadata: FetchOptions
  /** The static build served, whose authorization page template the consent page fills; none in API-only use. */
  siteDir?: string
  onIssued(kind: 'api_key' | 'identity' | 'access_token'): void
  /** The OpenAPI document, for the endpoint that serves it. */
  openapi: object
  /** Where failures that are not a client's mistake are reported, for handlers that answer them themselves. */
  logError: LogError
  /** Where a refusal that its answer explains is noted: one info line with its code, never a stack. */
  logRefusal(refusal: { code: string | number; message: string }, context: { method: string; path: string }): void
  /** Records per OAI-PMH list answer; OAI_LIMITS.pageSize unless given. */
  oaiPageSize?: number
}

/**
 * A GET answered from a prepared body: parse the input, find or build the body, or throw a
 * ServiceError. The runner's last step sends it in one write (http/runner.ts).
 */
export interface ReadAction {
  /** Cache-Control of a success; the API's short shared caching when omitted. */
  cacheControl?: string
  /** The OpenAPI operation; none for a document that is not part of the API it describes. */
  operation?(ctx: OperationContext): Json
  read(ctx: ActionContext): (input: ReadInput) => PreparedBody
}

/**
 * One request as a row's steps and its action see it: what the pipeline and the steps before
 * found out, and where the answer goes.
 */
export interface Call {
  req: IncomingMessage
  res: ServerResponse
  /** The path's parameters, decoded (http/route-table.ts). */
  params: Readonly<Record<string, string>>
  /** The path and query of its target, parsed (never the raw request line: http/request-target.ts). */
  target: RequestTarget
  /** Name/value pairs every answer to it carries (the pipeline's, a budget's): pass them to writeHead. */
  headers: string[]
  /** The caller, once the credential step has run; anonymous before and without one. */
  principal: Principal
  /** The request body, once a body step has read it (http/forms.ts). */
  body?: unknown
}

/**
 * The one handler shape: each step of a row, and its action, takes the call and refuses by
 * throwing or rejecting. A step that has nothing to wait for returns nothing, so a row whose
 * steps all do runs without a turn of the event loop (http/runner.ts).
 */
export type Step = (call: Call) => void | Promise<void>

/** Any other action: its steps, each thin and without try/catch (the runner answers throws). */
export interface HandlerAction {
  operation(ctx: OperationContext): Json
  handle(ctx: ActionContext): Step[]
  /**
   * Answers the row's refusals itself (an HTML page, not JSON): the page on its way, or false to
   * leave the refusal to the one error answer (which also answers a page that fails).
   */
  refuse?(ctx: ActionContext): (err: unknown, call: Call) => Promise<void> | false
}

export type Action = ReadAction | HandlerAction

/** Whether an action answers from a prepared body. */
export const isReadAction = (action: Action): action is ReadAction => 'read' in action
