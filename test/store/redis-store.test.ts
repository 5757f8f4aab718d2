import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import { StoreUnavailableError } from '../../auth-service/store/store.ts'
import { REDIS_URL } from '../support/index.ts'

describe('the redis store without a server', () => {
  it('fails fast with StoreUnavailableError instead of hanging', async () => {
    const store = createRedisStore('redis://127.0.0.1:1', { commandTimeoutMs: 500 })
    const started = Date.now()
    await expect(store.get('k')).rejects.toBeInstanceOf(StoreUnavailableError)
    await expect(store.put('k', { a: 1 }, 10)).rejects.toBeInstanceOf(StoreUnavailableError)
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError)
    expect(Date.now() - started).toBeLessThan(5000)
    await store.close()
  })
})

describe('the redis store', () => {
  it(
    'sends one EXISTS for the checks of a key asked ' + 'before its pipeline goes, and a new one after a write',
    async () => {
      const prefix = `test:${randomUUID()}:`
      const store = createRedisStore(REDIS_URL, { keyPrefix: prefix })
      const monitor = await new Redis(REDIS_URL).monitor()
      const commands: string[] = []
      let sawEnd: () => void
      const ended = new Promise<void>((r) => (sawEnd = r))
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (!String(args[1]).startsWith(prefix)) return
        commands.push(`${args[0]!.toLowerCase()} ${args[1]!.slice(prefix.length)}`)
        if (args[1] === `${prefix}end`) sawEnd()
      })
      try {
        await store.put('k', { v: 1 }, 60)
        // Asked together: one command, run after all of them were asked.
        expect(await Promise.all(Array.from({ length: 10 }, () => store.has('k')))).toEqual(Array(10).fill(true))
        await store.delete('k')
        // Asked after the delete was acknowledged: a command of its own, which sees it.
        expect(await store.has('k')).toBe(false)
        await store.get('end')
        await ended
        expect(commands).toEqual(['set k', 'exists k', 'del k', 'exists k', 'get end'])
      } finally {
        monitor.disconnect()
        await store.close()
      }
    },
  )
})
