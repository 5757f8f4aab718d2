/** The worker thread of fs-thread.ts: one job, its answer, then it ends. */
import { parentPort, workerData } from 'node:worker_threads'
import { linkTree } from './dist.ts'
import type { FsJob } from './fs-thread.ts'
import { packScan } from './fs-thread.ts'
import { scanContent } from './source-stats.ts'

const job = workerData as FsJob
try {
  if (job.kind === 'scan') {
    const packed = packScan(scanContent(job.contentDir))
    parentPort!.postMessage({ ok: true, value: packed }, [packed.stats.buffer])
  } else {
    linkTree(job.from, job.to, new Set(job.skip))
    parentPort!.postMessage({ ok: true, value: null })
  }
} catch (error) {
  parentPort!.postMessage({ ok: false, error: (error as Error).message })
}
