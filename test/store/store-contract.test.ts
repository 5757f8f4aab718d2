import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { createRedisStore } from '../../auth-service/store/redis-store.ts'
import { openSqliteStore } from '../../auth-service/store/sqlite-store.ts'
import { REDIS_URL } from '../support/index.ts'
import { describeStoreContract, elapseOnRedis } from '../support/store-contract.ts'
import { tempDir } from '../support/temp.ts'

// Redis keeps TTLs on the server and the store computes no time, so time is made to pass there
// (elapseOnRedis): a store that set a wrong TTL, or none, fails the same assertions.
const prefix = `test:${randomUUID()}:`
const admin = new Redis(REDIS_URL, { lazyConnect: true })
const keysOfRun = () => admin.keys(`${prefix}*`)
describeStoreContract('redis', {
  open: () => createRedisStore(REDIS_URL, { keyPrefix: prefix }),
  async elapse(ms) {
    await elapseOnRedis(admin, await keysOfRun(), ms)
  },
  async cleanup() {
    const keys = await keysOfRun()
    if (keys.length) await admin.del(...keys)
    await admin.quit()
  },
})

// The sqlite store compares expiries with its own clock, so the test moves that clock.
const sqliteDir = tempDir('sqlite')
let clock = Date.now()
describeStoreContract('sqlite', {
  open: () => openSqliteStore(join(sqliteDir, 'store.sqlite'), { now: () => clock }),
  elapse: async (ms) => void (clock += ms),
  cleanup: async () => {},
})
