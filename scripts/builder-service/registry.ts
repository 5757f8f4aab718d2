/**
 * Where the warm builders of a DIST_DIR are found: each writes `<DIST_DIR>/builders/<host>-<pid>.json`
 * naming its socket while it runs. The socket itself is in a folder of its own under the system's
 * temporary folder, made for its owner only (mkdtemp: mode 0700), because a Unix socket's path is
 * limited to about 100 bytes (unix(7)) and a DIST_DIR may be deeper than that. Only the user who
 * started the server can connect, and only that user may build (a request names the build's
 * environment, which reaches the processes a build starts).
 *
 * Loaded by `npm run build` before anything else of the build: Node's own modules only.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { processAlive } from '../../model/process-alive.ts'

export interface BuilderRecord {
  pid: number
  /** A record of another machine or container sharing DIST_DIR cannot be reached, so it is ignored. */
  hostname: string
  socket: string
}

const buildersDir = (distDir: string) => join(distDir, 'builders')

/** Writes this process's record; the returned function removes it (also run when the process exits). */
export function recordBuilder(distDir: string, socket: string): () => void {
  const file = join(buildersDir(distDir), `${hostname()}-${process.pid}.json`)
  const record: BuilderRecord = { pid: process.pid, hostname: hostname(), socket }
  mkdirSync(buildersDir(distDir), { recursive: true })
  writeFileSync(`${file}.tmp`, JSON.stringify(record))
  renameSync(`${file}.tmp`, file)
  const remove = () => rmSync(file, { force: true })
  process.once('exit', remove)
  return () => {
    process.off('exit', remove)
    remove()
  }
}

/** The warm builders running on this machine for `distDir`, oldest first; dead ones' records are removed. */
export function runningBuilders(distDir: string): BuilderRecord[] {
  let names: string[]
  try {
    names = readdirSync(buildersDir(distDir)).filter((n) => n.endsWith('.json'))
  } catch {
    return []
  }
  const records: BuilderRecord[] = []
  for (const name of names) {
    const file = join(buildersDir(distDir), name)
    let record: BuilderRecord
    try {
      record = JSON.parse(readFileSync(file, 'utf8')) as BuilderRecord
    } catch {
      continue
    }
    if (record.hostname !== hostname() || !Number.isInteger(record.pid) || typeof record.socket !== 'string') continue
    if (processAlive(record.pid)) records.push(record)
    else forgetDead(file, record)
  }
  return records.sort((a, b) => a.pid - b.pid)
}

/**
 * A builder that was killed (SIGKILL, its heap limit) left its record and its socket: both go,
 * and the socket's folder when empty (never more, whatever a record names).
 */
function forgetDead(file: string, record: BuilderRecord): void {
  rmSync(file, { force: true })
  try {
    if (lstatSync(record.socket).isSocket()) {
      rmSync(record.socket)
      rmdirSync(dirname(record.socket))
    }
  } catch {
    // Gone already, or not empty: left as it is.
  }
}
