import type { PreparedBody } from '../../post-index/post-index.ts'
import { ServiceError } from '../errors.ts'
import type { ActionContext } from '../http/action.ts'
import { readArticle } from '../routes/get-post.ts'
import { searchPosts } from '../routes/search-posts.ts'
import { fetchDocument } from './article-documents.ts'
import type { ArticleTool } from './article-tool.ts'

/**
 * `search` and `fetch` in the shape ChatGPT connectors and deep research call them
 * (https://platform.openai.com/docs/mcp: `search(query)` gives `results` of `id`, `title`, `url`;
 * `fetch(id)` gives the document's `id`, `title`, `text`, `url` and `metadata`). `search` runs the
 * REST search (so it ranks as /api/v1/search does) and reshapes its answer, once per answer: the
 * REST bodies are prepared once per index and query, and so are these. `fetch` reads the article
 * as the REST detail does, and lays its answer out from the article's parts (article-documents.ts).
 */
export function connectorTools(ctx: ActionContext): ArticleTool[] {
  const search = searchPosts.read(ctx)
  type Found = { posts: Array<{ slug: string; title: string; url: string }>; corrected?: unknown[] }
  const searched = reshaped((body: Found) => ({
    results: body.posts.map((p) => ({ id: p.slug, title: p.title, url: p.url })),
    ...(body.corrected ? { corrected: body.corrected } : {}),
  }))
  return [
    {
      name: 'search',
      title: 'Search articles',
      description:
        'Search the articles by keywords, best matches first (the ranking of /api/v1/search). ' +
        'Gives each match’s id (for fetch), title and URL, and `corrected` when a misspelt word was searched ' +
        'as the nearest indexed word.',
      scope: 'research.search',
      inputSchema: objectOf({ query: { type: 'string', minLength: 1, description: 'Keywords to search for.' } }),
      outputSchema: {
        ...objectOf({
          results: {
            type: 'array',
            items: objectOf({
              id: { type: 'string' },
              title: { type: 'string' },
              url: { type: 'string', format: 'uri' },
            }),
          },
          corrected: {
            type: 'array',
            items: objectOf({ from: { type: 'string' }, to: { type: 'string' } }),
          },
        }),
        // Only an answer with a corrected word has it.
        required: ['results'],
      },
      call: (args) => searched(search({ params: {}, query: { q: onlyString(args, 'query', 'search') } })),
    },
    {
      name: 'fetch',
      title: 'Fetch one article',
      description:
        'Fetch one article by the id search gave (its slug): its title, its full text as markdown, its URL, ' +
        'and its other fields (date, author, tags, DOI, …, its references as CSL-JSON and the articles ' +
        'that cite it) as metadata.',
      scope: 'research.read',
      inputSchema: objectOf({ id: { type: 'string', minLength: 1, description: 'The article’s id, from search.' } }),
      outputSchema: objectOf({
        id: { type: 'string' },
        title: { type: 'string' },
        text: { type: 'string' },
        url: { type: 'string', format: 'uri' },
        metadata: { type: 'object' },
      }),
      call: (args) => fetchDocument(readArticle(ctx.posts(), onlyString(args, 'id', 'fetch'))),
    },
  ]
}

type Schema = Record<string, unknown>

/** An object schema whose every property is required and no other is allowed. */
function objectOf(properties: Record<string, Schema>) {
  return { type: 'object' as const, properties, required: Object.keys(properties), additionalProperties: false }
}

/** The one string argument a tool takes, refused as REST refuses a bad parameter. */
function onlyString(args: Readonly<Record<string, unknown>>, name: string, tool: string): string {
  for (const key of Object.keys(args))
    if (key !== name)
      throw new ServiceError('invalid_request', `Unknown argument "${key.slice(0, 40)}"; ${tool} takes ${name}.`)
  const value = args[name]
  if (typeof value !== 'string' || value.trim() === '')
    throw new ServiceError('invalid_request', `The argument "${name}" is required, a non-empty string.`)
  return value
}

/** A REST answer reshaped, kept as long as the REST answer is (it is prepared once per index). */
function reshaped<T>(shape: (body: T) => object): (rest: PreparedBody) => PreparedBody {
  const cache = new WeakMap<PreparedBody, PreparedBody>()
  return (rest) => {
    let answer = cache.get(rest)
    if (!answer) {
      answer = { ...rest, body: Buffer.from(JSON.stringify(shape(JSON.parse(rest.body.toString()) as T))) }
      cache.set(rest, answer)
    }
    return answer
  }
}
