import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

export interface Metrics {
  registry: Registry
  /** Records one answered request (the pipeline records each, http/pipeline.ts). */
  observe: (method: string, route: string, status: number, seconds: number) => void
  articles: Gauge
  issued: Counter<'kind'>
}

/** The bounds of the request durations' buckets, in seconds. */
export const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

/**
 * Prometheus metrics, per app (no global registry, so tests and replicas stay separate).
 * Requests are labelled by route template, never by slug or query, to keep cardinality fixed.
 */
export function createMetrics(): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by route template.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  })
  const articles = new Gauge({
    name: 'lattice_articles',
    help: 'Articles in the loaded post index.',
    registers: [registry],
  })
  const issued = new Counter({
    name: 'lattice_credentials_issued_total',
    help: 'Credentials issued, by kind.',
    labelNames: ['kind'] as const,
    registers: [registry],
  })
  const observe = (method: string, route: string, status: number, seconds: number) =>
    duration.observe({ method, route, status_code: String(status) }, seconds)
  return { registry, observe, articles, issued }
}
