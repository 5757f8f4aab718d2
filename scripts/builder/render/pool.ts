/**
 * A pool of worker threads that render markdown, so a cold build uses every core. Each worker
 * keeps its renderer warm (highlighter, grammars, formula cache) for its whole life. Jobs travel
 * in batches to cut message overhead; a worker holds at most two batches, so a slow batch never
 * leaves another worker idle while jobs wait.
 *
 * Threads start as work arrives: one with the first article, another each time all are busy
 * and articles still wait, up to the pool's size; so re-rendering one article starts one thread.
 *
 * An article that makes the renderer throw rejects its own promise. One that kills its worker
 * (out of memory, a native crash) costs the worker, which is replaced: the articles that were in
 * flight with it are retried one at a time, each alone on a worker, so only the culprit fails.
 * A worker's heap is limited to its share of the memory plan; one that reaches it fails its
 * articles with ERR_WORKER_OUT_OF_MEMORY, which the build explains (errors.ts).
 */
import { availableParallelism } from 'node:os'
import { Worker, type ResourceLimits } from 'node:worker_threads'
import { type HeapLimit, workerLimits } from '../heap-limits.ts'
import type { RenderedArticle } from './types.ts'
import type { BatchRequest, RenderFailure, WorkerMessage } from './worker.ts'
import type { ReferenceInputs } from '../references/index.ts'

export interface RenderPool {
  render(markdown: string, references?: ReferenceInputs): Promise<RenderedArticle>
  /** Ends the workers; renders not yet answered reject. */
  close(): Promise<void>
}

interface Job {
  markdown: string
  references: ReferenceInputs | undefined
  resolve: (value: RenderedArticle) => void
  reject: (error: Error) => void
  /** Was in flight when a worker died: from now on sent alone. */
  suspect: boolean
}

interface Slot {
  worker: Worker
  inFlight: Map<number, Job[]>
  ready: boolean
  /** Running a suspect job alone: gets nothing else until it answers. */
  isolating: boolean
}

const BATCH = 8
const BATCHES_PER_WORKER = 2
const WORKER_URL = new URL('./worker.ts', import.meta.url)

export function createRenderPool(options: { threads?: number; heap?: HeapLimit } = {}): RenderPool {
  const limits = options.heap && workerLimits(options.heap)
  return createWorkerPool(WORKER_URL, options.threads ?? availableParallelism(), limits)
}

/** The pool over any worker script that speaks worker.ts's messages (tests use a faulty one). */
export function createWorkerPool(workerUrl: URL, threadCount: number, resourceLimits?: ResourceLimits): RenderPool {
  const threads = Math.max(1, Math.floor(threadCount))
  const queue: Job[] = []
  const slots: Slot[] = []
  let nextBatch = 0
  let scheduled = false
  let closed: Error | undefined

  function settle(slot: Slot, batch: number, results: Array<RenderedArticle | RenderFailure>) {
    const jobs = slot.inFlight.get(batch) ?? []
    slot.inFlight.delete(batch)
    slot.isolating = false
    if (slot.inFlight.size === 0) slot.worker.unref()
    jobs.forEach((job, i) => {
      const result = results[i]
      if (!result) job.reject(new Error('the render worker gave no result'))
      else if ('error' in result) job.reject(Object.assign(new Error(result.error), { problems: result.problems }))
      else job.resolve(result)
    })
  }

  function crashed(slot: Slot, error: Error) {
    const index = slots.indexOf(slot)
    if (closed || index < 0) return
    slots.splice(index, 1)
    void slot.worker.terminate()
    const jobs = [...slot.inFlight.values()].flat()
    slot.inFlight.clear()
    if (!slot.ready) {
      // It died loading the renderer: every worker would. Fail everything rather than loop.
      closed = failure(`the render worker could not start: ${error.message}`, error)
      for (const job of [...jobs, ...queue.splice(0)]) job.reject(closed)
      void Promise.all(slots.splice(0).map((s) => s.worker.terminate()))
      return
    }
    const alone = jobs.length === 1 && jobs[0]!.suspect
    for (const job of jobs.reverse()) {
      if (alone) job.reject(failure(`rendering this article stopped its worker: ${error.message}`, error))
      else {
        job.suspect = true
        queue.unshift(job)
      }
    }
    slots.push(spawn())
    dispatch()
  }

  function spawn(): Slot {
    const worker = new Worker(workerUrl, resourceLimits ? { resourceLimits } : {})
    const slot: Slot = { worker, inFlight: new Map(), ready: false, isolating: false }
    // An idle pool never keeps the process alive; a busy one does (see send).
    slot.worker.unref()
    slot.worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') slot.ready = true
      else settle(slot, message.batch, message.results)
      dispatch()
    })
    slot.worker.on('error', (error) => crashed(slot, error))
    slot.worker.on('exit', (code) => crashed(slot, new Error(`the render worker exited with code ${code}`)))
    return slot
  }

  function send(slot: Slot, jobs: Job[]) {
    const batch = nextBatch++
    slot.inFlight.set(batch, jobs)
    slot.worker.ref()
    const request: BatchRequest = { batch, markdown: jobs.map((j) => j.markdown) }
    if (jobs.some((j) => j.references)) request.references = jobs.map((j) => j.references)
    slot.worker.postMessage(request)
  }

  function dispatch() {
    while (queue.length > 0 && !closed) {
      // Threads start with the first article: a build with nothing to render pays nothing.
      if (slots.length === 0) slots.push(spawn())
      if (queue[0]!.suspect) {
        const idle = slots.find((s) => s.ready && s.inFlight.size === 0)
        if (!idle) return
        idle.isolating = true
        send(idle, [queue.shift()!])
        continue
      }
      let slot: Slot | undefined
      for (const s of slots)
        if (!s.isolating && s.inFlight.size < BATCHES_PER_WORKER && (!slot || s.inFlight.size < slot.inFlight.size))
          slot = s
      if (!slot) {
        // Every thread is busy and work still waits: start another, up to the pool's size.
        if (slots.length < threads) slots.push(spawn())
        else return
        continue
      }
      // Share what waits evenly, in batches of at most BATCH.
      const size = Math.min(BATCH, Math.max(1, Math.ceil(queue.length / (slots.length * BATCHES_PER_WORKER))))
      const end = queue.findIndex((j, i) => i >= size || j.suspect)
      send(slot, queue.splice(0, end < 0 ? size : end))
    }
  }

  return {
    render(markdown, references) {
      if (closed) return Promise.reject(closed)
      return new Promise<RenderedArticle>((resolve, reject) => {
        queue.push({ markdown, references, resolve, reject, suspect: false })
        // Jobs queued in the same tick travel together.
        if (!scheduled) {
          scheduled = true
          queueMicrotask(() => {
            scheduled = false
            dispatch()
          })
        }
      })
    },
    async close() {
      closed ??= new Error('the render pool is closed')
      const error = closed
      const ending = slots.splice(0)
      for (const job of queue.splice(0)) job.reject(error)
      for (const slot of ending) for (const jobs of slot.inFlight.values()) for (const job of jobs) job.reject(error)
      await Promise.all(ending.map((slot) => slot.worker.terminate()))
    },
  }
}

/** An error for the articles a worker's death failed, with its code (a heap limit's: errors.ts). */
function failure(message: string, cause: Error): Error {
  const { code } = cause as NodeJS.ErrnoException
  return Object.assign(new Error(message, { cause }), code ? { code } : {})
}
