import { Cluster, Command, Redis } from 'ioredis'
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

/** One node of a Redis Cluster to discover the others from. */
export interface ClusterNode {
  host: string
  port: number
}

// Reconnect forever with capped backoff: recovery must need no restart.
const backoff = (attempt: number) => Math.min(100 * 2 ** attempt, 2000)

/**
 * The store for many replicas. Commands fail fast (never queue forever) while Redis is away,
 * as StoreUnavailableError, and the client reconnects by itself when Redis comes back.
 */
export function createRedisStore(url: string, options: RedisStoreOptions = {}): Store {
  const keyPrefix = options.keyPrefix ?? ENV_DEFAULTS.REDIS_KEY_PREFIX
  const redis = new Redis(url, {
    keyPrefix,
    commandTimeout: options.commandTimeoutMs ?? REDIS_TIMEOUTS.commandMs,
    connectTimeout: REDIS_TIMEOUTS.connectMs,
    maxRetriesPerRequest: 1,
    retryStrategy: backoff,
    enableOfflineQueue: true,
    // Concurrent requests share round trips: one pipeline per event-loop tick.
    enableAutoPipelining: true,
  })
  return storeOn(redis, keyPrefix, options.commandTimeoutMs ?? REDIS_TIMEOUTS.commandMs)
}

/**
 * The same store on a Redis Cluster. Every key of one atomic step shares a hash tag, so each
 * command stays in one slot; the prefix must therefore hold no `{`, or it would become the tag.
 * Reads go to masters (replicas lag behind acknowledged writes), and a write is acknowledged only
 * once the shard's replica has it too, so that a failover loses no write that was reported done.
 */
export function createRedisClusterStore(nodes: readonly ClusterNode[], options: RedisStoreOptions = {}): Store {
  const keyPrefix = options.keyPrefix ?? ENV_DEFAULTS.REDIS_KEY_PREFIX
  if (/[{}]/.test(keyPrefix))
    throw new Error(
      `A Redis Cluster key prefix must not contain "{" or "}" ` +
        `(it would replace the keys' hash tags), got "${keyPrefix}".`,
    )
  const commandTimeoutMs = options.commandTimeoutMs ?? REDIS_TIMEOUTS.commandMs
  const cluster = new Cluster([...nodes], {
    redisOptions: {
      keyPrefix,
      commandTimeout: commandTimeoutMs,
      connectTimeout: REDIS_TIMEOUTS.connectMs,
      maxRetriesPerRequest: 1,
    },
    clusterRetryStrategy: backoff,
    enableOfflineQueue: true,
    enableAutoPipelining: true,
    scaleReads: 'master',
    // A failover moves slots: learn the new owners soon even without a MOVED reply.
    slotsRefreshInterval: REDIS_TIMEOUTS.slotsRefreshMs,
    maxRedirections: 16,
  })
  return storeOn(cluster, keyPrefix, commandTimeoutMs)
}

/** The slot a key (with the client's prefix) hashes to (Redis Cluster spec, "Keys distribution model"). */
const slotOf = (key: string, keyPrefix: string) => new Command('get', [key], { keyPrefix }).getSlot()

