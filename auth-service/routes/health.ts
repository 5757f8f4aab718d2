import { Router } from 'express'
import type { PostIndex } from '../../post-index/post-index.ts'
import type { Metrics } from '../ops/metrics.ts'
import type { Store } from '../store/store.ts'

export interface HealthDeps {
  posts: () => PostIndex | undefined
  store: Store
  /** False once shutdown has begun, so the proxy stops sending new requests. */
  accepting: () => boolean
  metrics?: Metrics
}

/** /healthz (the process answers), /readyz (it can serve: index loaded, store reachable), /metrics. */
export function healthRouter(deps: HealthDeps): Router {
  const router = Router({ caseSensitive: true, strict: true })
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.json({ status: 'ok' })
  })
  router.get('/readyz', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    const index = deps.posts()
    const store = await deps.store.ping().then(
      () => 'ok',
      () => 'unreachable',
    )
    const ready = deps.accepting() && index !== undefined && store === 'ok'
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not_ready',
      accepting: deps.accepting(),
      articles: index?.size ?? null,
      store,
    })
  })
  if (deps.metrics) {
    const { registry, articles } = deps.metrics
    router.get('/metrics', async (_req, res) => {
      articles.set(deps.posts()?.size ?? 0)
      res.setHeader('Cache-Control', 'no-store')
      res.type(registry.contentType).send(await registry.metrics())
    })
  }
  return router
}
