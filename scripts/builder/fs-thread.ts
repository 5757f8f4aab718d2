/**
 * File-system work that holds no object of the build, done in a worker thread of its own, so that
 * its system calls run on another core while this thread works. An edit at 50,000 articles spent
 * a quarter of a second on each of: the stat of every article file, parsing the live build's
 * state, and hard-linking the live site's pages (scripts/build.ts runs them side by side).
 * Should the scan's thread fail, the scan is done in this thread: the results are the same
 * either way (test/unit/fs-thread.test.ts).
 */
import { Worker } from 'node:worker_threads'
import { scanContent, type ContentScan } from './source-stats.ts'

/** A job and its answer, as the worker (fs-thread-worker.ts) takes and gives them. */
export type FsJob = { kind: 'scan'; contentDir: string } | { kind: 'link'; from: string; to: string; skip: string[] }

export interface PackedScan {
  names: string[]
  /** Per name, size, mtimeMs, ctimeMs and ino; NaN for a file that vanished. */
  stats: Float64Array<ArrayBuffer>
  scannedAt: number
  references: string[]
}

/** The thread's small heap: it holds the names and stats of one content folder at most. */
const LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 24 }

function inThread<T>(job: FsJob): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(new URL('./fs-thread-worker.ts', import.meta.url), {
      workerData: job,
      resourceLimits: LIMITS,
    })
    let answered = false
    worker.once('message', (message: { ok: true; value: T } | { ok: false; error: string }) => {
      answered = true
      if (message.ok) resolve(message.value)
      else reject(new Error(message.error))
    })
    worker.once('error', reject)
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the file-system thread exited with code ${code}`))
    })
  })
}

/** scanContent (source-stats.ts), off this thread. */
export async function scanContentOffThread(contentDir: string): Promise<ContentScan> {
  let packed: PackedScan
  try {
    packed = await inThread<PackedScan>({ kind: 'scan', contentDir })
  } catch {
    return scanContent(contentDir)
  }
  return unpackScan(packed)
}

/** linkTree (dist.ts), off this thread. A failure fails the build, whose folder is then removed. */
export async function linkTreeOffThread(from: string, to: string, skip: ReadonlySet<string>): Promise<void> {
  await inThread<null>({ kind: 'link', from, to, skip: [...skip] })
}

export function packScan(scan: ContentScan): PackedScan {
  const stats = new Float64Array(scan.names.length * 4).fill(Number.NaN)
  scan.names.forEach((name, i) => {
    const s = scan.stats.get(name)
    if (s) stats.set([s.size, s.mtimeMs, s.ctimeMs, s.ino], i * 4)
  })
  return { names: scan.names, stats, scannedAt: scan.scannedAt, references: scan.references }
}

export function unpackScan(packed: PackedScan): ContentScan {
  const stats = new Map<string, { size: number; mtimeMs: number; ctimeMs: number; ino: number }>()
  const v = packed.stats
  packed.names.forEach((name, i) => {
    const at = i * 4
    if (!Number.isNaN(v[at]!))
      stats.set(name, { size: v[at]!, mtimeMs: v[at + 1]!, ctimeMs: v[at + 2]!, ino: v[at + 3]! })
  })
  return { names: packed.names, stats, scannedAt: packed.scannedAt, references: packed.references }
}
