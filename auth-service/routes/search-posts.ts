import { READ_LIMITS } from '../defaults.ts'
import { intParam, textParam } from '../http/params.ts'
import { READ_ERRORS, SAMPLE_POST, cachedRead, error, json, limitParam, ref } from './openapi-parts.ts'
import type { ReadAction } from './action.ts'

/** GET /api/v1/search (spec §4.1): ranked keyword search. */
export const searchPosts: ReadAction = {
  kind: 'read',
  operation: () => ({
    tags: ['Articles'],
    summary: 'Search articles by keywords',
    description:
      'Ranked keyword search over title, tags and description: more matched words first, then title over tags over description, then newest. Case- and accent-insensitive; the last word also matches as a prefix. Article bodies are not searched (the site search page, /search, searches their full text). Needs the research.search scope when a token is sent.',
    parameters: [
      { name: 'q', in: 'query', required: true, description: 'Keywords.', schema: { type: 'string', minLength: 1, maxLength: READ_LIMITS.queryLength }, example: 'tail latency' },
      limitParam(READ_LIMITS.search),
    ],
    responses: {
      '200': { description: 'Ranked matches.', headers: cachedRead, content: json(ref('SearchResult'), { query: 'tail latency', posts: [SAMPLE_POST] }) },
      '400': error('q is missing or blank, or limit is out of range.', ['invalid_request']),
      ...READ_ERRORS,
    },
  }),
  read: (ctx) =>
    function searchPosts({ query }) {
      const text = textParam(query, 'q', READ_LIMITS.queryLength)
      const limit = intParam(query, 'limit', READ_LIMITS.search)
      return ctx.posts().searchBody(text, limit)
    },
}
