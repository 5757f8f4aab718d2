import { prepareBody, type PreparedBody } from '../../post-index/post-index.ts'
import { SERVER_CARD_TYPE, SERVER_INFO } from '../routes/documents.ts'
import { serverCard } from './server-card.ts'
import { mcpServerFactory } from './server.ts'
import type { ReadAction } from '../http/action.ts'
import { DOCUMENTS_MODIFIED_MS } from '../routes/documents.ts'
import { READ_ERRORS, cachedRead, ref } from '../routes/openapi-parts.ts'

/**
 * GET <mcp-url>/server-card, the location the current Server Card draft reserves, and
 * /.well-known/mcp/server-card.json, where earlier drafts put it: the same card at both, open to
 * any origin (CORS, as the draft requires) and cached for an hour (as it recommends).
 */
function serverCardAt(where: string): ReadAction {
  return {
    cacheControl: 'public, max-age=3600',
    operation: () => ({
      tags: ['MCP'],
      summary: `MCP server card (${where})`,
      description:
        'The MCP server card: the endpoint, its transport and protocol versions, its tools, and the ' +
        'authorization it accepts, made from what server/discover and tools/list answer.',
      responses: {
        '200': {
          description: 'The card.',
          headers: cachedRead,
          content: { [SERVER_CARD_TYPE]: { schema: ref('ServerCard') } },
        },
        '304': READ_ERRORS['304'],
        '412': READ_ERRORS['412'],
      },
    }),
    read(ctx) {
      const card = serverCard(ctx, mcpServerFactory(ctx, ctx.logError))
      const prepared: PreparedBody = {
        ...prepareBody(JSON.stringify(card), DOCUMENTS_MODIFIED_MS),
        contentType: SERVER_CARD_TYPE,
      }
      return () => prepared
    },
  }
}

export const getMcpServerCard = serverCardAt('the draft’s location')
export const getMcpServerCardWellKnown = serverCardAt('the earlier drafts’ well-known location')

export const AI_CATALOG_TYPE = 'application/ai-catalog+json'

/**
 * GET /.well-known/ai-catalog.json: the AI Catalog (https://github.com/Agent-Card/ai-catalog) by
 * which the Server Card draft has clients find the cards of a domain's MCP servers (Discovery,
 * AI Catalog): one entry, this origin's server card, by URL.
 */
export const getAiCatalog: ReadAction = {
  cacheControl: 'public, max-age=3600',
  operation: () => ({
    tags: ['MCP'],
    summary: 'AI catalog: the MCP server card of this origin',
    responses: {
      '200': {
        description: 'The catalog.',
        headers: cachedRead,
        content: { [AI_CATALOG_TYPE]: { schema: { type: 'object' } } },
      },
      '304': READ_ERRORS['304'],
      '412': READ_ERRORS['412'],
    },
  }),
  read(ctx) {
    const catalog = {
      specVersion: '1.0',
      entries: [
        {
          identifier: airIdentifier(ctx.baseUrl, 'mcp', SERVER_INFO.name),
          type: SERVER_CARD_TYPE,
          url: ctx.url('getMcpServerCard'),
        },
      ],
    }
    const prepared: PreparedBody = {
      ...prepareBody(JSON.stringify(catalog), DOCUMENTS_MODIFIED_MS),
      contentType: AI_CATALOG_TYPE,
    }
    return () => prepared
  },
}

/**
 * An AI Catalog `urn:air:{publisher}:{namespace}:{name}` (AI Catalog, Catalog Entry,
 * `identifier`): the publisher is the domain name alone, so a port never enters it; a colon
 * there (an IPv6 literal's) would read as the namespace's separator, so the name is
 * percent-encoded, as RFC 8141 §2 lets a URN's NSS hold any other character.
 */
export function airIdentifier(baseUrl: string, namespace: string, name: string): string {
  return `urn:air:${encodeURIComponent(new URL(baseUrl).hostname)}:${namespace}:${name}`
}
