import { Router } from 'express'
import { prepareBody } from '../articles/post-index.ts'
import { sendPrepared } from '../http/conditional.ts'

export interface CatalogEntry {
  method: 'GET' | 'POST'
  path: string
  description: string
}

/** The public endpoints, as the API index lists them. */
export const CATALOG: readonly CatalogEntry[] = [
  { method: 'GET', path: '/api/v1', description: 'This catalog of public endpoints.' },
  { method: 'GET', path: '/api/v1/posts', description: 'List published articles, newest first. Query: limit (1-100, default 50).' },
  { method: 'GET', path: '/api/v1/posts/{slug}', description: 'Fetch one article by slug: its metadata and markdown body.' },
  {
    method: 'GET',
    path: '/api/v1/search',
    description: 'Search articles by keywords in title, tags and description. Query: q (required), limit (1-50, default 20).',
  },
]

export function catalogRouter(baseUrl: string, entries: readonly CatalogEntry[] = CATALOG): Router {
  const router = Router()
  const prepared = prepareBody(
    JSON.stringify({
      name: 'Lattice Research API',
      version: '1.0.0',
      base_url: `${baseUrl}/api/v1`,
      endpoints: entries.map((e) => ({ ...e, url: `${baseUrl}${e.path}` })),
      links: {
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
