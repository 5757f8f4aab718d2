/**
 * Waiting for the memory of ended worker threads to leave this process. V8 (13.6, in Node 24)
 * does not free a terminated worker's heap: it moves the pages to a pool the process shares and
 * frees them 8 s later, from a task on another isolate (`PagePool::ReleaseOnTearDown`,
 * https://github.com/v8/v8/blob/13.6.233/src/heap/page-pool.cc). A process started meanwhile
 * (Astro, which the memory plan runs after the render threads under a tight cap) would find
 * them still resident: at 50,000 articles, 790 MB for 8 s beside Astro's peak.
 */
import { setTimeout as sleep } from 'node:timers/promises'

/** Longer than V8's 8 s: past it after the threads ended, what is still resident is not theirs. */
export const RETURN_WAIT_MS = 10_000
const POLL_MS = 100

/** Less than this gained while the threads ran is not worth a wait. */
const SMALL_GAIN = 64 * 2 ** 20

/** This process's resident bytes before the threads started and after they ended, and when they ended. */
export interface ThreadsEnded {
  before: number
  after: number
  at: number
}

/**
 * Resolves once this process's resident memory is back within a quarter of what it gained while
 * the threads ran, or `waitMs` after they ended (at once when that is past: a step long after
 * them waits for nothing). Polled, so that a V8 that frees at once costs nothing.
 */
export async function threadMemoryReturned(
  ended: ThreadsEnded,
  waitMs = RETURN_WAIT_MS,
  resident: () => number = () => process.memoryUsage.rss(),
): Promise<void> {
  const gained = ended.after - ended.before
  if (gained < SMALL_GAIN) return
  const target = ended.before + gained / 4
  const deadline = ended.at + waitMs
  while (Date.now() < deadline && resident() > target) await sleep(POLL_MS)
}
