import { Router } from 'express'
import { prepareBody } from '../articles/post-index.ts'
import { sendPrepared } from '../http/conditional.ts'

interface Operation {
  summary?: string
  description?: string
}

/**
 * GET /api/v1: the public API endpoints, read from the OpenAPI document so that the catalog,
 * the description and the routes cannot disagree.
 */
export function catalogRouter(baseUrl: string, openapi: { paths: Record<string, Record<string, Operation>> }): Router {
  const router = Router()
  const endpoints = Object.entries(openapi.paths)
    .filter(([path]) => path.startsWith('/api/'))
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        url: `${baseUrl}${path}`,
        description: op.summary ?? op.description ?? '',
      })),
    )
  const prepared = prepareBody(
    JSON.stringify({
      name: 'Lattice Research API',
      version: '1.0.0',
      base_url: `${baseUrl}/api/v1`,
      endpoints,
      links: {
        openapi: `${baseUrl}/openapi.json`,
        auth_guide: `${baseUrl}/auth.md`,
        developers: `${baseUrl}/developers`,
        protected_resource_metadata: `${baseUrl}/.well-known/oauth-protected-resource`,
        site: `${baseUrl}/`,
        llms_txt: `${baseUrl}/llms.txt`,
      },
    }),
    Date.now(),
  )
  router.get('/api/v1', function getCatalog(req, res) {
    sendPrepared(req, res, prepared)
  })
  return router
}
