/**
 * What a running server serves, recorded in `<DIST_DIR>/servers/` while it runs, so that
 * `npm run build` run without settings builds for the server a writer has open (PORT=8080
 * npm start, then npm run build) instead of for the default address, which nobody serves.
 */
import { join } from 'node:path'
import { liveRecords, writeRecord, type ProcessRecord } from './process-records.ts'

export interface ServingRecord extends ProcessRecord {
  port: number
  baseUrl: string
  contentDir: string
}

const serversDir = (distDir: string) => join(distDir, 'servers')

/** Writes this process's record; the returned function removes it (also run when the process exits). */
export function recordServing(distDir: string, served: Omit<ServingRecord, 'pid' | 'hostname'>): () => void {
  try {
    return writeRecord(serversDir(distDir), served)
  } catch {
    // A read-only DIST_DIR (a replica): the build cannot follow it, and serving goes on.
    return () => {}
  }
}

/** The records of servers running on this machine, oldest process first; those of dead processes are removed. */
export function runningServers(distDir: string): ServingRecord[] {
  return liveRecords<ServingRecord>(serversDir(distDir))
}
