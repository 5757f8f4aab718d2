import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ErrorRequestHandler, RequestHandler } from 'express'
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
 * ServiceError. The pipeline sends it (http/pipeline.ts) without Express's request set-up.
 */
export interface ReadAction {
  /** Cache-Control of a success; the API's short shared caching when omitted. */
  cacheControl?: string
  /** The OpenAPI operation; none for a document that is not part of the API it describes. */
  operation?(ctx: OperationContext): Json
  read(ctx: ActionContext): (input: ReadInput) => PreparedBody
}

/** Any other action: Express-style handlers, thin and without try/catch (the pipeline forwards throws). */
export interface HandlerAction {
  operation(ctx: OperationContext): Json
  handle(ctx: ActionContext): RequestHandler[]
  /** Answers the route's refusals itself (an HTML page, not JSON); what it passes on goes to the one error answer. */
  refuse?(ctx: ActionContext): ErrorRequestHandler
}

/**
 * A read that carries a body (a message to /mcp), answered on the plain request and response
 * without Express's set-up: the pipeline runs the row's stages (the resource's guard, the
 * credential, the read budget) and hands the action the caller; the action reads the body and
 * answers. A throw or a rejection is answered as an error, as on every row.
 */
export interface ExchangeAction {
  operation(ctx: OperationContext): Json
  exchange(ctx: ActionContext): (call: ActionCall) => void | Promise<void>
}

/** A request handed to an ExchangeAction, with what the pipeline found out. */
export interface ActionCall {
  req: IncomingMessage
  res: ServerResponse
  principal: Principal
  /** The path and query of its target, parsed (never the raw request line: http/request-target.ts). */
  target: RequestTarget
  /** Name/value pairs every answer to it carries (the pipeline's, the budget's): pass them to writeHead. */
  headers: readonly string[]
}

export type Action = ReadAction | HandlerAction | ExchangeAction

/** Whether an action answers from a prepared body. */
export const isReadAction = (action: Action): action is ReadAction => 'read' in action

/** Whether an action answers on the plain request itself. */
export const isExchangeAction = (action: Action): action is ExchangeAction => 'exchange' in action
