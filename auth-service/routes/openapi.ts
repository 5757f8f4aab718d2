import { Router } from 'express'
import { prepareBody } from '../articles/post-index.ts'
import { sendPrepared } from '../http/conditional.ts'

/** GET /openapi.json: the OpenAPI 3.1 description, with this origin as its server. */
export function openApiRouter(document: object): Router {
  const router = Router()
  const prepared = prepareBody(JSON.stringify(document), Date.now())
  router.get('/openapi.json', (req, res) => sendPrepared(req, res, prepared, 'public, max-age=300'))
  return router
}
