import { Router } from 'express'
import { ServiceError } from '../errors.ts'
import { sendPrepared } from '../http/conditional.ts'
import { intParam, textParam } from '../http/params.ts'
import type { PostIndex } from '../articles/post-index.ts'

export const LIMITS = {
  posts: { min: 1, max: 100, fallback: 50 },
  search: { min: 1, max: 50, fallback: 20 },
  queryLength: 200,
} as const

/** The article reads of spec §4.1: list, fetch by slug, keyword search. */
export function postsRouter(posts: () => PostIndex): Router {
  const router = Router()

  router.get('/api/v1/posts', function listPosts(req, res) {
    const limit = intParam(req.query, 'limit', LIMITS.posts)
    sendPrepared(req, res, posts().latest(limit))
  })

  router.get('/api/v1/posts/:slug', function getPost(req, res) {
    const prepared = posts().detail(req.params.slug)
    if (!prepared) throw new ServiceError('not_found', `No article has the slug "${req.params.slug.slice(0, 100)}".`)
    sendPrepared(req, res, prepared)
  })

  router.get('/api/v1/search', function searchPosts(req, res) {
    const query = textParam(req.query, 'q', LIMITS.queryLength)
    const limit = intParam(req.query, 'limit', LIMITS.search)
    sendPrepared(req, res, posts().searchBody(query, limit))
  })

  return router
}
