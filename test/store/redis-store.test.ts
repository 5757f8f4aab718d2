import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import { StoreUnavailableError } from '../../auth-service/store/store.ts'
import { REDIS_URL } from '../support/index.ts'
import { monitorRedis } from '../support/redis-monitor.ts'

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
      const monitor = await monitorRedis(REDIS_URL, prefix)
      try {
        await store.put('k', { v: 1 }, 60)
        // Asked together: one command, run after all of them were asked.
        expect(await Promise.all(Array.from({ length: 10 }, () => store.has('k')))).toEqual(Array(10).fill(true))
        await store.delete('k')
        // Asked after the delete was acknowledged: a command of its own, which sees it.
        expect(await store.has('k')).toBe(false)
        await store.get('end')
        await monitor.seen(`${prefix}end`)
        const commands = monitor.commands.map(([name, key]) => `${name!.toLowerCase()} ${key!.slice(prefix.length)}`)
        expect(commands).toEqual(['set k', 'exists k', 'del k', 'exists k', 'get end'])
      } finally {
        monitor.close()
        await store.close()
      }
    },
  )
})
