/**
 * The schemas of the article bodies: Post and PostDetail derived from the one article schema
 * (model/article.ts), their stricter `…Complete` forms, and the list and search pages of them.
 */
import { z } from 'zod'
import { Post, PostDetail } from '../../model/article.ts'
import { CURSOR_MAX_LENGTH } from '../http/cursor.ts'
import { READ_LIMITS } from '../defaults.ts'
import { list, text } from './shared.ts'

// A cursor the service gives is one it takes back: at most CURSOR_MAX_LENGTH.
const nextCursor = {
  type: ['string', 'null'],
  maxLength: CURSOR_MAX_LENGTH,
  description: 'Pass as `cursor` to get the next page; null on the last page.',
} as const

/** The wire Post and PostDetail, from the one article schema (model/article.ts). */
function fromZod(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' })
  return json
}

/**
 * The contract declares no required field for Post (docs/api.md#the-openapi-document), so that
 * clients written to it tolerate a field they do not know being absent; the service always sends
 * every field, and says so with the `…Complete` schemas for clients that want the stricter type.
 */
function contractual(schema: z.ZodType, description: string, complete: string): Record<string, unknown> {
  const { required: _all, ...json } = fromZod(schema)
  return {
    ...json,
    description:
      `${description} No field is required by the contract; ` + `the service always sends every one (see ${complete}).`,
  }
}

const POST = { $ref: '#/components/schemas/Post' }

export const ARTICLE_SCHEMAS = {
  Post: contractual(Post, 'A published article.', 'PostComplete'),
  PostDetail: contractual(PostDetail, 'A Post with its markdown body.', 'PostDetailComplete'),
  PostComplete: {
    ...fromZod(Post),
    description: 'A Post as the service sends it: every field present (a stricter type than the contract’s Post).',
  },
  PostDetailComplete: {
    ...fromZod(PostDetail),
    description: 'A PostDetail as the service sends it: every field present.',
  },
  PostList: {
    type: 'object',
    properties: { posts: list(POST, READ_LIMITS.posts.max), next_cursor: nextCursor },
    required: ['posts'],
    additionalProperties: false,
  },
  SearchResult: {
    type: 'object',
    properties: {
      query: { ...text(READ_LIMITS.queryLength), description: 'The query that was searched (trimmed).' },
      corrected: {
        ...list(
          {
            type: 'object',
            properties: {
              from: { ...text(READ_LIMITS.queryLength), description: 'A query word that matched no article.' },
              to: { ...text(READ_LIMITS.queryLength), description: 'The indexed word nearest to it.' },
            },
            required: ['from', 'to'],
            additionalProperties: false,
          },
          READ_LIMITS.queryLength,
        ),
        description:
          'Present when a query word of 5 or more letters matched nothing: the words searched in its place ' +
          '(within one edit, two from 9 letters), ranked below exact and prefix matches.',
      },
      posts: { ...list(POST, READ_LIMITS.search.max), description: 'Ranked matches.' },
      next_cursor: nextCursor,
    },
    required: ['query', 'posts'],
    additionalProperties: false,
  },
} as const
