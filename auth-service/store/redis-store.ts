import { Redis } from 'ioredis'
import { ENV_DEFAULTS, REDIS_TIMEOUTS } from '../defaults.ts'
import { StoreUnavailableError, type RedeemKeys, type Redemption, type Store, type StoredValue } from './store.ts'

/** First increment sets the window; later ones keep it. Returns the count and the ms left. */
const INCREMENT = `
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if n == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`

/**
 * Store.redeem in one script. KEYS: value, used, revoked (one hash tag); ARGV: the marks' ttl in ms.
 * Returns {'value', v}, {'replayed'}, {'revoked'}, or nil when there is nothing to redeem.
 */
const REDEEM = `
if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('DEL', KEYS[1]); return {'revoked'} end
local v = redis.call('GET', KEYS[1])
if v then
  redis.call('DEL', KEYS[1])
  redis.call('SET', KEYS[2], '{}', 'PX', ARGV[1])
  return {'value', v}
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('SET', KEYS[3], '{}', 'PX', ARGV[1])
  return {'replayed'}
end
return false`

const DOWN = new Set(['close', 'reconnecting', 'end'])

export interface RedisStoreOptions {
  /** Namespaces every key, so that tests and several deployments can share one server. */
  keyPrefix?: string
  /** Longest a command may wait for Redis before it fails as unavailable. */
  commandTimeoutMs?: number
}

/**
 * The store for many replicas. Commands fail fast (never queue forever) while Redis is away,
 * as StoreUnavailableError, and the client reconnects by itself when Redis comes back.
 */
export function createRedisStore(url: string, options: RedisStoreOptions = {}): Store {
  const redis = new Redis(url, {
    keyPrefix: options.keyPrefix ?? ENV_DEFAULTS.REDIS_KEY_PREFIX,
    commandTimeout: options.commandTimeoutMs ?? REDIS_TIMEOUTS.commandMs,
    connectTimeout: REDIS_TIMEOUTS.connectMs,
    maxRetriesPerRequest: 1,
    // Reconnect forever with capped backoff: recovery must need no restart.
    retryStrategy: (attempt) => Math.min(100 * 2 ** attempt, 2000),
    enableOfflineQueue: true,
    // Concurrent requests share round trips: one pipeline per event-loop tick.
    enableAutoPipelining: true,
  })
  // Connection errors surface per command; the client's own error events only repeat them.
  redis.on('error', () => {})

  async function run<T>(command: () => Promise<T>): Promise<T> {
    // While the connection is down, fail now instead of parking the request in the offline queue.
    if (DOWN.has(redis.status)) throw new StoreUnavailableError(`Redis is unreachable (${redis.status}).`)
    try {
      return await command()
    } catch (cause) {
      throw new StoreUnavailableError('Redis did not answer.', { cause })
    }
  }

  const unsentChecks = new Map<string, Promise<boolean>>()

  return {
    async put(key: string, value: StoredValue, ttlSeconds: number) {
      await run(() => redis.set(key, JSON.stringify(value), 'PX', ttlMs(ttlSeconds)))
    },
    async get<T extends StoredValue>(key: string) {
      const raw = await run(() => redis.get(key))
      return raw === null ? undefined : (JSON.parse(raw) as T)
    },
    has(keys: string | readonly string[]) {
      // Checks of the same keys made while the pipeline has not been sent yet share one EXISTS: it
      // runs after all of them were asked, so each still sees every write acknowledged before it.
      // ioredis sends this tick's pipeline from a setImmediate queued by the first command, so
      // the entry is dropped by one queued after it, once the command has gone.
      const list = typeof keys === 'string' ? [keys] : keys
      const id = list.join('\n')
      let check = unsentChecks.get(id)
      if (!check) {
        check = run(() => redis.exists(...list)).then((n) => n > 0)
        unsentChecks.set(id, check)
        setImmediate(() => unsentChecks.delete(id))
      }
      return check
    },
    async putIfAbsent(key: string, value: StoredValue, ttlSeconds: number) {
      return (await run(() => redis.set(key, JSON.stringify(value), 'PX', ttlMs(ttlSeconds), 'NX'))) === 'OK'
    },
    async take<T extends StoredValue>(key: string) {
      const raw = await run(() => redis.getdel(key))
      return raw === null ? undefined : (JSON.parse(raw) as T)
    },
    async redeem<T extends StoredValue>({ value, used, revoked }: RedeemKeys, ttlSeconds: number): Promise<Redemption<T>> {
      const reply = (await run(() => redis.eval(REDEEM, 3, value, used, revoked, ttlMs(ttlSeconds)))) as [string, string?] | null
      if (reply === null) return undefined
      if (reply[0] === 'value') return { value: JSON.parse(reply[1]!) as T }
      return reply[0] as 'replayed' | 'revoked'
    },
    async delete(key: string) {
      await run(() => redis.del(key))
    },
    async increment(key: string, windowSeconds: number, by = 1) {
      const [count, ms] = (await run(() => redis.eval(INCREMENT, 1, key, ttlMs(windowSeconds), by))) as [number, number]
      return { count, resetSeconds: Math.max(1, Math.ceil(ms / 1000)) }
    },
    async ping() {
      await run(() => redis.ping())
    },
    async close() {
      if (redis.status === 'end') return
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}

const ttlMs = (seconds: number) => Math.max(1, Math.round(seconds * 1000))
