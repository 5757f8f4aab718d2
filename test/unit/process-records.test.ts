import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { liveRecords, writeRecord, type ProcessRecord } from '../../model/process-records.ts'
import { tempDir } from '../support/temp.ts'

type Named = ProcessRecord & { name: string }

describe('process records', () => {
  it('lists the live processes’ records, and removes a dead one’s after showing it', () => {
    const folder = join(tempDir('records'), 'records')
    const forget = writeRecord(folder, { name: 'this' })
    // A process that has ended: its pid runs no more.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
    const deadPid = Number(dead.stdout)
    const write = (file: string, value: unknown) => writeFileSync(join(folder, file), JSON.stringify(value))
    write(`${hostname()}-${deadPid}.json`, { pid: deadPid, hostname: hostname(), name: 'dead' })
    write('elsewhere-1.json', { pid: process.pid, hostname: `not-${hostname()}`, name: 'elsewhere' })
    write(`${hostname()}-x.json`, { pid: 'x', hostname: hostname(), name: 'no pid' })
    writeFileSync(join(folder, 'broken.json'), '{')

    const seenDead: Named[] = []
    const live = liveRecords<Named>(
      folder,
      (r) => r.name !== 'refused',
      (r) => seenDead.push(r),
    )
    expect(live).toEqual([{ pid: process.pid, hostname: hostname(), name: 'this' }])
    expect(seenDead.map((r) => r.name)).toEqual(['dead'])
    expect(existsSync(join(folder, `${hostname()}-${deadPid}.json`))).toBe(false)
    // Records that cannot be checked are left alone.
    expect(readdirSync(folder).sort()).toEqual(
      ['broken.json', 'elsewhere-1.json', `${hostname()}-${process.pid}.json`, `${hostname()}-x.json`].sort(),
    )
    expect(liveRecords<Named>(folder, (r) => r.name !== 'this')).toEqual([])

    forget()
    expect(liveRecords<Named>(folder)).toEqual([])
  })

  it('says when a record cannot be written', () => {
    const file = join(tempDir('records'), 'a-file')
    writeFileSync(file, '')
    expect(() => writeRecord(join(file, 'records'), {})).toThrow(/ENOTDIR/)
  })
})
