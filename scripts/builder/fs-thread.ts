/**
 * File-system work that holds no object of the build, done in a worker thread of its own, so that
 * its system calls run on another core while this thread works: the hard links of the live
 * site's pages (about 11,000 files at 50,000 articles, 0.2 s), made while this thread assembles
 * the articles (scripts/build.ts).
 */
import { Worker } from 'node:worker_threads'

/** A job, as the worker (fs-thread-worker.ts) takes it. */
export interface LinkJob {
  from: string
  to: string
  skip: string[]
}

/** The thread's small heap: it holds one folder's listing at a time. */
const LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 12 }

/** linkTree (dist.ts), off this thread. A failure fails the build, whose folder is then removed. */
export function linkTreeOffThread(from: string, to: string, skip: ReadonlySet<string>): Promise<void> {
  const job: LinkJob = { from, to, skip: [...skip] }
  return new Promise<void>((resolve, reject) => {
    const worker = new Worker(new URL('./fs-thread-worker.ts', import.meta.url), {
      workerData: job,
      resourceLimits: LIMITS,
    })
    let answered = false
    worker.once('message', (message: { ok: true } | { ok: false; error: string }) => {
      answered = true
      if (message.ok) resolve()
      else reject(new Error(message.error))
    })
    worker.once('error', reject)
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the file-system thread exited with code ${code}`))
    })
  })
}
