/**
 * Where the warm builders of a DIST_DIR are found: each writes `<DIST_DIR>/builders/<host>-<pid>.json`
 * naming its socket while it runs (model/process-records.ts). The socket itself is in a folder
 * of its own under the system's temporary folder, made for its owner only (mkdtemp: mode 0700),
 * because a Unix socket's path is limited to about 100 bytes (unix(7)) and a DIST_DIR may be
 * deeper than that. Only the user who
 * started the server can connect, and only that user may build (a request names the build's
 * environment, which reaches the processes a build starts).
 *
 * Loaded by `npm run build` before anything else of the build: it loads Node's modules and two
 * small ones of model/ only.
 */
import { lstatSync, rmdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { liveRecords, writeRecord, type ProcessRecord } from '../../model/process-records.ts'

export interface BuilderRecord extends ProcessRecord {
  socket: string
}

const buildersDir = (distDir: string) => join(distDir, 'builders')

/** Writes this process's record; the returned function removes it (also run when the process exits). */
export function recordBuilder(distDir: string, socket: string): () => void {
  return writeRecord(buildersDir(distDir), { socket })
}

/** The warm builders running on this machine for `distDir`, oldest first; dead ones' records are removed. */
export function runningBuilders(distDir: string): BuilderRecord[] {
  return liveRecords<BuilderRecord>(buildersDir(distDir), (r) => typeof r.socket === 'string', forgetSocket)
}

/**
 * A builder that was killed (SIGKILL, its heap limit) left its socket: it goes, and the socket's
 * folder when empty (never more, whatever a record names).
 */
function forgetSocket(record: BuilderRecord): void {
  try {
    if (lstatSync(record.socket).isSocket()) {
      rmSync(record.socket)
      rmdirSync(dirname(record.socket))
    }
  } catch {
    // Gone already, or not empty: left as it is.
  }
}