function storeOn(redis: Redis | Cluster, keyPrefix: string, commandTimeoutMs: number): Store {
  // Connection errors surface per command; the client's own error events only repeat them.
  redis.on('error', () => {})

  async function run<T>(command: () => Promise<T>): Promise<T> {
    // While the connection is down, fail now instead of parking the request in the offline queue.
    if (DOWN.has(redis.status)) throw new StoreUnavailableError(`Redis is unreachable (${redis.status}).`)
    let timer: NodeJS.Timeout | undefined
    try {
      // One server: ioredis' commandTimeout bounds each command, with no timer of ours per call.
      if (!(redis instanceof Cluster)) return await command()
      // A Cluster client retries a command through a failover; bound the whole try, not each send.
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${commandTimeoutMs} ms`)), commandTimeoutMs)
      })
      return await Promise.race([command(), deadline])
    } catch (cause) {
      if (cause instanceof StoreUnavailableError) throw cause
      throw new StoreUnavailableError('Redis did not answer.', { cause })
    } finally {
      clearTimeout(timer)
    }
  }

  /**
   * Sends a write. On a Cluster shard with a live replica the write is followed, on the same
   * connection, by WAIT, and counts as done only once the replica has it: Redis replicates
   * asynchronously, and a master lost before its replica saw a write would take the write along.
   */
  async function write(key: string, name: string, ...args: Array<string | number>): Promise<unknown> {
    if (!(redis instanceof Cluster)) return redis.call(name, ...args)
    // Unknown slots (not connected yet): assume the replica a deployment should have.
    const replicas = Math.min(1, (redis.slots[slotOf(key, keyPrefix)]?.length ?? 2) - 1)
    if (replicas === 0) return redis.call(name, ...args)
    const replies = (await redis
      .pipeline()
      .call(name, ...args)
      .wait(replicas, REDIS_TIMEOUTS.replicaAckMs)
      .exec())!
    const [error, reply] = replies[0]!
    const [waitError, acked] = replies[1]!
    if (error) throw error
    if (waitError) throw waitError
    if ((acked as number) < replicas) throw new StoreUnavailableError('No Redis replica confirmed the write in time.')
    return reply
  }

  /** Keys of one command must share a slot, or a Cluster refuses it (CROSSSLOT); checked everywhere. */
  function oneSlot(keys: readonly string[]) {
    if (keys.length < 2) return
    const slot = slotOf(keys[0]!, keyPrefix)
    if (keys.some((key) => slotOf(key, keyPrefix) !== slot))
      throw new Error(`Keys used together must share a hash tag: ${keys.join(', ')}`)
  }

  const unsentChecks = new Map<string, Promise<boolean>>()

  return {
    async put(key: string, value: StoredValue, ttlSeconds: number) {
      await run(() => write(key, 'set', key, JSON.stringify(value), 'PX', ttlMs(ttlSeconds)))
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
      // A rejection, never a throw: callers in front of Express chain on the promise.
      try {
        oneSlot(list)
      } catch (err) {
        return Promise.reject(err)
      }
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
      return (await run(() => write(key, 'set', key, JSON.stringify(value), 'PX', ttlMs(ttlSeconds), 'NX'))) === 'OK'
    },
    async take<T extends StoredValue>(key: string) {
      const raw = (await run(() => write(key, 'getdel', key))) as string | null
      return raw === null ? undefined : (JSON.parse(raw) as T)
    },
    async redeem<T extends StoredValue>(
      { value, used, revoked }: RedeemKeys,
      ttlSeconds: number,
    ): Promise<Redemption<T>> {
      oneSlot([value, used, revoked])
      const reply = (await run(() => write(value, 'eval', REDEEM, 3, value, used, revoked, ttlMs(ttlSeconds)))) as
        | [string, string?]
        | null
      if (reply === null) return undefined
      if (reply[0] === 'value') return { value: JSON.parse(reply[1]!) as T }
      return reply[0] as 'replayed' | 'revoked'
    },
    async delete(key: string) {
      await run(() => write(key, 'del', key))
    },
    async increment(key: string, windowSeconds: number, by = 1) {
      const [count, ms] = (await run(() => write(key, 'eval', INCREMENT, 1, key, ttlMs(windowSeconds), by))) as [
        number,
        number,
      ]
      return { count, resetSeconds: Math.max(1, Math.ceil(ms / 1000)) }
    },
    async ping() {
      // A Cluster answers PING from any node; CLUSTER INFO says whether every slot is served.
      if (!(redis instanceof Cluster)) return void (await run(() => redis.ping()))
      const info = await run(() => redis.cluster('INFO'))
      if (!/cluster_state:ok/.test(info))
        throw new StoreUnavailableError('The Redis Cluster is not serving every slot.')
    },
    async close() {
      if (redis.status === 'end') return
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}

const ttlMs = (seconds: number) => Math.max(1, Math.round(seconds * 1000))
