import type { Scope } from '../auth/policy.ts'
import { ServiceError } from '../errors.ts'
import type { ReadInput } from '../http/read-path.ts'
import { SCHEMAS } from '../schemas/schemas.ts'
import type { ActionContext, ReadAction } from '../http/action.ts'
import { getPost, readArticle } from '../routes/get-post.ts'
import { listPosts } from '../routes/list-posts.ts'
import type { Json } from '../http/action.ts'
import { searchPosts } from '../routes/search-posts.ts'
import { detailDocument } from './article-documents.ts'
import type { ArticleTool, ObjectSchema, ToolDocument } from './article-tool.ts'
import { connectorTools } from './connector-tools.ts'

/** A JSON Schema object, as MCP's tool definitions carry them. */

interface Parameter {
  name: string
  in: 'query' | 'path'
  required?: boolean
  description?: string
  schema: object
}

/**
 * The tools, in the order tools/list gives them: search and fetch for connectors (connector-tools.ts),
 * then the REST reads'. Each of these is built from a REST read of the endpoint table: its input
 * schema is the operation's documented parameters, its output schema the documented 200 body, and a
 * call runs the action's own read with the arguments as the query (or path) REST would have parsed. So
 * a parameter added to the REST read (paging, filters) is a tool argument too, parsed and refused by
 * the same code.
 */
export function articleTools(ctx: ActionContext): ArticleTool[] {
  return [
    ...connectorTools(ctx),
    tool(ctx, searchPosts, {
      name: 'search_posts',
      title: 'Search articles',
      scope: 'research.search',
      output: 'SearchResult',
    }),
    tool(ctx, getPost, {
      name: 'get_post',
      title: 'Fetch one article',
      scope: 'research.read',
      output: 'PostDetail',
      // The REST detail's bytes, with its text form laid out beside them rather than escaped per call.
      document: ({ params }) => detailDocument(readArticle(ctx.posts(), params.slug ?? '')),
    }),
    tool(ctx, listPosts, {
      name: 'list_posts',
      title: 'List articles, newest first',
      scope: 'research.read',
      output: 'PostList',
    }),
  ]
}

function tool(
  ctx: ActionContext,
  action: ReadAction,
  spec: {
    name: string
    title: string
    scope: Scope
    output: keyof typeof SCHEMAS
    /** The answer as a document laid out per call, in place of the read's prepared body. */
    document?: (input: ReadInput) => ToolDocument
  },
): ArticleTool {
  const operation = action.operation!(ctx) as { summary?: string; description?: string; parameters?: Parameter[] }
  const parameters = operation.parameters ?? []
  const read = action.read(ctx)
  const names = parameters.map((p) => p.name)
  return {
    name: spec.name,
    title: spec.title,
    description: [operation.summary, operation.description].filter(Boolean).join('. '),
    scope: spec.scope,
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(
        parameters.map((p) => [p.name, { ...p.schema, ...(p.description ? { description: p.description } : {}) }]),
      ),
      required: parameters.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
    },
    outputSchema: inline({ $ref: `#/components/schemas/${spec.output}` }) as ObjectSchema,
    call(args) {
      const params: Record<string, string> = {}
      const query: Record<string, string> = {}
      for (const [name, value] of Object.entries(args)) {
        const parameter = parameters.find((p) => p.name === name)
        if (!parameter)
          throw new ServiceError(
            'invalid_request',
            `Unknown argument "${name.slice(0, 40)}"; ${spec.name} takes ${names.join(', ') || 'no arguments'}.`,
          )
        ;(parameter.in === 'path' ? params : query)[name] = textOf(name, value)
      }
      for (const p of parameters)
        if (p.in === 'path' && params[p.name] === undefined)
          throw new ServiceError('invalid_request', `The argument "${p.name}" is required.`)
      const input: ReadInput = { params, query }
      return spec.document ? spec.document(input) : read(input)
    },
  }
}

/** An argument as the text REST would have received in the URL: strings as they are, numbers written out. */
function textOf(name: string, value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  throw new ServiceError('invalid_request', `"${name}" must be a string or a number.`)
}

/** What a tool promises to return: the articles with every field (the contract's Post requires none). */
const COMPLETE: Partial<Record<keyof typeof SCHEMAS, keyof typeof SCHEMAS>> = {
  Post: 'PostComplete',
  PostDetail: 'PostDetailComplete',
}

/**
 * The schema with `#/components/schemas/…` references replaced by the schemas themselves: a tool's
 * schema stands alone.
 */
function inline(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inline)
  if (typeof schema !== 'object' || schema === null) return schema
  const ref = (schema as { $ref?: unknown }).$ref
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice(21) as keyof typeof SCHEMAS
    return inline(SCHEMAS[COMPLETE[name] ?? name])
  }
  return Object.fromEntries(Object.entries(schema as Json).map(([k, v]) => [k, inline(v)]))
}
