import { prepareBody } from '../../post-index/post-index.ts'
import { READ_ERRORS, cachedRead, json, ref } from './openapi-parts.ts'
import type { ReadAction } from '../http/action.ts'
import { DOCUMENTS_MODIFIED_MS, SITE_PAGES } from './documents.ts'

interface Operation {
  summary?: string
  description?: string
}

/**
 * GET /api/v1: the public API endpoints, read from the OpenAPI document (itself built from the
 * endpoint table), so that the catalog, the description and the routes cannot disagree.
 */
export const getCatalog: ReadAction = {
  operation: () => ({
    tags: ['Articles'],
    summary: 'Catalog of the public endpoints',
    responses: {
      '200': { description: 'The catalog.', headers: cachedRead, content: json(ref('Catalog')) },
      ...READ_ERRORS,
    },
  }),
  read(ctx) {
    const { baseUrl } = ctx
    const paths = (ctx.openapi as { paths: Record<string, Record<string, Operation>> }).paths
    const endpoints = Object.entries(paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, ops]) =>
        // HEAD twins are the GETs' own (headers only): the catalog lists each endpoint once.
        Object.entries(ops)
          .filter(([method]) => method !== 'head')
          .map(([method, op]) => ({
            method: method.toUpperCase(),
            path,
            url: `${baseUrl}${path}`,
            description: op.summary ?? op.description ?? '',
          })),
      )
    const prepared = prepareBody(
      JSON.stringify({
        name: 'Lattice Research API',
        version: '1.0.0',
        base_url: ctx.url('getCatalog'),
        endpoints,
        links: {
          openapi: ctx.url('getOpenApi'),
          api_catalog: ctx.url('getApiCatalog'),
          auth_guide: `${baseUrl}${SITE_PAGES.guide}`,
          developers: `${baseUrl}${SITE_PAGES.developers}`,
          protected_resource_metadata: ctx.url('getProtectedResourceMetadata'),
          // The same articles over the Model Context Protocol (a resource of its own, with its own metadata).
          mcp: ctx.url('mcp'),
          mcp_protected_resource_metadata: ctx.url('getMcpProtectedResourceMetadata'),
          site: `${baseUrl}/`,
          llms_txt: `${baseUrl}${SITE_PAGES.llms}`,
        },
      }),
      DOCUMENTS_MODIFIED_MS,
    )
    return () => prepared
  },
}
