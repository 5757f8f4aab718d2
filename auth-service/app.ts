import type { IncomingMessage, RequestListener } from 'node:http'
import express, { type Express } from 'express'
import proxyaddr from 'proxy-addr'
import type { Logger } from 'pino'
import type { PostIndex } from '../post-index/post-index.ts'
import type { FetchOptions } from './auth/client-metadata-fetch.ts'
import type { SigningKey } from './auth/signing-key.ts'
import type { TokenService } from './auth/tokens.ts'
import { RETRY_AFTER_SECONDS, type RateLimits } from './defaults.ts'
import { ServiceError } from './errors.ts'
import { principalResolver } from './http/bearer.ts'
import { buildHeader } from './http/conditional.ts'
import { apiNotFound, errorHandler, type LogError } from './http/errors-middleware.ts'
import { pipeline } from './http/pipeline.ts'
import { addressKey, rateLimiters } from './http/rate-limits.ts'
import { badCredentialBudget, readBudget } from './http/read-budget.ts'
import { resourceCheck, rowAnswer, type RowParts } from './http/runner.ts'
import type { Resource } from './http/row-stages.ts'
import { apiSecurityHeaderList, securityHeaderList } from './http/security-headers.ts'
import { staticSite } from './http/static-site.ts'
import { originCheck } from './mcp/http.ts'
import { buildOpenApiDocument } from './openapi/document.ts'
import { requestLog } from './ops/logger.ts'
import type { Metrics } from './ops/metrics.ts'
import type { ActionContext } from './http/action.ts'
import { ENDPOINTS, endpointUrls } from './endpoints.ts'
import { MCP_PATH, RESOURCE_PATH, type Endpoint } from './http/endpoint.ts'
import { healthRouter } from './routes/health.ts'
import type { Store } from './store/store.ts'

export interface AppDeps {
  baseUrl: string
  /** The live post index, or undefined before the first one has loaded. */
  posts: () => PostIndex | undefined
  store: Store
  signingKey: SigningKey
  tokens: TokenService
  anonymousRegistration?: boolean
  /** Fetching client ID metadata documents: public https hosts only, unless origins are allowed for development. */
  clientMetadata?: FetchOptions
  /** The static build to serve; omitted in API-only tests. */
  siteDir?: string
  logError?: LogError
  /** Request logs (JSON lines with request ids); none in tests unless given. */
  logger?: Logger
  metrics?: Metrics
  /** False once shutdown has begun: /readyz then answers 503. */
  accepting?: () => boolean
  /** Express's "trust proxy": which hops may set X-Forwarded-For/Proto (e.g. "loopback"). */
  trustProxy?: string | boolean
  /** Per-client budgets, counted in the Store; none when omitted. */
  rateLimits?: RateLimits
  /** Records per OAI-PMH list answer (defaults.ts OAI_LIMITS unless given: tests page with fewer). */
  oaiPageSize?: number
}

/**
 * Builds the whole origin: one pipeline (http/pipeline.ts) runs every row of the endpoint table
 * (endpoints.ts): API, agent and OAuth endpoints, MCP, discovery; Express answers the
 * rest (health, the static site) inside the same frame. No I/O here.
 */
export function createApp(deps: AppDeps): RequestListener {
  const url = endpointUrls(deps.baseUrl)
  const logError = deps.logError ?? ((err) => console.error(err))
  const express = expressApp(deps.trustProxy)
  const ctx: ActionContext = {
    baseUrl: deps.baseUrl,
    url,
    parseQuery: express.get('query parser fn'),
    posts() {
      const index = deps.posts()
      if (!index)
        throw new ServiceError('temporarily_unavailable', 'The article index is loading; retry shortly.', {
          headers: { 'Retry-After': String(RETRY_AFTER_SECONDS.indexLoading) },
        })
      return index
    },
    store: deps.store,
    tokens: deps.tokens,
    signingKey: deps.signingKey,
    anonymousRegistration: deps.anonymousRegistration ?? true,
    clientMetadata: deps.clientMetadata ?? {},
    ...(deps.siteDir ? { siteDir: deps.siteDir } : {}),
    onIssued: (kind) => deps.metrics?.issued.inc({ kind }),
    openapi: buildOpenApiDocument(deps.baseUrl),
    logError,
    logRefusal: (refusal, context) => deps.logger?.info({ ...context, refusal }, 'request refused'),
    ...(deps.oaiPageSize === undefined ? {} : { oaiPageSize: deps.oaiPageSize }),
  }
  const limits = deps.rateLimits
  // The protected resources: the REST API (every path under it), and the MCP endpoint alone, with
  // tokens of its own, a 401 naming its own metadata, and browsers of other origins refused first.
  const resources: Resource[] = [
    {
      path: RESOURCE_PATH,
      subtree: true,
      resolve: principalResolver({
        store: deps.store,
        tokens: deps.tokens,
        resourceMetadataUrl: url('getProtectedResourceMetadata'),
      }),
      metadataUrl: url('getProtectedResourceMetadata'),
    },
    {
      path: MCP_PATH,
      subtree: false,
      resolve: principalResolver({
        store: deps.store,
        tokens: deps.tokens,
        resourceMetadataUrl: url('getMcpProtectedResourceMetadata'),
        resource: url('mcp'),
      }),
      metadataUrl: url('getMcpProtectedResourceMetadata'),
      guard: originCheck(deps.baseUrl),
    },
  ]
  const trust = express.get('trust proxy fn') as Parameters<typeof proxyaddr>[1]
  const clientAddress = (req: IncomingMessage) => addressKey(proxyaddr(req, trust))
  const parts: RowParts = {
    ctx,
    resources,
    readBudget: limits && readBudget(deps.store, limits),
    // A refused credential draws on its own per-address budget.
    badCredentials: limits && badCredentialBudget(deps.store, limits),
    limiters: limits && rateLimiters(deps.store, limits, clientAddress),
    buildHeader: () => buildHeader(deps.posts()),
    parseQuery: ctx.parseQuery,
    clientAddress,
    logError,
  }

  // What is not the table's: health, metrics, the static site, and a JSON 404 for the rest.
  express.use(
    healthRouter({
      posts: deps.posts,
      store: deps.store,
      accepting: deps.accepting ?? (() => true),
      metrics: deps.metrics,
    }),
  )
  if (deps.siteDir) express.use(staticSite(deps.siteDir, deps.baseUrl))
  express.use(apiNotFound)
  express.use(errorHandler(logError))

  const origin = { https: deps.baseUrl.startsWith('https:') }
  return pipeline({
    rows: (ENDPOINTS as readonly Endpoint[]).map((e) => rowAnswer(e, parts)),
    constantHeaders: securityHeaderList(origin),
    apiHeaders: apiSecurityHeaderList(origin),
    ...(deps.logger ? { requestLog: requestLog(deps.logger) } : {}),
    metrics: deps.metrics,
    accepting: deps.accepting,
    logError,
    checkCredential: resourceCheck(parts),
    rest: express,
  })
}

/** Express, for what the table does not answer, and the settings its handlers read. */
function expressApp(trustProxy: string | boolean | undefined): Express {
  const app = express()
  app.disable('x-powered-by')
  // Reads send precomputed validators; Express's per-response SHA-1 ETag would only cost time.
  app.set('etag', false)
  if (trustProxy !== undefined) app.set('trust proxy', trustProxy)
  // A path means one thing: `/Healthz` or `/healthz/` are not `/healthz` (as the table's paths).
  app.set('case sensitive routing', true)
  app.set('strict routing', true)
  return app
}
