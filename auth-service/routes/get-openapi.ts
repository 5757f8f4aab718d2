import { prepareBody } from '../../post-index/post-index.ts'
import type { ReadAction } from '../http/action.ts'
import { DOCUMENTS_MODIFIED_MS } from './documents.ts'

/** GET /openapi.json: the OpenAPI 3.1 description, with this origin as its server. */
export const getOpenApi: ReadAction = {
  cacheControl: 'public, max-age=300',
  read(ctx) {
    const prepared = prepareBody(JSON.stringify(ctx.openapi), DOCUMENTS_MODIFIED_MS)
    return () => prepared
  },
}
