/** The stat of a content folder's files, in a thread of its own (source-stats.ts statContent). */
import { parentPort, workerData } from 'node:worker_threads'
import { statFiles } from './source-stats.ts'

const { contentDir, names } = workerData as { contentDir: string; names: string[] }
const packed = statFiles(contentDir, names)
parentPort!.postMessage(packed, [packed.buffer])
