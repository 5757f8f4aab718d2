import type { CallToolResult, Server, Tool } from '@modelcontextprotocol/server'
import { LRUCache } from 'lru-cache'
import type { PostIndex, PreparedBody } from '../../post-index/post-index.ts'
import { MCP_LIMITS } from '../defaults.ts'
import { LatticeError, ServiceError, isLoggable } from '../errors.ts'
import type { LogError } from '../http/errors-middleware.ts'
import type { ActionContext } from '../http/action.ts'
import { SERVER_INFO } from '../routes/documents.ts'
import { PROTOCOL_VERSIONS } from './protocol.ts'
import { RefusingServer } from './refusals.ts'
import { articleResources } from './resources.ts'
import { RPC_CODES, RpcError } from './rpc-error.ts'
import type { ArticleTool, ToolDocument } from './article-tool.ts'
import { articleTools } from './tools.ts'

export interface McpServerFactory {
  create: () => Server
  tools: readonly ArticleTool[]
  /** The tools as tools/list lists them, in a stable order (the order of `tools`). */
  listed: { tools: Tool[] }
  /** What the server's tools/call handler answers with; refusals of the call itself (an unknown tool) are thrown. */
  runTool(name: string, args: Record<string, unknown> | undefined): ToolAnswer
}

/**
 * A tool's answer: the read's prepared JSON (the structured content), an article's document laid
 * out for this call (with its text form), or a tool error result.
 */
export type ToolAnswer = { prepared: PreparedBody } | { document: ToolDocument } | { refusal: CallToolResult }

export const SERVER_DESCRIPTION = 'Research articles: search them, fetch one as markdown, list the newest.'

export const INSTRUCTIONS = [
  'Research articles. search and fetch find an article by keywords and fetch its text (the shape of ChatGPT',
  'connectors); search_posts, get_post and list_posts answer what the REST API answers; every article is also a',
  'resource (its markdown twin URL). Articles change only when the site is rebuilt, so answers may be cached for the',
  'ttlMs given. Reads need no credential; an API key or an access token for this resource identifies the caller and',
  'earns a larger read budget.',
].join(' ')

export const CAPABILITIES = { tools: {}, resources: {} } as const

/**
 * How long a client may keep the cacheable 2026 results (MCP 2026-07-28, Server, Utilities,
 * Caching): the tools, the resources and the articles change only when the site is rebuilt, and
 * they are the same for every caller, so a shared cache may keep them.
 */
const CACHE_HINT = { ttlMs: MCP_LIMITS.cacheTtlMs, cacheScope: 'public' } as const
const CACHE_HINTS = {
  'server/discover': CACHE_HINT,
  'tools/list': CACHE_HINT,
  'resources/list': CACHE_HINT,
  'resources/templates/list': CACHE_HINT,
  'resources/read': CACHE_HINT,
} as const

/**
 * Makes the MCP server of one request. The endpoint is stateless (no session, so any replica
 * answers any request, in both protocol eras) and a transport serves one request, hence a server
 * per request; everything that does not depend on the request (tools, their schemas, the resource
 * listing) is built once here and shared.
 */
export function mcpServerFactory(ctx: ActionContext, logError: LogError): McpServerFactory {
  // One per app: the endpoint's handlers and its direct answers share the tools and their caches.
  let factory = factories.get(ctx)
  if (!factory) factories.set(ctx, (factory = buildFactory(ctx, logError)))
  return factory
}

const factories = new WeakMap<ActionContext, McpServerFactory>()

