import express, { type Express } from 'express'
import type { PostIndex } from './articles/post-index.ts'
import { ServiceError } from './errors.ts'
import { openCors } from './http/cors.ts'
import { apiNotFound, errorHandler, methodNotAllowed, type LogError } from './http/errors-middleware.ts'
import { staticSite } from './http/static-site.ts'
import { catalogRouter } from './routes/catalog.ts'
import { postsRouter } from './routes/posts.ts'

export interface AppDeps {
  baseUrl: string
  /** The live post index, or undefined before the first one has loaded. */
  posts: () => PostIndex | undefined
  /** The static build to serve; omitted in API-only tests. */
  siteDir?: string
  logError?: LogError
}

/** Builds the whole origin: API, then static site. No I/O happens here. */
export function createApp(deps: AppDeps): Express {
  const app = express()
  app.disable('x-powered-by')
  // Reads send precomputed validators; Express's per-response SHA-1 ETag would only cost time.
  app.set('etag', false)

  const posts = (): PostIndex => {
    const index = deps.posts()
    if (!index)
      throw new ServiceError('temporarily_unavailable', 'The article index is loading; retry shortly.', {
        headers: { 'Retry-After': '2' },
      })
    return index
  }

  app.use('/api/v1', openCors('GET, HEAD, POST, OPTIONS'))
  app.use(catalogRouter(deps.baseUrl))
  app.use(postsRouter(posts))
  app.all(['/api/v1', '/api/v1/posts', '/api/v1/posts/:slug', '/api/v1/search'], methodNotAllowed('GET, HEAD'))
  app.use('/api', apiNotFound)

  if (deps.siteDir) app.use(staticSite(deps.siteDir))

  app.use(errorHandler(deps.logError ?? ((err) => console.error(err))))
  return app
}
