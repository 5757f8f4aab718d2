import { READ_LIMITS } from '../defaults.ts'
import type { SearchPosition } from '../../post-index/post-index.ts'
import { decodeCursor, encodeCursor } from '../http/cursor.ts'
import { intParam, onlyParams, optionalTextParam, textParam } from '../http/params.ts'
import {
  READ_ERRORS,
  SAMPLE_POST,
  cachedRead,
  cursorParam,
  error,
  json,
  limitParam,
  nextLink,
  ref,
} from './openapi-parts.ts'
import { readListPosition } from './list-posts.ts'
import type { ReadAction } from '../http/action.ts'

const PARAMS = ['q', 'limit', 'cursor'] as const
/** More query words than any query can match. */
const MAX_WORDS = READ_LIMITS.queryLength

/**
 * A search cursor's position: the rank (words matched, score) and the date and slug
 * of the last result of the page before.
 */
const readSearchPosition = (fields: readonly unknown[]): SearchPosition | undefined => {
  const [words, score, ...rest] = fields
  const place = readListPosition(rest)
  const ranked =
    Number.isInteger(words) &&
    (words as number) >= 1 &&
    (words as number) <= MAX_WORDS &&
    typeof score === 'number' &&
    Number.isFinite(score)
  return ranked && place ? { words: words as number, score: score as number, ...place } : undefined
}

/** GET /api/v1/search (docs/api.md#the-api): ranked keyword search. */
export const searchPosts: ReadAction = {
  operation: () => ({
    tags: ['Articles'],
    summary: 'Search articles by keywords',
    description:
      'Ranked keyword search over title, tags and description: ' +
      'more matched words first, then title over tags over description, then newest. ' +
      'Case- and accent-insensitive; the last word also matches as a prefix; a hyphenated word matches by its ' +
      'parts and whole. A word of 5 or more letters that matches nothing searches the words within one edit ' +
      '(two from 9 letters; a swap of neighbouring letters is one edit), ranked below exact and prefix matches, ' +
      'and `corrected` names them. Words in double quotes match only side by side in one field. ' +
      'Article bodies are not searched (the site search page, /search, searches their full text). ' +
      'Follow `next_cursor` (or the `Link: rel="next"` header) for more matches. ' +
      'Needs the research.search scope when a token is sent.',
    parameters: [
      {
        name: 'q',
        in: 'query',
        required: true,
        description: 'Keywords.',
        schema: { type: 'string', minLength: 1, maxLength: READ_LIMITS.queryLength },
        example: 'tail latency',
      },
      limitParam(READ_LIMITS.search),
      cursorParam,
    ],
    responses: {
      '200': {
        description: 'Ranked matches.',
        headers: { ...cachedRead, ...nextLink },
        content: json(ref('SearchResult'), { query: 'tail latency', posts: [SAMPLE_POST], next_cursor: null }),
      },
      '400': error(
        'q is missing or blank, limit is out of range, the cursor is not one of this query, ' +
          'or a parameter this endpoint does not take.',
        ['invalid_request'],
      ),
      ...READ_ERRORS,
    },
  }),
  read(ctx) {
    const base = ctx.url('searchPosts')
    return function searchPosts({ query }) {
      onlyParams(query, PARAMS)
      const text = textParam(query, 'q', READ_LIMITS.queryLength)
      const limit = intParam(query, 'limit', READ_LIMITS.search)
      const raw = optionalTextParam(query, 'cursor', Infinity)
      const binding = `search\0${text}`
      const after = raw === undefined ? undefined : decodeCursor(raw, binding, readSearchPosition)
      return ctx.posts().searchPage(text, after, limit, (last) => {
        const cursor = encodeCursor(binding, [last.words, last.score, last.date, last.slug])
        return { cursor, url: `${base}?${new URLSearchParams({ q: text, limit: String(limit), cursor })}` }
      })
    }
  },
}
