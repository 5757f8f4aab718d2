/** The worker thread of fs-thread.ts: one job, its answer, then it ends. */
import { parentPort, workerData } from 'node:worker_threads'
import { linkTree } from './dist.ts'
import type { LinkJob } from './fs-thread.ts'

const job = workerData as LinkJob
try {
  linkTree(job.from, job.to, new Set(job.skip))
  parentPort!.postMessage({ ok: true })
} catch (error) {
  parentPort!.postMessage({ ok: false, error: (error as Error).message })
}
