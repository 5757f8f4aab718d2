import { join } from 'node:path'
import type { Store } from './store.ts'

/** Redis when REDIS_URL is set (many replicas); otherwise the embedded sqlite file in DATA_DIR. */
export async function openStore(options: { redisUrl?: string | undefined; redisKeyPrefix?: string; dataDir: string }): Promise<Store> {
  if (options.redisUrl) {
    const { createRedisStore } = await import('./redis-store.ts')
    return createRedisStore(options.redisUrl, { keyPrefix: options.redisKeyPrefix })
  }
  const { openSqliteStore } = await import('./sqlite-store.ts')
  return openSqliteStore(join(options.dataDir, 'store.sqlite'))
}
