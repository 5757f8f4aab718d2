import { READ_LIMITS } from '../defaults.ts'
import { intParam } from '../http/params.ts'
import { READ_ERRORS, SAMPLE_POST, cachedRead, error, json, limitParam, ref } from './openapi-parts.ts'
import type { ReadAction } from './action.ts'

/** GET /api/v1/posts (spec §4.1): the newest articles. */
export const listPosts: ReadAction = {
  kind: 'read',
  operation: () => ({
    tags: ['Articles'],
    summary: 'List articles, newest first',
    parameters: [limitParam(READ_LIMITS.posts)],
    responses: {
      '200': { description: 'The newest posts.', headers: cachedRead, content: json(ref('PostList'), { posts: [SAMPLE_POST] }) },
      '400': error('A bad limit.', ['invalid_request']),
      ...READ_ERRORS,
    },
  }),
  read: (ctx) =>
    function listPosts({ query }) {
      const limit = intParam(query, 'limit', READ_LIMITS.posts)
      return ctx.posts().latest(limit)
    },
}
