import express, { type Express } from 'express'
import type { PostIndex } from './articles/post-index.ts'
import type { SigningKey } from './auth/signing-key.ts'
import type { TokenService } from './auth/tokens.ts'
import { ServiceError } from './errors.ts'
import { authenticate, principalResolver, requireScope } from './http/bearer.ts'
import { CORS_HEADERS, openCors } from './http/cors.ts'
import { hotReads } from './http/hot-reads.ts'
import { readBudget } from './http/read-budget.ts'
import { apiNotFound, errorHandler, methodNotAllowed, type LogError } from './http/errors-middleware.ts'
import { staticSite } from './http/static-site.ts'
import { agentRouter } from './routes/agent.ts'
import { catalogRouter } from './routes/catalog.ts'
import { buildOpenApiDocument } from './openapi/document.ts'
import { openApiRouter } from './routes/openapi.ts'
import { keysRouter } from './routes/keys.ts'
import { postsRouter } from './routes/posts.ts'
import { tokenRouter } from './routes/token.ts'
import { endpoints, wellKnownRouter } from './routes/well-known.ts'
import type { Store } from './store/store.ts'
import type { Logger } from 'pino'
import { requestLogger } from './ops/logger.ts'
import type { Metrics } from './ops/metrics.ts'
import { healthRouter } from './routes/health.ts'
import { rateLimiters, type RateLimits } from './http/rate-limits.ts'
import { securityHeaderList, securityHeaders } from './http/security-headers.ts'

export interface AppDeps {
  baseUrl: string
  /** The live post index, or undefined before the first one has loaded. */
  posts: () => PostIndex | undefined
  store: Store
  signingKey: SigningKey
  tokens: TokenService
  anonymousRegistration?: boolean
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
  /** Answer successful article reads in one step (default); false runs them through the chain. */
  hotReads?: boolean
}

