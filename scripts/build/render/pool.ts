/**
 * A pool of worker threads that render markdown, so a cold build uses every core. Each worker
 * keeps its renderer warm (highlighter, grammars, KaTeX) for its whole life. Jobs travel in
 * batches to cut message overhead; each worker holds at most two batches, so a slow batch never
 * leaves another worker idle while jobs wait.
 */
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { RenderedArticle } from './types.ts'
import type { BatchReply, BatchRequest } from './worker.ts'

export interface RenderPool {
  render(markdown: string): Promise<RenderedArticle>
  /** Ends the workers; renders not yet answered reject. */
  close(): Promise<void>
}

interface Job {
  markdown: string
  resolve: (value: RenderedArticle) => void
  reject: (error: Error) => void
}

interface Slot {
  worker: Worker
  inFlight: Map<number, Job[]>
  answered: boolean
}

const BATCH = 8
const BATCHES_PER_WORKER = 2
const WORKER_URL = new URL('./worker.ts', import.meta.url)

export function createRenderPool(options: { threads?: number } = {}): RenderPool {
  const threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()))
  const queue: Job[] = []
  const slots: Slot[] = []
  let nextBatch = 0
  let flushing = false
  let closed: Error | undefined

  function spawn(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_URL), inFlight: new Map(), answered: false }
    // An idle pool never keeps the process alive; a busy one does (see dispatch).
    slot.worker.unref()
    slot.worker.on('message', (reply: BatchReply) => {
      slot.answered = true
      const jobs = slot.inFlight.get(reply.batch)
      slot.inFlight.delete(reply.batch)
      if (slot.inFlight.size === 0) slot.worker.unref()
      reply.results.forEach((result, i) => {
        const job = jobs?.[i]
        if (!job) return
        if ('error' in result) job.reject(new Error(result.error))
        else job.resolve(result)
      })
      dispatch()
    })
    const fail = (error: Error) => {
      if (closed) return
      const index = slots.indexOf(slot)
      if (index < 0) return
      slots.splice(index, 1)
      for (const jobs of slot.inFlight.values()) for (const job of jobs) job.reject(error)
      slot.inFlight.clear()
      void slot.worker.terminate()
      // A worker that died before its first answer cannot start at all: stop rather than loop.
      if (!slot.answered) {
        closed = new Error(`render worker failed to start: ${error.message}`, { cause: error })
        for (const job of queue.splice(0)) job.reject(closed)
        return
      }
      slots.push(spawn())
      dispatch()
    }
    slot.worker.on('error', fail)
    slot.worker.on('exit', (code) => fail(new Error(`render worker exited with code ${code}`)))
    return slot
  }

  function dispatch() {
    while (queue.length > 0) {
      let slot: Slot | undefined
      for (const s of slots) if (s.inFlight.size < BATCHES_PER_WORKER && (!slot || s.inFlight.size < slot.inFlight.size)) slot = s
      if (!slot) return
      // Share what waits evenly, in batches of at most BATCH.
      const size = Math.min(BATCH, Math.max(1, Math.ceil(queue.length / (slots.length * BATCHES_PER_WORKER))))
      const jobs = queue.splice(0, size)
      const batch = nextBatch++
      slot.inFlight.set(batch, jobs)
      slot.worker.ref()
      slot.worker.postMessage({ batch, markdown: jobs.map((j) => j.markdown) } satisfies BatchRequest)
    }
  }

  for (let i = 0; i < threads; i++) slots.push(spawn())

  return {
    render(markdown) {
      if (closed) return Promise.reject(closed)
      return new Promise<RenderedArticle>((resolve, reject) => {
        queue.push({ markdown, resolve, reject })
        // Jobs queued in the same tick travel together.
        if (!flushing) {
          flushing = true
          queueMicrotask(() => {
            flushing = false
            dispatch()
          })
        }
      })
    },
    async close() {
      if (closed && slots.length === 0) return
      closed ??= new Error('the render pool is closed')
      const error = closed
      for (const job of queue.splice(0)) job.reject(error)
      const ending = slots.splice(0)
      for (const slot of ending) for (const jobs of slot.inFlight.values()) for (const job of jobs) job.reject(error)
      await Promise.all(ending.map((slot) => slot.worker.terminate()))
    },
  }
}
