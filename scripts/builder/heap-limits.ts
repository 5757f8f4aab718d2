/**
 * V8 heap limits for every process and thread a build runs, so that the memory plan
 * (memory-plan.ts) is a cap and not an estimate. Left to itself, V8 grows a heap lazily up to
 * its own default (a quarter of the machine's memory, or more) and collects late: a process the
 * plan counts at 700 MB may hold 2.7 GB of garbage while the others run beside it. Each limit is
 * the part's figure in the plan, less what its process holds outside the JavaScript heap; a part
 * that reaches it stops, and the build fails saying so (errors.ts), never swaps or hangs.
 *
 * Flags: https://nodejs.org/api/cli.html#--max-old-space-sizesize-in-mib and
 * https://nodejs.org/api/cli.html#--max-semi-space-sizesize-in-mib; a thread's are its Worker's
 * `resourceLimits` (https://nodejs.org/api/worker_threads.html#new-workerfilename-options).
 */
import { MEMORY_MODEL } from './memory-model.ts'

/** A JavaScript heap's limits, in MB: its old generation and each of its two semi-spaces. */
export interface HeapLimit {
  oldMb: number
  semiMb: number
}

export interface HeapLimits {
  /** This process: `npm run build` itself (bin/build.ts starts it with these). */
  main: HeapLimit
  /** Each render worker thread. */
  render: HeapLimit
  /** Astro's process. */
  astro: HeapLimit
  /** A search shard's Node process (Pagefind's own binary, a native process, has no V8 heap). */
  shard: HeapLimit
  /** A search shard's score process. */
  score: HeapLimit
}

/** What a process holds outside its heap (code, native buffers, stacks), and a thread. */
const PROCESS_NATIVE_MB = 32
const THREAD_NATIVE_MB = 16
/** Below this an old generation cannot hold a Node process's start-up; never planned lower. */
const MIN_OLD_MB = 128
/** Semi-spaces: larger for the processes that allocate the most (fewer scavenges), small elsewhere. */
const LARGE_SEMI_MB = 16
const SMALL_SEMI_MB = 8

/** A V8 young generation is its two semi-spaces and a large-object space of the same size. */
const youngMb = (semiMb: number) => 3 * semiMb

/** The limit of a part the plan counts at `residentMb`, resident memory, in a process or a thread. */
export function heapLimit(residentMb: number, semiMb: number, native = PROCESS_NATIVE_MB): HeapLimit {
  return { oldMb: Math.max(MIN_OLD_MB, Math.floor(residentMb - native - youngMb(semiMb))), semiMb }
}

export const processHeap = (residentMb: number, large = false) =>
  heapLimit(residentMb, large ? LARGE_SEMI_MB : SMALL_SEMI_MB)

export const threadHeap = (residentMb: number) => heapLimit(residentMb, SMALL_SEMI_MB, THREAD_NATIVE_MB)

/** A child Node process's flags for `limit`. */
export function heapFlags(limit: HeapLimit): string[] {
  return [`--max-old-space-size=${limit.oldMb}`, `--max-semi-space-size=${limit.semiMb}`]
}

/** A Worker's `resourceLimits` for `limit`. */
export function workerLimits(limit: HeapLimit): { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number } {
  return { maxOldGenerationSizeMb: limit.oldMb, maxYoungGenerationSizeMb: youngMb(limit.semiMb) }
}

/** V8's last words when a heap reaches its limit (it then aborts the process). */
const OUT_OF_HEAP = /heap out of memory|Reached heap limit/

/**
 * The error of a child process that ended, from the tail of its standard error: one that reached
 * its heap limit carries the code errors.ts explains, naming BUILD_MEMORY_MB.
 */
export function childFailure(what: string, ended: string, stderr: string): Error {
  if (OUT_OF_HEAP.test(stderr))
    return Object.assign(new Error(`${what} reached its heap limit (${ended})`), { code: 'ERR_BUILD_HEAP_LIMIT' })
  return new Error(`${what} failed (${ended})${stderr.trim() ? `: ${stderr.trim()}` : ''}`)
}

/**
 * Every part's heap limit: its figure in the model, never more, whatever the cap. The plan chose
 * the parts that run at once so that their figures fit the cap; the limits make them hold.
 */
export function planHeaps(articles: number, largestShardArticles: number): HeapLimits {
  const m = MEMORY_MODEL
  return {
    main: mainHeap(articles),
    render: threadHeap(m.renderThreadMb),
    astro: processHeap(m.astroMb(articles), true),
    shard: processHeap(m.shardMb(largestShardArticles)),
    score: processHeap(m.scoreMb(largestShardArticles)),
  }
}

/** The build's own process: its largest figure, rendering, assembling or indexing. */
export function mainHeap(articles: number): HeapLimit {
  const m = MEMORY_MODEL
  return processHeap(Math.max(m.buildMb(articles), m.assembleMb(articles), m.searchParentMb(articles)), true)
}
