import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js'
import type { PreparedBody } from '../articles/post-index.ts'
import { LatticeError, ServiceError, isLoggable } from '../errors.ts'
import type { LogError } from '../http/errors-middleware.ts'
import type { ActionContext } from '../routes/action.ts'
import { articleResources } from './resources.ts'
import { RPC_CODES, RpcError } from './rpc-error.ts'
import { articleTools, type ArticleTool } from './tools.ts'

/**
 * A request schema that only names the method: the SDK answers a request its schema refuses
 * with -32603 (internal error), so the params are checked by `strict`, as -32602 invalid params.
 */
const loose = <M extends string>(method: M) => z.object({ method: z.literal(method), params: z.optional(z.unknown()) })

function strict<S extends z.ZodType>(schema: S, request: unknown): z.output<S> {
  const parsed = schema.safeParse(request)
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map((i) => `${i.path.slice(1).join('.') || 'params'}: ${i.message}`).join('; ')
  throw new RpcError(RPC_CODES.invalidParams, `Invalid params: ${problems.slice(0, 300)}`)
}

export interface McpServerFactory {
  create: () => Server
  tools: readonly ArticleTool[]
  /** What the server's tools/call handler answers with; refusals of the call itself (an unknown tool) are thrown. */
  runTool(name: string, args: Record<string, unknown> | undefined): ToolAnswer
}

/** A tool's answer: the read's prepared JSON (the structured content), or a tool error result. */
export type ToolAnswer = { prepared: PreparedBody } | { refusal: CallToolResult }

export const SERVER_INFO = { name: 'lattice-research', title: 'Lattice Research', version: '1.0.0' } as const

const INSTRUCTIONS =
  'Research articles. search_posts finds articles by keywords, get_post fetches one with its markdown, list_posts gives the newest; every article is also a resource (its markdown twin URL). Reads need no credential; an API key or an access token for this resource identifies the caller and earns a larger read budget.'

/**
 * Makes the MCP server of one request. The Streamable HTTP transport is stateless (no session,
 * so any replica answers any request) and a transport serves one request, hence a server per
 * request; everything that does not depend on the request (tools, their schemas, the schema
 * validator, the resource listing) is built once here and shared.
 */
export function mcpServerFactory(ctx: ActionContext, logError: LogError): McpServerFactory {
  // One per app: the endpoint's handlers and its fast path share the tools and their caches.
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
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    })),
  }
  const resources = articleResources(ctx.baseUrl, () => ctx.posts())
  const jsonSchemaValidator = new AjvJsonSchemaValidator()

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

  /** A tool's answer: the REST read's JSON text, or the refusal of the arguments as a tool error. */
  function runTool(name: string, args: Record<string, unknown> | undefined): ToolAnswer {
    const tool = byName.get(name)
    if (!tool)
      throw new RpcError(
        RPC_CODES.invalidParams,
        `Unknown tool "${name.slice(0, 60)}"; the tools are ${tools.map((t) => t.name).join(', ')}.`,
      )
    try {
      return { prepared: tool.call(args ?? {}) }
    } catch (e) {
      // A refusal of the arguments is the tool's answer (MCP: tool execution errors), so the model can correct them.
      if (e instanceof ServiceError && e.status < 500)
        return { refusal: { isError: true, content: [{ type: 'text', text: `${e.code}: ${e.message}` }] } }
      throw e
    }
  }

  function callTool(name: string, args: Record<string, unknown> | undefined): CallToolResult {
    const answer = runTool(name, args)
    if ('refusal' in answer) return answer.refusal
    // The structured content, and its serialisation as text, as the specification recommends.
    const text = answer.prepared.body.toString()
    return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as Record<string, unknown> }
  }

  return {
    tools,
    runTool,
    create() {
      const server = new Server(SERVER_INFO, {
        capabilities: { tools: {}, resources: {} },
        instructions: INSTRUCTIONS,
        jsonSchemaValidator,
      })
      server.setRequestHandler(ListToolsRequestSchema, () => listed)
      server.setRequestHandler(
        loose('tools/call'),
        guard('tools/call', (req) => {
          const { params } = strict(CallToolRequestSchema, req)
          return callTool(params.name, params.arguments)
        }),
      )
      server.setRequestHandler(
        loose('resources/list'),
        guard('resources/list', (req) => resources.list(strict(ListResourcesRequestSchema, req).params?.cursor)),
      )
      server.setRequestHandler(
        ListResourceTemplatesRequestSchema,
        guard('resources/templates/list', () => resources.templates()),
      )
      server.setRequestHandler(
        loose('resources/read'),
        guard('resources/read', (req) => resources.read(strict(ReadResourceRequestSchema, req).params.uri)),
      )
      return server
    },
  }
}
