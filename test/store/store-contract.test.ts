import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import { openSqliteStore } from '../../auth-service/store/sqlite-store.ts'
import type { Store } from '../../auth-service/store/store.ts'
import { REDIS_URL } from '../support/index.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** One contract, every store: what route code may rely on. */
function describeStoreContract(name: string, open: () => Store, cleanup: () => Promise<void> = async () => {}) {
  describe(`${name} store contract`, () => {
    let store: Store
    beforeAll(() => {
      store = open()
    })
    afterAll(async () => {
      await store.close()
      await cleanup()
    })

    it('round-trips nested JSON and misses unknown keys', async () => {
      const value = { a: 1, nested: { list: ['x', 'é', null], flag: true }, text: 'ünïcode ✓' }
      await store.put('rt', value, 60)
      expect(await store.get('rt')).toEqual(value)
      expect(await store.get('missing')).toBeUndefined()
    })

    it('overwrites with put and forgets after the TTL', async () => {
      await store.put('ow', { v: 1 }, 60)
      await store.put('ow', { v: 2 }, 1)
      expect(await store.get('ow')).toEqual({ v: 2 })
      await sleep(1100)
      expect(await store.get('ow')).toBeUndefined()
    })

    it('putIfAbsent writes once, and again after delete or expiry', async () => {
      expect(await store.putIfAbsent('once', { n: 1 }, 1)).toBe(true)
      expect(await store.putIfAbsent('once', { n: 2 }, 60)).toBe(false)
      expect(await store.get('once')).toEqual({ n: 1 })
      await sleep(1100)
      expect(await store.putIfAbsent('once', { n: 3 }, 60)).toBe(true)
      await store.delete('once')
      expect(await store.putIfAbsent('once', { n: 4 }, 60)).toBe(true)
      expect(await store.get('once')).toEqual({ n: 4 })
    })

    it('lets exactly one of many concurrent putIfAbsent calls win', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.putIfAbsent('race', { i }, 60)))
      expect(results.filter(Boolean)).toHaveLength(1)
      const winner = results.indexOf(true)
      expect(await store.get('race')).toEqual({ i: winner })
    })

    it('deletes idempotently', async () => {
      await store.put('del', { a: 1 }, 60)
      await store.delete('del')
      await store.delete('del')
      expect(await store.get('del')).toBeUndefined()
    })

    it('counts within a window that later increments keep, and restarts after it', async () => {
      const first = await store.increment('ctr', 2)
      expect(first.count).toBe(1)
      expect(first.resetSeconds).toBeGreaterThan(0)
      expect(first.resetSeconds).toBeLessThanOrEqual(2)
      expect((await store.increment('ctr', 60)).count).toBe(2)
      const third = await store.increment('ctr', 60)
      expect(third.count).toBe(3)
      expect(third.resetSeconds).toBeLessThanOrEqual(2)
      await sleep(2100)
      expect((await store.increment('ctr', 60)).count).toBe(1)
    })

    it('adds more than one at a time', async () => {
      expect((await store.increment('by', 60, 5)).count).toBe(5)
      expect((await store.increment('by', 60, 3)).count).toBe(8)
      expect((await store.increment('by', 60)).count).toBe(9)
    })

    it('counts concurrent increments exactly', async () => {
      const counts = await Promise.all(Array.from({ length: 25 }, () => store.increment('many', 60)))
      expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1))
    })

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined()
    })
  })
}

const prefix = `test:${randomUUID()}:`
describeStoreContract('redis', () => createRedisStore(REDIS_URL, { keyPrefix: prefix }), async () => {
  const redis = new Redis(REDIS_URL)
  const keys = await redis.keys(`${prefix}*`)
  if (keys.length) await redis.del(...keys)
  await redis.quit()
})

describeStoreContract('sqlite', () => openSqliteStore(join(mkdtempSync(join(tmpdir(), 'lattice-sqlite-')), 'store.sqlite')))