/** Builds the whole origin: API, agent and OAuth endpoints, discovery, then the static site. No I/O here. */
export function createApp(deps: AppDeps): Express {
  const app = express()
  app.disable('x-powered-by')
  // Reads send precomputed validators; Express's per-response SHA-1 ETag would only cost time.
  app.set('etag', false)
  if (deps.trustProxy !== undefined) app.set('trust proxy', deps.trustProxy)
  const e = endpoints(deps.baseUrl)
  const onIssued = (kind: string) => deps.metrics?.issued.inc({ kind })
  const openapi = buildOpenApiDocument(deps.baseUrl) as { paths: Record<string, Record<string, object>> }

  const posts = (): PostIndex => {
    const index = deps.posts()
    if (!index)
      throw new ServiceError('temporarily_unavailable', 'The article index is loading; retry shortly.', {
        headers: { 'Retry-After': '2' },
      })
    return index
  }

  const https = deps.baseUrl.startsWith('https:')
  const resolvePrincipal = principalResolver({ store: deps.store, tokens: deps.tokens, resourceMetadataUrl: e.resourceMetadata })
  const budget = deps.rateLimits ? readBudget(deps.store, deps.rateLimits) : undefined
  if (deps.hotReads !== false)
    app.use(
      hotReads({
        posts: deps.posts,
        resolvePrincipal,
        budget,
        constantHeaders: [...securityHeaderList({ https }), ...Object.entries(CORS_HEADERS)],
        logger: deps.logger,
        metrics: deps.metrics,
        accepting: deps.accepting,
      }),
    )

  if (deps.logger) app.use(requestLogger(deps.logger))
  if (deps.accepting) {
    const accepting = deps.accepting
    // While draining, close each keep-alive connection after its response, so the drain ends.
    app.use((_req, res, next) => {
      if (!accepting()) res.setHeader('Connection', 'close')
      next()
    })
  }
  app.use(securityHeaders({ https }))
  if (deps.metrics) app.use(deps.metrics.middleware)

  const limit = deps.rateLimits ? rateLimiters(deps.store, deps.rateLimits) : undefined
  const onPost = (handler?: express.RequestHandler): express.RequestHandler => (req, res, next) =>
    handler && req.method === 'POST' ? handler(req, res, next) : next()
  // Discovery, tokens and the API are meant for any origin's scripts: no cookies are involved.
  const cors = openCors('GET, HEAD, POST, OPTIONS')

  // The API: reads are the hot path, so they come first and pass as few layers as possible.
  const api = express.Router()
  api.use(cors)
  api.use('/api/v1/keys', onPost(limit?.keys))
  api.use('/api/v1', authenticate(resolvePrincipal))
  api.use('/api/v1', requireScopeFor(e.resourceMetadata))
  if (budget) api.use('/api/v1', budget.middleware)
  api.use(postsRouter(posts))
  api.use(catalogRouter(deps.baseUrl, openapi))
  api.use(keysRouter(deps.store, onIssued))
  api.all(['/api/v1', '/api/v1/posts', '/api/v1/posts/:slug', '/api/v1/search'], methodNotAllowed('GET, HEAD'))
  api.all('/api/v1/keys', methodNotAllowed('POST'))
  api.use(apiNotFound)
  app.use(prefixed('/api/', api))

  // Agents and OAuth: registration, tokens, revocation, events, discovery.
  const oauth = express.Router()
  oauth.use(cors)
  oauth.use('/agent/identity', (req, res, next) => (limit && req.method === 'POST' && req.path === '/' ? limit.identities(req, res, next) : next()))
  oauth.use('/oauth2/token', onPost(limit?.tokens))
  oauth.use(['/agent/identity/claim', '/agent/event/notify', '/oauth2/revoke'], onPost(limit?.writes))
  oauth.use(wellKnownRouter(deps.baseUrl, deps.signingKey))
  oauth.use(openApiRouter(openapi))
  oauth.use(tokenRouter({ ...deps, onIssued }))
  oauth.use(agentRouter({ ...deps, anonymousRegistration: deps.anonymousRegistration ?? true, onIssued }))
  oauth.all(['/oauth2/token', '/oauth2/revoke', '/agent/identity', '/agent/identity/claim', '/agent/event/notify'], methodNotAllowed('POST'))
  oauth.all(
    ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/v1', '/.well-known/oauth-authorization-server', '/.well-known/jwks.json', '/openapi.json'],
    methodNotAllowed('GET, HEAD'),
  )
  oauth.use(['/agent', '/oauth2', '/.well-known'], apiNotFound)
  app.use(prefixed(['/agent/', '/oauth2/', '/.well-known/', '/openapi.json'], oauth))

  app.use(healthRouter({ posts: deps.posts, store: deps.store, accepting: deps.accepting ?? (() => true), metrics: deps.metrics }))

  if (deps.siteDir) app.use(staticSite(deps.siteDir))
  // Whatever is left (a write to a page, or any path when no site is served) is a JSON 404.
  app.use(apiNotFound)

  app.use(errorHandler(deps.logError ?? ((err) => console.error(err))))
  return app
}

/**
 * Hands requests under these prefixes (or the exact path without its slash) to a router, and
 * skips it for everything else with one string test instead of a path match per layer.
 */
function prefixed(prefixes: string | string[], router: express.Router): express.RequestHandler {
  const list = ([] as string[]).concat(prefixes)
  const exact = list.map((p) => p.replace(/\/$/, ''))
  return (req, res, next) => {
    const path = req.path
    if (list.some((p) => path.startsWith(p)) || exact.includes(path)) return router(req, res, next)
    next()
  }
}

/** Search needs research.search; every other read needs research.read (spec §5). */
function requireScopeFor(resourceMetadataUrl: string): express.RequestHandler {
  const read = requireScope('research.read', resourceMetadataUrl)
  const search = requireScope('research.search', resourceMetadataUrl)
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    return (req.originalUrl.startsWith('/api/v1/search') ? search : read)(req, res, next)
  }
}
