import type { IncomingMessage, RequestListener } from 'node:http'
import express, { type ErrorRequestHandler, type RequestHandler } from 'express'
import proxyaddr from 'proxy-addr'
import type { Logger } from 'pino'
import type { PostIndex } from './articles/post-index.ts'
import type { FetchOptions } from './auth/client-metadata-fetch.ts'
import type { SigningKey } from './auth/signing-key.ts'
import type { TokenService } from './auth/tokens.ts'
import { RETRY_AFTER_SECONDS, type RateLimits } from './defaults.ts'
import { ServiceError } from './errors.ts'
import { authenticate, insufficientScope, hasScope, principalOf, principalResolver } from './http/bearer.ts'
import { buildHeader, sendPrepared } from './http/conditional.ts'
import { CORS_HEADERS, openCors } from './http/cors.ts'
import { apiNotFound, errorHandler, methodNotAllowed, type LogError } from './http/errors-middleware.ts'
import { addressKey, rateLimiters } from './http/rate-limits.ts'
import { refuseMalformedPath } from './http/malformed-path.ts'
import { badCredentialBudget, readBudget } from './http/read-budget.ts'
import { readFastPath, readRouteMatcher, type ReadRoute } from './http/read-path.ts'
import { constantHeaders, securityHeaderList } from './http/security-headers.ts'
import { staticSite } from './http/static-site.ts'
import { directAnswerer } from './mcp/direct.ts'
import { mcpFastPath } from './mcp/fast-path.ts'
import { originCheck } from './mcp/http.ts'
import { mcpServerFactory } from './mcp/server.ts'
import { buildOpenApiDocument } from './openapi/document.ts'
import { requestLineLogger, requestLogger } from './ops/logger.ts'
import type { Metrics } from './ops/metrics.ts'
import type { ActionContext } from './routes/action.ts'
import {
  ENDPOINTS,
  MCP_PATH,
  RESOURCE_PATH,
  allowedMethods,
  endpointUrls,
  namespaces,
  type Endpoint,
} from './routes/endpoints.ts'
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
  /** Answer successful reads of the API and plain MCP tool calls in one step (default); false runs them through the chain. */
  readFastPath?: boolean
  /** Records per OAI-PMH list answer (defaults.ts OAI_LIMITS unless given: tests page with fewer). */
  oaiPageSize?: number
}

/**
 * Builds the whole origin from the endpoint table (routes/endpoints.ts): API, agent and OAuth
 * endpoints, discovery, then the static site. No I/O here.
 */
