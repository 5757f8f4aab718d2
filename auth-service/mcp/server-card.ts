import { SCOPES } from '../auth/policy.ts'
import type { ActionContext } from '../http/action.ts'
import { SERVER_INFO, SITE_PAGES } from '../routes/documents.ts'
import { PROTOCOL_VERSIONS } from './protocol.ts'
import { CAPABILITIES, INSTRUCTIONS, SERVER_DESCRIPTION, type McpServerFactory } from './server.ts'

/** The card's schema (experimental Server Card extension, tracking SEP-2127). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json'

/**
 * The MCP server card (https://github.com/modelcontextprotocol/experimental-ext-server-card):
 * what a client needs before it connects, made from what server/discover and tools/list answer
 * (the server info, the capabilities, the instructions, the versions, the tools), so the card
 * cannot drift from the server. The card's own fields name the server, its endpoint, transport
 * and versions; the tools and the authorization it accepts go in `_meta` under this service's
 * namespace, as the card format leaves primitives and auth to extensions.
 */
export function serverCard(ctx: Pick<ActionContext, 'baseUrl' | 'url'>, servers: Pick<McpServerFactory, 'listed'>) {
  const namespace = reverseDns(new URL(ctx.baseUrl).hostname)
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: `${namespace}/${SERVER_INFO.name}`,
    version: SERVER_INFO.version,
    title: SERVER_INFO.title,
    description: SERVER_DESCRIPTION,
    websiteUrl: `${ctx.baseUrl}${SITE_PAGES.developers}`,
    remotes: [
      {
        type: 'streamable-http',
        url: ctx.url('mcp'),
        supportedProtocolVersions: [...PROTOCOL_VERSIONS],
        headers: [
          {
            name: 'Authorization',
            description:
              'Optional: reads need no credential. An API key, or an access token issued for this endpoint ' +
              '(OAuth, see the authorization metadata), identifies the caller and earns a larger read budget.',
            isRequired: false,
            isSecret: true,
            value: 'Bearer {token}',
            variables: { token: { description: 'An API key or an access token.', isRequired: true, isSecret: true } },
          },
        ],
      },
    ],
    _meta: {
      [`${namespace}/capabilities`]: CAPABILITIES,
      [`${namespace}/instructions`]: INSTRUCTIONS,
      [`${namespace}/tools`]: servers.listed.tools.map(({ name, title, description, annotations }) => ({
        name,
        title,
        description,
        annotations,
      })),
      [`${namespace}/authorization`]: {
        required: false,
        protected_resource_metadata: ctx.url('getMcpProtectedResourceMetadata'),
        authorization_servers: [ctx.baseUrl],
        authorization_server_metadata: ctx.url('getAuthorizationServerMetadata'),
        scopes_supported: [...SCOPES],
        bearer_methods_supported: ['header'],
        // Client ID Metadata Documents first; dynamic registration for clients that have none.
        client_registration: ['client_id_metadata_document', 'dynamic_client_registration'],
        api_keys: ctx.url('createApiKey'),
        documentation: `${ctx.baseUrl}${SITE_PAGES.guide}#mcp`,
      },
    },
  }
}

/**
 * A host name in reverse-DNS order (`research.example.org` → `org.example.research`), the form a
 * card's name and `_meta` prefixes take; labels must start with a letter (Basic, `_meta`), so a
 * host that is an address is named `local`.
 */
function reverseDns(host: string): string {
  const labels = host.split('.')
  return labels.every((l) => /^[a-z][a-z0-9-]*$/i.test(l)) ? labels.reverse().join('.') : 'local'
}
