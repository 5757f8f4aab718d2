import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestHandler } from 'express'
import { ipKeyGenerator, rateLimit, type Store as LimiterStore } from 'express-rate-limit'
import { LRUCache } from 'lru-cache'
import { ServiceError } from '../errors.ts'
import { REFUSED_CLIENTS_CACHE_SIZE, type RateLimits } from '../defaults.ts'
import { wasRefused } from './errors-middleware.ts'
import type { Step } from './action.ts'
import { middleware } from './middleware-step.ts'
import type { Store } from '../store/store.ts'

/**
 * express-rate-limit's store, on our Store's counters: one budget shared by every replica, and
 * exact, since each hit is one atomic increment in the Store (N concurrent requests over a budget
 * of B: B pass, whichever replicas they reach). A budget that gives nothing back (no
 * skipFailedRequests) only grows within its window, so a key found over `refuseAbove` is refused
 * from memory until the window ends: a flood past the budget costs no store round trip.
 */
class SharedCounters implements LimiterStore {
  readonly localKeys = false
  readonly prefix: string
  private readonly store: Store
  private readonly windowSeconds: number
  private readonly refuseAbove: number | undefined
  /** Key -> when its window ends, for keys over `refuseAbove`. */
  private readonly over: LRUCache<string, number> | undefined
  constructor(store: Store, prefix: string, windowSeconds: number, refuseAbove?: number) {
    this.store = store
    this.prefix = `rate:${prefix}:`
    this.windowSeconds = windowSeconds
    this.refuseAbove = refuseAbove
    this.over = refuseAbove === undefined ? undefined : new LRUCache({ max: REFUSED_CLIENTS_CACHE_SIZE })
  }
  async increment(key: string) {
    const now = Date.now()
    const until = this.over?.get(key)
    if (until !== undefined && until > now) return { totalHits: this.refuseAbove! + 1, resetTime: new Date(until) }
    const { count, resetSeconds } = await this.store.increment(this.prefix + key, this.windowSeconds)
    // The store rounds the time left up to a second: remembered one second less, so never past the window.
    if (this.over && count > this.refuseAbove! && resetSeconds > 1) this.over.set(key, now + (resetSeconds - 1) * 1000)
    return { totalHits: count, resetTime: new Date(now + resetSeconds * 1000) }
  }
  async decrement(key: string) {
    // A refused issuance gives its count back (skipFailedRequests).
    await this.store.increment(this.prefix + key, this.windowSeconds, -1)
  }
  async resetKey(key: string) {
    this.over?.delete(key)
    await this.store.delete(this.prefix + key)
  }
}

/**
 * For the read budgets, hit on every request: counts in memory and adds the counts to the shared
 * Store every `flushMs`, so a read costs a Map update instead of a store write. Exact within one
 * replica; replicas see each other's hits within one flush interval; a store outage leaves each
 * replica counting alone.
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
        // Still counted while the store answers: hits meanwhile must see them, or as many
        // requests as were flushed would pass again.
        e.shared += n
        try {
          const { count, resetSeconds } = await this.store.increment(this.prefix + key, this.windowMs / 1000, n)
          e.shared = count
          e.resetAt = Date.now() + resetSeconds * 1000
        } catch {
          e.shared -= n
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

function limiter(
  store: Store,
  name: string,
  windowSeconds: number,
  options: { limit: number; issuance?: boolean },
  clientAddress: (req: IncomingMessage) => string,
): RequestHandler {
  const issuance = options.issuance ?? false
  return rateLimit({
    windowMs: windowSeconds * 1000,
    limit: options.limit,
    keyGenerator: clientAddress,
    store: new SharedCounters(store, name, windowSeconds, issuance ? undefined : options.limit),
    // An issuance budget counts what was issued: a refused, malformed or declined request gives
    // its count back. A refusal may be a redirect (an authorization denied: RFC 6749 §4.1.2.1).
    skipFailedRequests: issuance,
    requestWasSuccessful: (_req, res) => res.statusCode < 400 && !wasRefused(res),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: name,
    // A store outage must not take public reads down with it; credential routes fail on
    // their own store calls with a 503.
    passOnStoreError: true,
    // Trust in X-Forwarded-For is configured explicitly (TRUST_PROXY). The key generator's
    // source check is off: the key is the address behind the configured proxies (app.ts), grouped
    // through addressKey, which calls ipKeyGenerator.
    validate: { trustProxy: false, xForwardedForHeader: false, keyGeneratorIpFallback: false },
    handler: (_req, _res, next) => {
      next(new ServiceError('rate_limited', 'Too many requests; wait for the time given in Retry-After, then retry.'))
    },
  })
}

/**
 * The write budgets, per client address, counted exactly in the shared Store (reads:
 * read-budget.ts): `writes` bounds every POST whatever its outcome; the issuance budgets count
 * only successes. Each costs one store increment per request within the budget.
 */
export function rateLimiters(store: Store, limits: RateLimits, clientAddress: (req: IncomingMessage) => string) {
  const w = WRITE_WINDOWS
  const budget = (name: keyof typeof WRITE_WINDOWS, limit: number, issuance = true): Step => {
    const step = middleware(limiter(store, name, w[name], { limit, issuance }, clientAddress))
    return (call) => {
      // The one method of Express's response the limiter calls beyond node's (for its draft-8
      // headers); node's own appendHeader does the same.
      const res = call.res as ServerResponse & { append?: (name: string, value: string) => void }
      res.append ??= (name, value) => void res.appendHeader(name, value)
      return step(call)
    }
  }
  return {
    writes: budget('writes', limits.writesPerMinute, false),
    tokens: budget('tokens', limits.tokensPerMinute),
    keys: budget('keys', limits.keysPerHour),
    identities: budget('identities', limits.identitiesPerHour),
    clients: budget('clients', limits.clientsPerHour),
  }
}

/** Each write budget's window in seconds; its name is the budget's name in the RateLimit headers. */
export const WRITE_WINDOWS = { writes: 60, tokens: 60, keys: 3600, identities: 3600, clients: 3600 } as const