export function createApp(deps: AppDeps): RequestListener {
  const app = express()
  app.disable('x-powered-by')
  // Reads send precomputed validators; Express's per-response SHA-1 ETag would only cost time.
  app.set('etag', false)
  if (deps.trustProxy !== undefined) app.set('trust proxy', deps.trustProxy)
  // A path means one thing: `/API/V1/posts` or `/api/v1/posts/` are not `/api/v1/posts`, so no
  // spelling walks around a per-path rule of the proxy in front (its limits and caching).
  app.set('case sensitive routing', true)
  app.set('strict routing', true)

  const url = endpointUrls(deps.baseUrl)
  const logError = deps.logError ?? ((err) => console.error(err))
  const ctx: ActionContext = {
    baseUrl: deps.baseUrl,
    url,
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
    ...(deps.oaiPageSize === undefined ? {} : { oaiPageSize: deps.oaiPageSize }),
  }
  const resourceMetadata = url('getProtectedResourceMetadata')
  const resolvePrincipal = principalResolver({
    store: deps.store,
    tokens: deps.tokens,
    resourceMetadataUrl: resourceMetadata,
  })
  // The MCP endpoint is a resource of its own: tokens for it, and a 401 naming its metadata.
  const resolveMcpPrincipal = principalResolver({
    store: deps.store,
    tokens: deps.tokens,
    resourceMetadataUrl: url('getMcpProtectedResourceMetadata'),
    resource: url('mcp'),
  })
  const budget = deps.rateLimits ? readBudget(deps.store, deps.rateLimits) : undefined
  // A refused credential draws on its own per-address budget: the chain decides every 401 (the
  // fast paths hand refused credentials to it), so each is counted once.
  const refusedCredential = deps.rateLimits && badCredentialBudget(deps.store, deps.rateLimits).refused
  const limiters = deps.rateLimits ? rateLimiters(deps.store, deps.rateLimits) : undefined
  const securityHeaders = securityHeaderList({ https: deps.baseUrl.startsWith('https:') })

  // Each action is built once; reads of the protected resource are shared with the fast path.
  const handlers = new Map<Endpoint, Array<RequestHandler | ErrorRequestHandler>>()
  const readRoutes: ReadRoute[] = []
  for (const e of ENDPOINTS as readonly Endpoint[]) {
    if (e.action.kind === 'write') {
      handlers.set(e, [...e.action.handle(ctx), ...(e.action.refuse ? [e.action.refuse(ctx)] : [])])
      continue
    }
    const read = e.action.read(ctx)
    const cacheControl = e.action.cacheControl
    // Reads of the protected resource answer from the post index: they name its build.
    const build = e.scope ? () => buildHeader(deps.posts()) : () => []
    handlers.set(e, [
      ((req, res) =>
        void sendPrepared(
          req,
          res,
          read({ params: req.params as Record<string, string>, query: req.query }),
          cacheControl,
          build(),
        )) satisfies RequestHandler,
    ])
    if (e.scope) readRoutes.push({ path: e.path, scope: e.scope, cacheControl, read })
  }

  if (deps.logger) app.use(requestLogger(deps.logger))
  if (deps.accepting) {
    const accepting = deps.accepting
    // While draining, close each keep-alive connection after its response, so the drain ends.
    app.use((_req, res, next) => {
      if (!accepting()) res.setHeader('Connection', 'close')
      next()
    })
  }
  app.use(constantHeaders(securityHeaders))
  if (deps.metrics) app.use(deps.metrics.middleware)
  app.use(refuseMalformedPath)

  const api = express.Router({ caseSensitive: true, strict: true })
  // The API, agents, OAuth and discovery are meant for any origin's scripts: no cookies are involved.
  api.use(openCors('GET, HEAD, POST, OPTIONS'))
  // Every write draws on the general budget (the authorization page too: it stores a consent, and
  // may fetch a client's metadata document); an issuance also on its own, which counts successes
  // only. A POST that is a read (a message to /mcp) draws on the read budget instead, after its bearer check.
  if (limiters)
    for (const e of ENDPOINTS as readonly Endpoint[])
      if (e.action.kind === 'write' && e.budget !== 'reads')
        api[e.method === 'GET' ? 'get' : 'post'](e.path, limiters.writes, ...(e.budget ? [limiters[e.budget]] : []))
  // The protected resource: a bearer credential is checked on every call, scopes and the read budget on reads.
  api.use(RESOURCE_PATH, authenticate(resolvePrincipal, refusedCredential))
  api.use(RESOURCE_PATH, scopeCheck(readRouteMatcher(readRoutes), resourceMetadata))
  if (budget) api.use(RESOURCE_PATH, budget.middleware)
  // The MCP endpoint: a browser page of another origin is refused first (DNS rebinding), then the
  // bearer is checked for this resource; every message is one read. Scopes depend on the message.
  // The endpoint alone: its server card below it is a public document for any origin.
  api.all(MCP_PATH, originCheck(deps.baseUrl), authenticate(resolveMcpPrincipal, refusedCredential))
  if (budget) api.post(MCP_PATH, budget.everyRequest)
  // Public reads outside the protected resources (OAI-PMH, by GET or POST) draw on the same budget.
  if (budget)
    for (const e of ENDPOINTS as readonly Endpoint[])
      if (e.budget === 'reads' && !e.scope) api[e.method === 'GET' ? 'get' : 'post'](e.path, budget.everyRequest)
  for (const e of ENDPOINTS as readonly Endpoint[])
    api[e.method === 'GET' ? 'get' : 'post'](e.path, ...handlers.get(e)!)
  for (const [path, allow] of allowedMethods()) api.all(path, methodNotAllowed(allow))
  const { folders, files } = namespaces()
  api.use(folders, apiNotFound)
  app.use(under(folders, files, api))

  app.use(
    healthRouter({
      posts: deps.posts,
      store: deps.store,
      accepting: deps.accepting ?? (() => true),
      metrics: deps.metrics,
    }),
  )

  if (deps.siteDir) app.use(staticSite(deps.siteDir))
  // Whatever is left (a write to a page, or any path when no site is served) is a JSON 404.
  app.use(apiNotFound)

  app.use(errorHandler(logError))
  if (deps.readFastPath === false) return app

  // REST reads and plain MCP tool calls are answered in front of Express, which gets the rest.
  const trust = app.get('trust proxy fn') as Parameters<typeof proxyaddr>[1]
  const shared = {
    budget,
    constantHeaders: [...securityHeaders, ...Object.entries(CORS_HEADERS).flat()],
    logger: deps.logger && requestLineLogger(deps.logger),
    metrics: deps.metrics,
    accepting: deps.accepting,
    clientAddress: (req: IncomingMessage) => addressKey(proxyaddr(req, trust)),
  }
  const reads = readFastPath({
    ...shared,
    prefix: RESOURCE_PATH,
    routes: readRoutes,
    resolvePrincipal,
    buildHeader: () => buildHeader(deps.posts()),
    parseQuery: app.get('query parser fn'),
  })
  const servers = mcpServerFactory(ctx, logError)
  const toolCalls = mcpFastPath({
    ...shared,
    path: MCP_PATH,
    origin: new URL(deps.baseUrl).origin,
    servers,
    answerDirectly: directAnswerer(servers),
    resolvePrincipal: resolveMcpPrincipal,
  })
  return (req, res) => reads(req, res, () => toolCalls(req, res, () => app(req, res)))
}

/**
 * Hands requests in these folders (or at these files) to a router, and skips it for everything
 * else (the pages) with string tests instead of a path match per layer.
 */
function under(folders: readonly string[], files: readonly string[], router: express.Router): RequestHandler {
  return (req, res, next) => {
    const path = req.path
    if (
      folders.some((f) => path === f || path.startsWith(`${f}/`)) ||
      files.some((f) => path === f || path === `${f}/`)
    )
      return router(req, res, next)
    next()
  }
}

/**
 * Identified callers need the scope of the read they make (docs/api.md#the-agent-flow; a refusal
 * is RFC 6750 §3.1's insufficient_scope): research.read unless the table says otherwise.
 */
function scopeCheck(find: ReturnType<typeof readRouteMatcher>, resourceMetadataUrl: string): RequestHandler {
  return function scopeCheck(req, res, next) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const scope = find(req.originalUrl.split('?')[0]!)?.route.scope ?? 'research.read'
    if (!hasScope(principalOf(res), scope)) throw insufficientScope(scope, resourceMetadataUrl)
    next()
  }
}
