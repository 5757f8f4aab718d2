import { prepareBody } from '../../post-index/post-index.ts'
import { READ_ERRORS, cachedRead, ref } from './openapi-parts.ts'
import type { ReadAction } from '../http/action.ts'
import { DOCUMENTS_MODIFIED_MS, SERVER_CARD_TYPE, SITE_PAGES } from './documents.ts'
import { OAI_PMH_SPEC } from './oai.ts'

/** RFC 9727 §4.2: the catalog is a linkset (RFC 9264 §4.2) with this profile. */
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727'
export const API_CATALOG_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`

/**
 * GET /.well-known/api-catalog (RFC 9727): where a program finds this origin's API, its OpenAPI
 * description, its documentation and its auth metadata, the MCP endpoint with its server card,
 * and the OAI-PMH repository, without knowing the paths beforehand.
 */
export const getApiCatalog: ReadAction = {
  cacheControl: 'public, max-age=300',
  operation: () => ({
    tags: ['Discovery'],
    summary: 'API catalog (RFC 9727 linkset)',
    description:
      'The API, its OpenAPI description, its documentation (/auth.md, the developer portal) and its protected ' +
      'resource metadata, the MCP endpoint with its server card, and the OAI-PMH repository, as an RFC 9264 linkset.',
    responses: {
      '200': {
        description: 'The catalog.',
        headers: cachedRead,
        content: { [API_CATALOG_TYPE]: { schema: ref('Linkset') } },
      },
      '304': READ_ERRORS['304'],
      '412': READ_ERRORS['412'],
    },
  }),
  read(ctx) {
    const self = ctx.url('getApiCatalog')
    const api = ctx.url('getCatalog')
    const mcp = ctx.url('mcp')
    const oai = ctx.url('getOai')
    const linkset = {
      linkset: [
        // The catalog itself: its APIs, and the profile it follows (RFC 9727 §4.2).
        {
          anchor: self,
          item: [{ href: api }, { href: mcp }, { href: oai }],
          profile: [{ href: API_CATALOG_PROFILE }],
        },
        {
          anchor: api,
          'service-desc': [{ href: ctx.url('getOpenApi'), type: 'application/vnd.oai.openapi+json;version=3.1' }],
          'service-doc': [
            {
              href: `${ctx.baseUrl}${SITE_PAGES.guide}`,
              type: 'text/markdown',
              title: 'How agents get and use credentials',
            },
            { href: `${ctx.baseUrl}${SITE_PAGES.developers}`, type: 'text/html', title: 'Developer portal' },
          ],
          'service-meta': [{ href: ctx.url('getProtectedResourceMetadata'), type: 'application/json' }],
        },
        // The second way in, MCP: its server card describes it as an OpenAPI document describes the API.
        {
          anchor: mcp,
          'service-desc': [{ href: ctx.url('getMcpServerCard'), type: SERVER_CARD_TYPE, title: 'MCP server card' }],
          'service-doc': [{ href: `${ctx.baseUrl}${SITE_PAGES.guide}#mcp`, type: 'text/markdown', title: 'MCP' }],
          'service-meta': [{ href: ctx.url('getMcpProtectedResourceMetadata'), type: 'application/json' }],
        },
        // The third, OAI-PMH for repositories and aggregators: the protocol is its documentation,
        // and Identify describes the repository.
        {
          anchor: oai,
          'service-desc': [{ href: ctx.url('getOpenApi'), type: 'application/vnd.oai.openapi+json;version=3.1' }],
          'service-doc': [{ href: OAI_PMH_SPEC, type: 'text/html', title: 'OAI-PMH 2.0' }],
          'service-meta': [{ href: `${oai}?verb=Identify`, type: 'text/xml' }],
        },
      ],
    }
    const prepared = {
      ...prepareBody(JSON.stringify(linkset), DOCUMENTS_MODIFIED_MS),
      contentType: API_CATALOG_TYPE,
      headers: ['Link', `<${self}>; rel="api-catalog"`],
    }
    return () => prepared
  },
}
