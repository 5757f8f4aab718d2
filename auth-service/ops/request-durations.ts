/**
 * `http_request_duration_seconds`, the histogram of every answer by method, route template and
 * status, exposed as prom-client's Histogram exposes it (test/unit/request-durations.test.ts
 * compares the two). Each answer is one Map lookup and one bucket count: prom-client's
 * `observe` checks and hashes its label object on every call, a measurable part of a read.
 * Registered in the app's Registry as a custom metric (a `get` and a `getForPromString`).
 */

interface Series {
  labels: { method: string; route: string; status_code: string }
  /** Observations per bucket (not cumulative), the last for those above every bound (+Inf). */
  counts: Float64Array
  sum: number
  count: number
}

/** One value of the exposition, in the shape prom-client's Registry reads. */
interface Value {
  metricName: string
  labels: Record<string, string | number>
  sharedLabels?: Record<string, string>
  value: number
  /** Buckets carry none (null), as prom-client's without exemplars. */
  exemplar?: null
}

interface Exposed {
  name: string
  help: string
  type: 'histogram'
  aggregator: 'sum'
  values: Value[]
}

export class RequestDurations {
  readonly name = 'http_request_duration_seconds'
  readonly help = 'Time to answer HTTP requests, by route template.'
  readonly type = 'histogram' as const
  readonly aggregator = 'sum' as const
  readonly #bounds: readonly number[]
  #series = new Map<string, Series>()

  constructor(bounds: readonly number[]) {
    this.#bounds = bounds
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`
    let series = this.#series.get(key)
    if (!series) {
      series = {
        labels: { method, route, status_code: String(status) },
        counts: new Float64Array(this.#bounds.length + 1),
        sum: 0,
        count: 0,
      }
      this.#series.set(key, series)
    }
    let b = 0
    while (b < this.#bounds.length && seconds > this.#bounds[b]!) b++
    series.counts[b]! += 1
    series.sum += seconds
    series.count += 1
  }

  /** The series as prom-client's text exposition reads them: `le` first, the series' labels shared. */
  async getForPromString(): Promise<Exposed> {
    const values: Value[] = []
    for (const { labels, counts, sum, count } of this.#series.values()) {
      let cumulative = 0
      this.#bounds.forEach((le, b) => {
        cumulative += counts[b]!
        values.push({
          metricName: `${this.name}_bucket`,
          labels: { le },
          sharedLabels: labels,
          value: cumulative,
          exemplar: null,
        })
      })
      values.push(
        {
          metricName: `${this.name}_bucket`,
          labels: { le: '+Inf' },
          sharedLabels: labels,
          value: count,
          exemplar: null,
        },
        { metricName: `${this.name}_sum`, labels: {}, sharedLabels: labels, value: sum },
        { metricName: `${this.name}_count`, labels: {}, sharedLabels: labels, value: count },
      )
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values }
  }

  /** The series with every label on each value, as prom-client's JSON has them. */
  async get(): Promise<Exposed> {
    const exposed = await this.getForPromString()
    const values = exposed.values.map(({ sharedLabels, labels, ...value }) => ({
      ...value,
      labels: { ...labels, ...sharedLabels },
    }))
    return { ...exposed, values }
  }

  reset(): void {
    this.#series.clear()
  }
}
