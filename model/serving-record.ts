/**
 * What a running server serves, recorded in `<DIST_DIR>/servers/` while it runs, so that
 * `npm run build` run without settings builds for the server a writer has open (PORT=8080
 * npm start, then npm run build) instead of for the default address, which nobody serves.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { processAlive } from './process-alive.ts'

export interface ServingRecord {
  pid: number
  /** Records of another machine or container sharing DIST_DIR cannot be checked, so they are ignored. */
  hostname: string
  port: number
  baseUrl: string
  contentDir: string
}

const serversDir = (distDir: string) => join(distDir, 'servers')
const recordFile = (distDir: string, pid: number) => join(serversDir(distDir), `${hostname()}-${pid}.json`)

/** Writes this process's record; the returned function removes it (also run when the process exits). */
export function recordServing(distDir: string, served: Omit<ServingRecord, 'pid' | 'hostname'>): () => void {
  const file = recordFile(distDir, process.pid)
  const record: ServingRecord = { pid: process.pid, hostname: hostname(), ...served }
  try {
    mkdirSync(serversDir(distDir), { recursive: true })
    writeFileSync(`${file}.tmp`, JSON.stringify(record))
    renameSync(`${file}.tmp`, file)
  } catch {
    // A read-only DIST_DIR (a replica): the build cannot follow it, and serving goes on.
    return () => {}
  }
  const remove = () => rmSync(file, { force: true })
  process.once('exit', remove)
  return () => {
    process.off('exit', remove)
    remove()
  }
}

/** The records of servers running on this machine, oldest process first; those of dead processes are removed. */
export function runningServers(distDir: string): ServingRecord[] {
  let names: string[]
  try {
    names = readdirSync(serversDir(distDir)).filter((n) => n.endsWith('.json'))
  } catch {
    return []
  }
  const records: ServingRecord[] = []
  for (const name of names) {
    const record = readRecord(join(serversDir(distDir), name))
    if (!record || record.hostname !== hostname()) continue
    if (processAlive(record.pid)) records.push(record)
    else rmSync(join(serversDir(distDir), name), { force: true })
  }
  return records.sort((a, b) => a.pid - b.pid)
}

function readRecord(file: string): ServingRecord | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ServingRecord
  } catch {
    return undefined
  }
}
