import { join } from 'node:path'
import type { Store } from './store.ts'

interface StoreOptions {
  redisUrl?: string | undefined
  redisClusterNodes?: readonly { host: string; port: number }[] | undefined
  redisKeyPrefix?: string
  dataDir: string
}

/**
 * A Redis Cluster when REDIS_CLUSTER_NODES is set, one Redis when REDIS_URL is (both for many
 * replicas); otherwise the embedded sqlite file in DATA_DIR.
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.redisClusterNodes) {
    const { createRedisClusterStore } = await import('./redis-store.ts')
    return createRedisClusterStore(options.redisClusterNodes, { keyPrefix: options.redisKeyPrefix })
  }
  if (options.redisUrl) {
    const { createRedisStore } = await import('./redis-store.ts')
    return createRedisStore(options.redisUrl, { keyPrefix: options.redisKeyPrefix })
  }
  const { openSqliteStore } = await import('./sqlite-store.ts')
  return openSqliteStore(join(options.dataDir, 'store.sqlite'))
}
