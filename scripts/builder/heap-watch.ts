/**
 * The build's own process runs under its heap limit (bin/build.ts), and V8 ends a process that
 * reaches it with its own words ("JavaScript heap out of memory"), which no handler can catch or
 * add to. So when a full collection leaves the heap near its limit, the build says once, before
 * V8 may stop it, what the limit is and which setting raises it. GC entries:
 * https://nodejs.org/api/perf_hooks.html#garbage-collection-gc-details
 */
import { constants, PerformanceObserver } from 'node:perf_hooks'
import { getHeapStatistics } from 'node:v8'

/**
 * The old generation's limit, from this process's own `--max-old-space-size` (heap-limits.ts
 * sets it). V8's `heap_size_limit` adds the young generation's reserve (three semi-spaces), which
 * for a small heap put "three quarters full" within a few MB of the end, past the last full
 * collection V8 makes before it stops.
 */
function oldGenerationLimit(): number {
  const flag = process.execArgv.findLast((arg) => arg.startsWith('--max-old-space-size='))
  const mb = Number(flag?.split('=')[1])
  return mb > 0 ? mb * 2 ** 20 : getHeapStatistics().heap_size_limit
}

/** Watches this process's heap; `warn` gets one line the first time a full collection leaves it `share` full. */
export function watchHeap(warn: (line: string) => void, share = 0.75): () => void {
  const limit = oldGenerationLimit()
  const observer = new PerformanceObserver((list) => {
    const full = list
      .getEntries()
      .some(
        (e) =>
          (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR,
      )
    const used = getHeapStatistics().used_heap_size
    if (!full || used < limit * share) return
    observer.disconnect()
    const mb = (bytes: number) => Math.round(bytes / 2 ** 20)
    warn(
      `The build's process holds ${mb(used)} MB of its ${mb(limit)} MB heap, its share of the memory plan: ` +
        'if it stops with "JavaScript heap out of memory", raise BUILD_MEMORY_MB.',
    )
  })
  observer.observe({ entryTypes: ['gc'] })
  return () => observer.disconnect()
}
