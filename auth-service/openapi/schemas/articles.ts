/**
 * The schemas of the article bodies: Post and PostDetail derived from the one article schema
 * (model/article.ts), their stricter `…Complete` forms, and the list and search pages of them.
 */
import { z } from 'zod'
import { Post, PostDetail } from '../../../model/article.ts'
import { str } from './shared.ts'

const nextCursor = {
  type: ['string', 'null'],
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
    properties: { posts: { type: 'array', items: { $ref: '#/components/schemas/Post' } }, next_cursor: nextCursor },
    required: ['posts'],
    additionalProperties: false,
  },
  SearchResult: {
    type: 'object',
    properties: {
      query: { ...str, description: 'The query that was searched (trimmed).' },
      posts: { type: 'array', items: { $ref: '#/components/schemas/Post' }, description: 'Ranked matches.' },
      next_cursor: nextCursor,
    },
    required: ['query', 'posts'],
    additionalProperties: false,
  },
} as const
