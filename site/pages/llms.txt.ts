import type { APIRoute } from 'astro'
import { getArticles, markdownPath } from '../lib/articles'
import { SITE } from '../lib/site'

/**
 * The llms.txt index (llmstxt.org): every article with its markdown twin, then both ways in for
 * programs: the API and MCP.
 */
export const GET: APIRoute = async ({ site }) => {
  const abs = (path: string) => new URL(path, site).href
  const articles = await getArticles()
  const lines = [
    `# ${SITE.name}`,
    '',
    `> ${SITE.tagline} Each article below links to its markdown form; ` +
      `[llms-full.txt](${abs('/llms-full.txt')}) holds them all in one file.`,
    '',
    '## Articles',
    '',
    ...articles.map((a) => `- [${a.data.title}](${abs(markdownPath(a.id))}): ${a.data.description}`),
    '',
    '## API',
    '',
    `- [API index](${abs('/api/v1')}): the JSON API's catalog of endpoints (list, fetch and search articles)`,
    `- [Search](${abs('/api/v1/search?q=example')}): keyword search over titles, tags and descriptions`,
    `- [API catalog](${abs('/.well-known/api-catalog')}): the RFC 9727 ` +
      `linkset of the API, its OpenAPI description and its documentation`,
    `- [Sync](${abs('/api/v1/posts?limit=100')}): the list a page at a time ` +
      `(follow next_cursor); updated_since=<ISO 8601> gives only what changed`,
    '',
    '## MCP',
    '',
    `- [MCP server](${abs('/mcp')}): Model Context Protocol over ` +
      `Streamable HTTP (2026-07-28 and 2025-11-25), no credential ` +
      `needed; tools search, fetch, search_posts, get_post, list_posts, and every article as a text/markdown resource`,
    `- [MCP server card](${abs('/mcp/server-card')}): the endpoint, its ` +
      `protocol versions, tools and the authorization it accepts, before connecting`,
    `- [MCP client configuration](${abs('/auth.md#mcp')}): a configuration ` +
      `to copy, and how to identify yourself with an API key or an access token`,
    '',
  ]
  return new Response(lines.join('\n'), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}
