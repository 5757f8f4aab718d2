import { SLUG_MAX_LENGTH } from '../../model/article.ts'
import { ServiceError } from '../errors.ts'
import { READ_ERRORS, SAMPLE_POST, cachedRead, error, json, ref } from './openapi-parts.ts'
import type { ArticleParts, PostIndex, PreparedBody } from '../../post-index/post-index.ts'
import type { ReadInput } from '../http/read-path.ts'
import type { ReadAction } from '../http/action.ts'

/** GET /api/v1/posts/:slug (docs/api.md#the-api): one article with its markdown. */
export const getPost: ReadAction = {
  operation: () => ({
    tags: ['Articles'],
    summary: 'Fetch one article with its markdown',
    parameters: [
      {
        name: 'slug',
        in: 'path',
        required: true,
        schema: { type: 'string', maxLength: SLUG_MAX_LENGTH },
        example: SAMPLE_POST.slug,
      },
    ],
    responses: {
      '200': {
        description: 'The article.',
        headers: cachedRead,
        content: json(ref('PostDetail'), { ...SAMPLE_POST, markdown: '## Question\n\n…' }),
      },
      '404': error('No article has this slug.', ['not_found']),
      ...READ_ERRORS,
    },
  }),
  read: (ctx) => (input) => readPost(ctx.posts(), input),
}

/** The prepared detail of the article the path names, or 404 not_found. */
export function readPost(posts: PostIndex, { params }: ReadInput): PreparedBody {
  const slug = params.slug ?? ''
  return posts.detail(slug) ?? notFound(slug)
}

/** The parts of the article the slug names, for answers of other shapes (the MCP tools), or as readPost refuses. */
export function readArticle(posts: PostIndex, slug: string): ArticleParts {
  return posts.article(slug) ?? notFound(slug)
}

function notFound(slug: string): never {
  throw new ServiceError('not_found', `No article has the slug "${slug.slice(0, 100)}".`)
}
