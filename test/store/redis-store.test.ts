import { describe, expect, it } from 'vitest'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import { StoreUnavailableError } from '../../auth-service/store/store.ts'

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
