import type { Request, RequestHandler } from 'express'
import { ipKeyGenerator, rateLimit, type Store as LimiterStore } from 'express-rate-limit'
import { ServiceError } from '../errors.ts'
import type { Store } from '../store/store.ts'

/** Requests allowed per window. Identity earns a larger read budget: that is what keys are for. */
export interface RateLimits {
  anonymousReadsPerMinute: number
  identifiedReadsPerMinute: number
  keysPerHour: number
  identitiesPerHour: number
  tokensPerMinute: number
  /** Other writes (claim, revoke, events) per client address. */
  writesPerMinute: number
}

export const DEFAULT_RATE_LIMITS: RateLimits = Object.freeze({
  anonymousReadsPerMinute: 600,
  identifiedReadsPerMinute: 3000,
  keysPerHour: 20,
  identitiesPerHour: 20,
  tokensPerMinute: 60,
  writesPerMinute: 120,
})

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
  async decrement() {
    // Never called: no request is skipped after counting.
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
  decrement() {}
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

/** The client address, with IPv6 grouped by /56 so one host cannot rotate through its subnet. */
export const clientAddress = (req: Request) => `ip:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown')}`

function limiter(
  store: Store,
  name: string,
  windowSeconds: number,
  options: { limit: (req: Request) => number; key: (req: Request) => string; batched?: boolean },
): RequestHandler {
  return rateLimit({
    windowMs: windowSeconds * 1000,
    limit: options.limit,
    keyGenerator: options.key,
    store: options.batched ? new BatchedCounters(store, name, windowSeconds) : new SharedCounters(store, name, windowSeconds),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: name,
    // A store outage must not take public reads down with it; credential routes fail on
    // their own store calls with a 503.
    passOnStoreError: true,
    // Trust in X-Forwarded-For is configured explicitly (TRUST_PROXY).
    validate: { trustProxy: false, xForwardedForHeader: false },
    handler: (_req, _res, next) => {
      next(new ServiceError('rate_limited', 'Too many requests; wait for the time given in Retry-After, then retry.'))
    },
  })
}

/** The limiters of the write endpoints, counted in the shared Store (reads: read-budget.ts). */
export function rateLimiters(store: Store, limits: RateLimits) {
  return {
    keys: limiter(store, 'keys', 3600, { limit: () => limits.keysPerHour, key: clientAddress }),
    identities: limiter(store, 'identities', 3600, { limit: () => limits.identitiesPerHour, key: clientAddress }),
    // Agents exchange and revoke often: these per-minute budgets count in memory and share their
    // counts every 200 ms (exact per replica, shared within one flush).
    tokens: limiter(store, 'tokens', 60, { limit: () => limits.tokensPerMinute, key: clientAddress, batched: true }),
    writes: limiter(store, 'writes', 60, { limit: () => limits.writesPerMinute, key: clientAddress, batched: true }),
  }
}
