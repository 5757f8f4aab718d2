import { READ_LIMITS } from '../defaults.ts'
import { filterKey, type ListFilter, type ListPosition } from '../../post-index/post-index.ts'
import { decodeCursor, encodeCursor } from '../http/cursor.ts'
import { instantParam, intParam, onlyParams, optionalTextParam } from '../http/params.ts'
import { SLUG_PATTERN } from '../../model/article.ts'
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
import type { ReadAction } from '../http/action.ts'

const PARAMS = ['limit', 'cursor', 'tag', 'author', 'updated_since'] as const
const SLUG = new RegExp(SLUG_PATTERN)
const DAY = /^\d{4}-\d{2}-\d{2}$/
const NO_FILTER: ListFilter = Object.freeze({})
const UNFILTERED = JSON.stringify(['posts', undefined, undefined, undefined])

/** A list cursor's position: the date and slug of the last post of the page before. */
export const readListPosition = (fields: readonly unknown[]): ListPosition | undefined => {
  const [date, slug] = fields
  return fields.length === 2 &&
    typeof date === 'string' &&
    DAY.test(date) &&
    typeof slug === 'string' &&
    SLUG.test(slug)
    ? { date, slug }
    : undefined
}

/** GET /api/v1/posts (docs/api.md#the-api): the articles, newest first, a page at a time. */
export const listPosts: ReadAction = {
  operation: () => ({
    tags: ['Articles'],
    summary: 'List articles, newest first',
    description:
      'Pages through every published article, newest first (then by slug). ' +
      'Follow `next_cursor` (or the `Link: rel="next"` header) until it is null to get each article exactly once, ' +
      'even across a rebuild. Filters narrow the list; ' +
      '`updated_since` gives what changed since a previous visit, for incremental sync.',
    parameters: [
      limitParam(READ_LIMITS.posts),
      cursorParam,
      // Optional filters carry no `example`: a client filling its forms from them would narrow the list unasked.
      {
        name: 'tag',
        in: 'query',
        required: false,
        description: 'Only articles with this tag (case-insensitive), e.g. `performance`.',
        schema: { type: 'string', minLength: 1, maxLength: READ_LIMITS.filterLength },
      },
      {
        name: 'author',
        in: 'query',
        required: false,
        description:
          'Only articles by this author: the full name of any one author, the whole byline (case-insensitive), ' +
          `or the slug of an author's page (the last segment of their \`url\`), e.g. \`${SAMPLE_POST.author}\`.`,
        schema: { type: 'string', minLength: 1, maxLength: READ_LIMITS.filterLength },
      },
      {
        name: 'updated_since',
        in: 'query',
        required: false,
        description:
          'Only articles whose lastModified is at or after this moment: an ISO 8601 date (midnight UTC) or ' +
          'date-time with offset, e.g. `2025-08-01T00:00:00Z`.',
        schema: {
          type: 'string',
          maxLength: READ_LIMITS.instantLength,
          anyOf: [{ format: 'date' }, { format: 'date-time' }],
        },
      },
    ],
    responses: {
      '200': {
        description: 'A page of posts.',
        headers: { ...cachedRead, ...nextLink },
        content: json(ref('PostList'), { posts: [SAMPLE_POST], next_cursor: null }),
      },
      '400': error('A bad limit, cursor or filter, or a parameter this endpoint does not take.', ['invalid_request']),
      ...READ_ERRORS,
    },
  }),
  read(ctx) {
    const base = ctx.url('listPosts')
    return function listPosts({ query }) {
      onlyParams(query, PARAMS)
      const limit = intParam(query, 'limit', READ_LIMITS.posts)
      const tag = optionalTextParam(query, 'tag', READ_LIMITS.filterLength)
      const author = optionalTextParam(query, 'author', READ_LIMITS.filterLength)
      const updatedSince = instantParam(query, 'updated_since')
      const filter: ListFilter =
        tag === undefined && author === undefined && updatedSince === undefined
          ? NO_FILTER
          : {
              ...(tag === undefined ? {} : { tag: filterKey(tag) }),
              ...(author === undefined ? {} : { author: filterKey(author) }),
              ...(updatedSince === undefined ? {} : { updatedSinceMs: updatedSince }),
            }
      const binding =
        filter === NO_FILTER ? UNFILTERED : JSON.stringify(['posts', filter.tag, filter.author, filter.updatedSinceMs])
      const raw = optionalTextParam(query, 'cursor', Infinity)
      const after = raw === undefined ? undefined : decodeCursor(raw, binding, readListPosition)
      return ctx.posts().listPage(filter, after, limit, (last) => {
        const cursor = encodeCursor(binding, [last.date, last.slug])
        // The next page's URL repeats the filters as normalised: it depends only on them and the limit.
        const next = new URLSearchParams({ limit: String(limit) })
        if (filter.tag !== undefined) next.set('tag', filter.tag)
        if (filter.author !== undefined) next.set('author', filter.author)
        if (updatedSince !== undefined) next.set('updated_since', new Date(updatedSince).toISOString())
        next.set('cursor', cursor)
        return { cursor, url: `${base}?${next}` }
      })
    }
  },
}
