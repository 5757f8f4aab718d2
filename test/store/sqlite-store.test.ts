import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { openSqliteStore } from '../../auth-service/store/sqlite-store.ts'
import { tempDir } from '../support/temp.ts'

const fresh = () => join(tempDir('sqlite'), 'store.sqlite')

describe('the sqlite store', () => {
  it('keeps data across close and reopen', async () => {
    const file = fresh()
    const a = openSqliteStore(file)
    await a.put('k', { kept: true }, 3600)
    await a.close()
    const b = openSqliteStore(file)
    expect(await b.get('k')).toEqual({ kept: true })
    await b.close()
  })

  it('is shared by two instances on one file, with one winner per putIfAbsent', async () => {
    const file = fresh()
    const [a, b] = [openSqliteStore(file), openSqliteStore(file)]
    await a.put('shared', { from: 'a' }, 60)
    expect(await b.get('shared')).toEqual({ from: 'a' })
    const wins = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).putIfAbsent('one', { i }, 60)))
    expect(wins.filter(Boolean)).toHaveLength(1)
    await Promise.all([a.close(), b.close()])
  })

  it(
    'answers liveness checks asked together each for its ' + 'key, and after a write another instance acknowledged',
    async () => {
      const file = fresh()
      const [a, b] = [openSqliteStore(file), openSqliteStore(file)]
      await a.put('x', { v: 1 }, 60)
      await a.put('y', { v: 2 }, 60)
      expect(await Promise.all(['x', 'y', 'z', 'x'].map((k) => a.has(k)))).toEqual([true, true, false, true])
      // Revoked through the other instance (another process, in production): refused at once here.
      for (let i = 0; i < 3; i++) {
        const before = a.has('x')
        expect(await before).toBe(true)
        await b.delete('x')
        expect(await a.has('x')).toBe(false)
        await b.put('x', { v: 1 }, 60)
        expect(await a.has('x')).toBe(true)
      }
      await Promise.all([a.close(), b.close()])
    },
  )

  it('loses no acknowledged write when its process is killed with SIGKILL mid-burst', async () => {
    const file = fresh()
    const module = pathToFileURL(join(import.meta.dirname, '..', '..', 'auth-service', 'store', 'sqlite-store.ts')).href
    const script = `
      const { openSqliteStore } = await import(${JSON.stringify(module)})
      const store = openSqliteStore(${JSON.stringify(file)})
      for (let i = 0; ; i++) {
        await store.put('burst:' + i, { i }, 3600)
        process.stdout.write(i + '\\n')
      }`
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const acknowledged: number[] = []
    let buffered = ''
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString()
        const lines = buffered.split('\n')
        buffered = lines.pop()!
        acknowledged.push(...lines.map(Number))
        if (acknowledged.length >= 300 && !child.killed) {
          child.kill('SIGKILL')
          resolve()
        }
      })
    })
    await new Promise((r) => child.once('exit', r))
    const store = openSqliteStore(file)
    const missing = []
    for (const i of acknowledged) if (!(await store.get(`burst:${i}`))) missing.push(i)
    await store.close()
    expect(acknowledged.length).toBeGreaterThanOrEqual(300)
    expect(missing).toEqual([])
  })
})
