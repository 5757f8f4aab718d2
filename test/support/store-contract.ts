import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Store } from '../../auth-service/store/store.ts'

/** How a store under test is opened, made older, and cleaned up after. */
export interface Subject {
  open: () => Store
  /** Lets `ms` pass for everything the store has written. */
  elapse: (ms: number) => Promise<void>
  cleanup: () => Promise<void>
}

/** One contract, every store: what route code may rely on. */
export function describeStoreContract(name: string, subject: Subject) {
  describe(`${name} store contract`, () => {
    let store: Store
    const { elapse } = subject
    beforeAll(() => {
      store = subject.open()
    })
    afterAll(async () => {
      await store.close()
      await subject.cleanup()
    })

    it('round-trips nested JSON and misses unknown keys', async () => {
      const value = { a: 1, nested: { list: ['x', 'é', null], flag: true }, text: 'ünïcode ✓' }
      await store.put('rt', value, 60)
      expect(await store.get('rt')).toEqual(value)
      expect(await store.get('missing')).toBeUndefined()
    })

    it('has a key while it is live, and not once deleted or expired', async () => {
      await store.put('h1', { v: 1 }, 10)
      await store.put('h2', { v: 2 }, 60)
      expect([await store.has('h1'), await store.has('h2'), await store.has('missing')]).toEqual([true, true, false])
      await store.delete('h2')
      await elapse(10_100)
      expect([await store.has('h1'), await store.has('h2')]).toEqual([false, false])
    })

    it('overwrites with put and forgets after the TTL', async () => {
      await store.put('ow', { v: 1 }, 60)
      await store.put('ow', { v: 2 }, 10)
      await elapse(9000)
      expect(await store.get('ow')).toEqual({ v: 2 })
      await elapse(1100)
      expect(await store.get('ow')).toBeUndefined()
    })

    it('putIfAbsent writes once, and again after delete or expiry', async () => {
      expect(await store.putIfAbsent('once', { n: 1 }, 10)).toBe(true)
      expect(await store.putIfAbsent('once', { n: 2 }, 60)).toBe(false)
      expect(await store.get('once')).toEqual({ n: 1 })
      await elapse(10_100)
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

    it('take returns the value once and removes it; an expired value is not taken', async () => {
      await store.put('tk', { v: 1 }, 10)
      expect(await store.take('tk')).toEqual({ v: 1 })
      expect(await store.take('tk')).toBeUndefined()
      expect(await store.get('tk')).toBeUndefined()
      await store.put('tk-old', { v: 2 }, 5)
      await elapse(5100)
      expect(await store.take('tk-old')).toBeUndefined()
    })

    it('gives a value to exactly one of many concurrent takes', async () => {
      await store.put('take-race', { secret: 'x' }, 60)
      const results = await Promise.all(Array.from({ length: 20 }, () => store.take('take-race')))
      expect(results.filter((r) => r !== undefined)).toEqual([{ secret: 'x' }])
    })

    it('has any of several keys of one hash tag, in one check', async () => {
      await store.put('any:{g1}:b', { v: 1 }, 10)
      expect(await store.has(['any:{g1}:a', 'any:{g1}:b'])).toBe(true)
      expect(await store.has(['any:{g1}:a', 'any:{g1}:c'])).toBe(false)
      expect(
        await Promise.all([
          store.has(['any:{g1}:a', 'any:{g1}:b']),
          store.has('any:{g1}:b'),
          store.has(['any:{g1}:a']),
        ]),
      ).toEqual([true, true, false])
      await elapse(10_100)
      expect(await store.has(['any:{g1}:a', 'any:{g1}:b'])).toBe(false)
    })

    const keysOf = (id: string) => ({ value: `rd:{${id}}:v`, used: `rd-used:{${id}}:v`, revoked: `rd-revoked:{${id}}` })

    it('redeems a value once, and a replay revokes its grant', async () => {
      const keys = keysOf('r1')
      expect(await store.redeem(keys, 60)).toBeUndefined()
      await store.put(keys.value, { grant: 1 }, 60)
      expect(await store.redeem(keys, 60)).toEqual({ value: { grant: 1 } })
      expect(await store.has(keys.revoked)).toBe(false)
      expect(await store.redeem(keys, 60)).toBe('replayed')
      expect(await store.has(keys.revoked)).toBe(true)
      // A value of a revoked grant is never handed out (and is gone after the try).
      await store.put(keys.value, { grant: 2 }, 60)
      expect(await store.redeem(keys, 60)).toBe('revoked')
      expect(await store.get(keys.value)).toBeUndefined()
    })

    it('forgets used and revoked marks after their TTL, and never redeems an expired value', async () => {
      const keys = keysOf('r2')
      await store.put(keys.value, { v: 1 }, 5)
      await elapse(5100)
      expect(await store.redeem(keys, 60)).toBeUndefined()
      await store.put(keys.value, { v: 2 }, 60)
      expect(await store.redeem(keys, 10)).toEqual({ value: { v: 2 } })
      expect(await store.redeem(keys, 10)).toBe('replayed')
      await elapse(10_100)
      expect(await store.has([keys.used, keys.revoked])).toBe(false)
      expect(await store.redeem(keys, 10)).toBeUndefined()
    })

    it('of twenty concurrent redemptions, one gets the value and the others see a replay', async () => {
      for (let round = 0; round < 10; round++) {
        const keys = keysOf(`race${round}`)
        await store.put(keys.value, { round }, 60)
        const outcomes = await Promise.all(Array.from({ length: 20 }, () => store.redeem(keys, 60)))
        expect(outcomes.filter((o) => typeof o === 'object')).toEqual([{ value: { round } }])
        // The first loser revokes; those after it may see the revocation.
        expect(outcomes.filter((o) => o === 'replayed').length).toBeGreaterThanOrEqual(1)
        expect(outcomes.every((o) => o !== undefined)).toBe(true)
        expect(await store.has(keys.revoked)).toBe(true)
      }
    })

    it('deletes idempotently', async () => {
      await store.put('del', { a: 1 }, 60)
      await store.delete('del')
      await store.delete('del')
      expect(await store.get('del')).toBeUndefined()
    })

    it('counts within a window that later increments keep, and restarts after it', async () => {
      const first = await store.increment('ctr', 30)
      expect(first.count).toBe(1)
      expect(first.resetSeconds).toBeGreaterThan(28)
      expect(first.resetSeconds).toBeLessThanOrEqual(30)
      expect((await store.increment('ctr', 600)).count).toBe(2)
      const third = await store.increment('ctr', 600)
      expect(third.count).toBe(3)
      expect(third.resetSeconds).toBeLessThanOrEqual(30)
      await elapse(28_500)
      const late = await store.increment('ctr', 600)
      expect(late.count).toBe(4)
      expect(late.resetSeconds).toBeLessThanOrEqual(2)
      await elapse(2000)
      expect(await store.increment('ctr', 60)).toEqual({ count: 1, resetSeconds: 60 })
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

/** The commands `elapseOnRedis` needs, which a Redis and a Cluster client both have. */
interface TtlAdmin {
  pttl(key: string): Promise<number>
  pexpire(key: string, ms: number): Promise<number>
  del(key: string): Promise<number>
}

/**
 * Lets `ms` pass for these keys on a Redis server, where TTLs are kept: each loses `ms` of its
 * TTL, and one whose TTL runs out is gone, exactly as waiting would do. A key without a TTL fails.
 */
export async function elapseOnRedis(admin: TtlAdmin, keys: readonly string[], ms: number): Promise<void> {
  for (const key of keys) {
    const left = await admin.pttl(key)
    if (left === -1) throw new Error(`${key} has no TTL`)
    if (left > ms) await admin.pexpire(key, left - ms)
    else await admin.del(key)
  }
}
