/**
 * Records of the processes that run on this machine for a DIST_DIR, a JSON file each in a folder
 * of their kind (`<folder>/<host>-<pid>.json`), removed when the process exits. A record whose
 * process is gone (killed, so no exit handler ran) is removed by the next reader; one of another
 * machine or container sharing the folder cannot be checked, so it is ignored. The running
 * servers' (serving-record.ts) and the warm builders' (scripts/builder-service/registry.ts).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { processAlive } from './process-alive.ts'

export interface ProcessRecord {
  pid: number
  hostname: string
}

/**
 * Writes this process's record of `fields` into `folder` (made if missing; throws when it cannot
 * be written); the returned function removes it, as the process's exit does.
 */
export function writeRecord<T extends object>(folder: string, fields: T): () => void {
  const file = join(folder, `${hostname()}-${process.pid}.json`)
  const record: ProcessRecord & T = { pid: process.pid, hostname: hostname(), ...fields }
  mkdirSync(folder, { recursive: true })
  writeFileSync(`${file}.tmp`, JSON.stringify(record))
  renameSync(`${file}.tmp`, file)
  const remove = () => rmSync(file, { force: true })
  process.once('exit', remove)
  return () => {
    process.off('exit', remove)
    remove()
  }
}

/**
 * The records in `folder` of processes running on this machine, oldest process first: those
 * `valid` accepts. A dead process's record is removed, after `onDead` has seen it.
 */
export function liveRecords<T extends ProcessRecord>(
  folder: string,
  valid: (record: T) => boolean = () => true,
  onDead: (record: T) => void = () => {},
): T[] {
  let names: string[]
  try {
    names = readdirSync(folder).filter((n) => n.endsWith('.json'))
  } catch {
    return []
  }
  const records: T[] = []
  for (const name of names) {
    let record: T
    try {
      record = JSON.parse(readFileSync(join(folder, name), 'utf8')) as T
    } catch {
      continue
    }
    if (record?.hostname !== hostname() || !Number.isInteger(record.pid) || !valid(record)) continue
    if (processAlive(record.pid)) records.push(record)
    else {
      onDead(record)
      rmSync(join(folder, name), { force: true })
    }
  }
  return records.sort((a, b) => a.pid - b.pid)
}