function buildFactory(ctx: ActionContext, logError: LogError): McpServerFactory {
  const tools = articleTools(ctx)
  const byName = new Map(tools.map((t) => [t.name, t]))
  const listed: { tools: Tool[] } = {
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as Tool['inputSchema'],
      outputSchema: t.outputSchema as Tool['outputSchema'],
      annotations: { title: t.title, readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    })),
  }
  const resources = articleResources(ctx.baseUrl, () => ctx.posts())

  /** A failure that is not a refusal is logged and answered without its details (no stack or message leaks). */
  const guard =
    <A extends unknown[], R>(method: string, fn: (...args: A) => R) =>
    async (...args: A): Promise<Awaited<R>> => {
      try {
        return await fn(...args)
      } catch (e) {
        if (e instanceof RpcError) throw e
        if (e instanceof ServiceError)
          throw new RpcError(e.status >= 500 ? RPC_CODES.internalError : RPC_CODES.invalidParams, e.message)
        if (!(e instanceof LatticeError) || isLoggable(e)) logError(e, { method: 'POST', path: `/mcp ${method}` })
        throw new RpcError(RPC_CODES.internalError, 'The server failed to answer; retry with backoff.')
      }
    }

  /**
   * The prepared answers and refusals of each loaded index, by tool and arguments: a read's answer
   * depends on nothing else, and the same answer kept is what lets the direct answer keep its
   * escaped text. An article's document is laid out on each call, as the REST detail is, and not
   * kept. A rebuild swaps in another index.
   */
  const answers = new WeakMap<PostIndex, LRUCache<string, ToolAnswer>>()
  const answersOf = (index: PostIndex) => {
    let cache = answers.get(index)
    if (!cache) {
      cache = new LRUCache<string, ToolAnswer>({
        maxSize: MCP_LIMITS.answerCacheBytes,
        sizeCalculation: (a, key) => key.length + ('prepared' in a ? a.prepared.body.length : 256),
      })
      answers.set(index, cache)
    }
    return cache
  }

  /** A tool's answer: the REST read's JSON text, or the refusal of the arguments as a tool error. */
  function runTool(name: string, args: Record<string, unknown> | undefined): ToolAnswer {
    const tool = byName.get(name)
    if (!tool)
      throw new RpcError(
        RPC_CODES.invalidParams,
        `Unknown tool "${name.slice(0, 60)}"; the tools are ${tools.map((t) => t.name).join(', ')}.`,
      )
    const cache = answersOf(ctx.posts())
    const key = `${name} ${JSON.stringify(args ?? {})}`
    let answer = cache.get(key)
    if (!answer) {
      answer = answerOf(tool, args)
      if ('document' in answer) return answer
      cache.set(key, answer)
    }
    return answer
  }

  function answerOf(tool: ArticleTool, args: Record<string, unknown> | undefined): ToolAnswer {
    try {
      const answer = tool.call(args ?? {})
      return 'text' in answer ? { document: answer } : { prepared: answer }
    } catch (e) {
      // A refusal of the arguments is the tool's answer (MCP: tool execution errors), so the model can correct them.
      if (e instanceof ServiceError && e.status < 500)
        return { refusal: { content: [{ type: 'text', text: `${e.code}: ${e.message}` }], isError: true } }
      throw e
    }
  }

  function callTool(name: string, args: Record<string, unknown> | undefined): CallToolResult {
    const answer = runTool(name, args)
    // A copy: the answer is kept, and what the SDK is given is its own.
    if ('refusal' in answer) return structuredClone(answer.refusal)
    // The structured content, and its serialisation as text, as the specification recommends.
    const text = ('document' in answer ? Buffer.concat(answer.document.json) : answer.prepared.body).toString()
    return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as Record<string, unknown> }
  }

  return {
    tools,
    listed,
    runTool,
    create() {
      // The SDK's low-level Server, which it keeps for this case, rather than McpServer: the tool
      // list is served as written (JSON Schema 2020-12 from the model, in a stable order) and
      // arguments are checked by our own rules, so their refusals read as the REST API's; the
      // SDK's own refusals of params read as sentences (refusals.ts).
      const server = new RefusingServer(SERVER_INFO, {
        capabilities: CAPABILITIES,
        instructions: INSTRUCTIONS,
        supportedProtocolVersions: [...PROTOCOL_VERSIONS],
        cacheHints: CACHE_HINTS,
      })
      server.setRequestHandler('tools/list', () => listed)
      server.setRequestHandler(
        'tools/call',
        guard('tools/call', (req) => callTool(req.params.name, req.params.arguments)),
      )
      server.setRequestHandler(
        'resources/list',
        guard('resources/list', (req) => resources.list(req.params?.cursor)),
      )
      server.setRequestHandler(
        'resources/templates/list',
        guard('resources/templates/list', () => resources.templates()),
      )
      server.setRequestHandler(
        'resources/read',
        guard('resources/read', (req) => resources.read(req.params.uri)),
      )
      return server
    },
  }
}
