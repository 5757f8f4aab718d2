/**
 * The request histogram (prom-client's Histogram): a scrape reads the same metric names, buckets
 * and labels as before, in text and in JSON.
 */
import { Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { DURATION_BUCKETS, createMetrics } from '../../auth-service/ops/metrics.ts'

const ANSWERS: Array<[string, string, number, number]> = [
  ['GET', '/api/v1/posts/:slug', 200, 0.0003],
  ['GET', '/api/v1/posts/:slug', 200, 0.0005], // on a bound: counted in it (le is "less or equal")
  ['GET', '/api/v1/posts/:slug', 404, 0.002],
  ['POST', '/mcp', 200, 0.04],
  ['GET', 'static', 304, 7], // above every bound: +Inf only
  ['GET', '/api/v1/posts/:slug', 200, 0.3],
]

function reference() {
  const registry = new Registry()
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by route template.',
    labelNames: ['method', 'route', 'status_code'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  })
  for (const [method, route, status, seconds] of ANSWERS)
    histogram.observe({ method, route, status_code: String(status) }, seconds)
  return registry
}

function ours() {
  const metrics = createMetrics()
  for (const [method, route, status, seconds] of ANSWERS) metrics.observe(method, route, status, seconds)
  return metrics.registry
}

describe('the request histogram', () => {
  it("exposes what prom-client's Histogram exposes for the same answers", async () => {
    const expected = await reference().getSingleMetricAsString('http_request_duration_seconds')
    expect(await ours().getSingleMetricAsString('http_request_duration_seconds')).toBe(expected)
    expect(expected).toContain('http_request_duration_seconds_bucket{le="0.0005",method="GET"')
    const text = await ours().getSingleMetricAsString('http_request_duration_seconds')
    // Every bound, the +Inf bucket, the sum and count, per method, route template and status.
    const series = 'method="GET",route="/api/v1/posts/:slug",status_code="200"'
    for (const le of [...DURATION_BUCKETS.map(String), '+Inf'])
      expect(text).toContain(`http_request_duration_seconds_bucket{le="${le}",${series}}`)
    expect(text).toContain(`http_request_duration_seconds_bucket{le="0.0005",${series}} 2`)
    expect(text).toContain(`http_request_duration_seconds_count{${series}} 3`)
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="2.5",method="GET",route="static",status_code="304"} 0',
    )
  })

  it('gives the same JSON, and starts again when reset', async () => {
    const registry = ours()
    const json = await registry.getMetricsAsJSON()
    const mine = json.find((m) => m.name === 'http_request_duration_seconds')
    expect(mine).toEqual(
      expect.objectContaining((await reference().getMetricsAsJSON())[0] as unknown as Record<string, unknown>),
    )
    registry.resetMetrics()
    expect(await registry.getSingleMetricAsString('http_request_duration_seconds')).not.toContain('_count')
  })
})
