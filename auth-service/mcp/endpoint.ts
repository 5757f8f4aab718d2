import { mcpExchange } from './http.ts'
import { refusalOf } from './refusals.ts'
import { mcpServerFactory } from './server.ts'
import { READ_ERRORS, error, json, ref } from '../routes/openapi-parts.ts'
import type { HandlerAction } from '../http/action.ts'

const message = ref('JsonRpcMessage')

/**
 * POST /mcp: the Model Context Protocol endpoint (Streamable HTTP, stateless), the articles' third
 * door beside /api/v1 and the markdown twins: tools search_posts, get_post and list_posts
 * answer what the REST reads answer, search and fetch in the shape of ChatGPT connectors, and
 * every article is a resource. GET and DELETE are 405:
 * without sessions there is no stream to open and nothing to end.
 */
export const mcp: HandlerAction = {
  operation: (ctx) => ({
    tags: ['MCP'],
    summary: 'Model Context Protocol endpoint (Streamable HTTP, stateless)',
    description: [
      'One JSON-RPC message per POST, MCP 2026-07-28 (the per-request `_meta` envelope and the Mcp-Method /',
      'Mcp-Name headers; server/discover) or 2025-11-25 (initialize): tools search, fetch, search_posts, get_post',
      'and list_posts, and every article as a resource. Send Accept: application/json, text/event-stream; answers',
      'are JSON. Reads need no credential; an API key, or an access token issued for the resource',
      `${ctx.url('mcp')}, identifies the caller.`,
    ].join(' '),
    requestBody: {
      required: true,
      content: json(message, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_posts', arguments: { q: 'tail latency' } },
      }),
    },
    responses: {
      '200': {
        description: 'The JSON-RPC answer (a result, or a JSON-RPC error such as an unknown method).',
        content: json(message),
      },
      '202': { description: 'A notification was accepted.' },
      '400': {
        description:
          'Not one JSON-RPC message (-32700 bad JSON, -32600 a batch), a message nested deeper than 8 levels ' +
          '(-32602), an unsupported protocol version ' +
          '(-32022, with the supported ones), an invalid 2026 `_meta` envelope (-32602), or an Mcp-Method / ' +
          'Mcp-Name header that disagrees with the body (-32020).',
        content: json(ref('McpRefusal')),
      },
      '401': READ_ERRORS['401'],
      '404': {
        description: 'A 2026-07-28 request for a method the server does not have (-32601).',
        content: json(message),
      },
      '403': {
        description:
          'The token lacks the scope the call needs (insufficient_scope), ' +
          'or a web page of another origin sent it (invalid_origin).',
        content: json(ref('Error'), {
          error: 'insufficient_scope',
          error_description: 'This call needs the "research.search" scope.',
        }),
      },
      '406': { description: 'Accept must list application/json and text/event-stream.', content: json(message) },
      '415': error('The Content-Type is not application/json.', ['unsupported_media_type']),
      '503': READ_ERRORS['503'],
    },
  }),
  handle(ctx) {
    return [
      mcpExchange({
        servers: mcpServerFactory(ctx, ctx.logError),
        resourceMetadataUrl: ctx.url('getMcpProtectedResourceMetadata'),
        baseUrl: ctx.baseUrl,
        // A refusal of a request is the client's mistake, answered and noted; anything else is the service's.
        onerror: (e) => {
          const refusal = refusalOf(e)
          if (refusal) ctx.logRefusal(refusal, { method: 'POST', path: '/mcp' })
          else ctx.logError(e, { method: 'POST', path: '/mcp' })
        },
      }),
    ]
  },
}
