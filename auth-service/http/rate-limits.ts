import type { Request, RequestHandler } from 'express'
import { ipKeyGenerator, rateLimit, type Store as LimiterStore } from 'express-rate-limit'
import { ServiceError } from '../errors.ts'
import type { RateLimits } from '../defaults.ts'
import type { Store } from '../store/store.ts'

/** express-rate-limit's store, on our Store's counters: one budget shared by every replica. */
class SharedCounters implements LimiterStore {
  readonly localKeys = false
  readonly prefix: string
  private readonly store: Store
  private readonly windowSeconds: number
  constructor(store: Store, prefix: string, windowSeconds: number) {
    this.store = store
    this.prefix = `rate:${prefix}:`
    this.windowSeconds = windowSeconds
  }
  async increment(key: string) {
    const { count, resetSeconds } = await this.store.increment(this.prefix + key, this.windowSeconds)
    return { totalHits: count, resetTime: new Date(Date.now() + resetSeconds * 1000) }
  }
  async decrement(key: string) {
    // A refused issuance gives its count back (skipFailedRequests).
    await this.store.increment(this.prefix + key, this.windowSeconds, -1)
  }
  async resetKey(key: string) {
    await this.store.delete(this.prefix + key)
  }
}

/**
 * For the read budget, hit on every request: counts in memory and adds the counts to the shared
 * Store every `flushMs`, so a read costs a Map update instead of a store write. Replicas see each
 * other's hits within one flush interval; a store outage leaves each replica counting alone.
 */
export class BatchedCounters implements LimiterStore {
  readonly localKeys = false
  readonly prefix: string
  private readonly store: Store
  private readonly windowMs: number
  private readonly entries = new Map<string, { shared: number; pending: number; resetAt: number }>()
  private readonly timer: NodeJS.Timeout
  private flushing = false
  constructor(store: Store, prefix: string, windowSeconds: number, flushMs = 200) {
    this.store = store
    this.prefix = `rate:${prefix}:`
    this.windowMs = windowSeconds * 1000
    this.timer = setInterval(() => void this.flush(), flushMs)
    this.timer.unref()
  }
  increment(key: string) {
    const now = Date.now()
    let e = this.entries.get(key)
    if (!e || e.resetAt <= now) {
      e = { shared: 0, pending: 0, resetAt: now + this.windowMs }
      this.entries.set(key, e)
    }
    e.pending++
    return { totalHits: e.shared + e.pending, resetTime: new Date(e.resetAt) }
  }
  decrement(key: string) {
    const e = this.entries.get(key)
    if (e) e.pending--
  }
  resetKey(key: string) {
    this.entries.delete(key)
  }
  shutdown() {
    clearInterval(this.timer)
  }
  /** Adds every pending count to the shared counter and learns the total from all replicas. */
  async flush(): Promise<void> {
    if (this.flushing) return
    this.flushing = true
    try {
      const now = Date.now()
      for (const [key, e] of this.entries) {
        if (e.pending === 0) {
          if (e.resetAt <= now) this.entries.delete(key)
          continue
        }
        const n = e.pending
        e.pending = 0
        try {
          const { count, resetSeconds } = await this.store.increment(this.prefix + key, this.windowMs / 1000, n)
          e.shared = count
          e.resetAt = Date.now() + resetSeconds * 1000
        } catch {
          e.pending += n // counted again at the next flush
        }
      }
    } finally {
      this.flushing = false
    }
  }
}

/** The budget key of a client address, with IPv6 grouped by /56 so one host cannot rotate through its subnet. */
export const addressKey = (ip: string | undefined) => `ip:${ipKeyGenerator(ip ?? 'unknown')}`

/** The budget key of a request's client (Express's `req.ip`, which honours `trust proxy`). */
export const clientAddress = (req: Request) => addressKey(req.ip ?? req.socket.remoteAddress)

function limiter(
  store: Store,
  name: string,
  windowSeconds: number,
  options: { limit: number; batched?: boolean; issuance?: boolean },
): RequestHandler {
  return rateLimit({
    windowMs: windowSeconds * 1000,
    limit: options.limit,
    keyGenerator: clientAddress,
    store: options.batched ? new BatchedCounters(store, name, windowSeconds) : new SharedCounters(store, name, windowSeconds),
    // An issuance budget counts what was issued: a refused or malformed request gives its count back.
    skipFailedRequests: options.issuance ?? false,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: name,
    // A store outage must not take public reads down with it; credential routes fail on
    // their own store calls with a 503.
    passOnStoreError: true,
    // Trust in X-Forwarded-For is configured explicitly (TRUST_PROXY). The key generator's
    // source check is off: clientAddress groups IPv6 through addressKey, which calls ipKeyGenerator.
    validate: { trustProxy: false, xForwardedForHeader: false, keyGeneratorIpFallback: false },
    handler: (_req, _res, next) => {
      next(new ServiceError('rate_limited', 'Too many requests; wait for the time given in Retry-After, then retry.'))
    },
  })
}

/**
 * The write budgets, per client address, counted in the shared Store (reads: read-budget.ts):
 * `writes` bounds every POST whatever its outcome; the issuance budgets count only successes.
 */
export function rateLimiters(store: Store, limits: RateLimits) {
  return {
    // Agents exchange and revoke often: these per-minute budgets count in memory and share their
    // counts every 200 ms (exact per replica, shared within one flush).
    writes: limiter(store, 'writes', 60, { limit: limits.writesPerMinute, batched: true }),
    tokens: limiter(store, 'tokens', 60, { limit: limits.tokensPerMinute, batched: true, issuance: true }),
    keys: limiter(store, 'keys', 3600, { limit: limits.keysPerHour, issuance: true }),
    identities: limiter(store, 'identities', 3600, { limit: limits.identitiesPerHour, issuance: true }),
    clients: limiter(store, 'clients', 3600, { limit: limits.clientsPerHour, issuance: true }),
  }
}
