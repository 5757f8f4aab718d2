import { ServiceError } from '../errors.ts'
import type { Store } from '../store/store.ts'
import type { Principal } from './bearer.ts'
import type { RateLimits } from '../defaults.ts'
import { BatchedCounters } from './rate-limits.ts'

/** The read budgets' window (the reads and the refused credentials), in seconds. */
export const WINDOW_SECONDS = 60
/** The read budgets' names in the RateLimit headers. */
export const READ_BUDGET_NAMES = ['reads', 'bad_credentials'] as const

/** A per-minute budget's decision on one request (the read budget's, or the refused credentials'). */
export interface ReadDecision {
  allowed: boolean
  /** RateLimit-Policy and RateLimit (IETF draft 8 structured fields). */
  policy: string
  remaining: string
  resetSeconds: number
}

/** The RateLimit-Policy and RateLimit headers of a decision, as name/value pairs. */
export function rateLimitHeaders(d: ReadDecision): string[] {
  return ['RateLimit-Policy', d.policy, 'RateLimit', d.remaining]
}

export interface ReadBudget {
  /** Counts one read for this caller (by its address when anonymous) and says whether it is within the budget. */
  take(principal: Principal, clientAddress: () => string): ReadDecision
  shutdown(): void
}

/** Counts one hit of `key` against `limit` and says whether it is within it. */
function decide(counters: BatchedCounters, name: string, policy: string, limit: number, key: string): ReadDecision {
  const { totalHits, resetTime } = counters.increment(key)
  const resetSeconds = Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000))
  return {
    allowed: totalHits <= limit,
    policy,
    remaining: `"${name}"; r=${Math.max(0, limit - totalHits)}; t=${resetSeconds}`,
    resetSeconds,
  }
}

/** The 429 rate_limited of a decision beyond its budget (RFC 6585 §4), with its Retry-After. */
export function overBudget(d: ReadDecision): ServiceError {
  return new ServiceError('rate_limited', 'Too many requests; wait for the time given in Retry-After, then retry.', {
    headers: { 'Retry-After': String(Math.max(1, d.resetSeconds)) },
  })
}

/**
 * The read budget: per credential when identified (a larger budget: what keys are for), per
 * address otherwise; counted in memory and shared through the Store (BatchedCounters).
 */
export function readBudget(store: Store, limits: RateLimits): ReadBudget {
  const counters = new BatchedCounters(store, 'reads', WINDOW_SECONDS)
  const policies = {
    anonymous: `"reads"; q=${limits.anonymousReadsPerMinute}; w=${WINDOW_SECONDS}`,
    identified: `"reads"; q=${limits.identifiedReadsPerMinute}; w=${WINDOW_SECONDS}`,
  }

  function take(principal: Principal, address: () => string): ReadDecision {
    return principal.kind === 'anonymous'
      ? decide(counters, 'reads', policies.anonymous, limits.anonymousReadsPerMinute, address())
      : decide(counters, 'reads', policies.identified, limits.identifiedReadsPerMinute, `sub:${principal.subject}`)
  }

  return {
    take,
    shutdown: () => counters.shutdown(),
  }
}

export interface BadCredentialBudget {
  /** Counts a refused credential of a client (its budget key) and says whether it is within the budget. */
  take(address: string): ReadDecision
  shutdown(): void
}

/**
 * The budget of refused bearer credentials, per client address (the one thing known about a
 * caller whose credential failed): each 401 `invalid_token` draws on it, and beyond it the
 * refusal is a 429, so a flood of made-up, expired or revoked bearers from one address ends as
 * other floods do. The credential is still checked first: a valid one never draws on it, so a
 * flood from a shared address starves no key. Its own budget rather than the anonymous reads',
 * since an honest client drops a refused credential at once (auth.md) and needs few.
 */
export function badCredentialBudget(store: Store, limits: RateLimits): BadCredentialBudget {
  const counters = new BatchedCounters(store, 'bad_credentials', WINDOW_SECONDS)
  const limit = limits.badCredentialsPerMinute
  const policy = `"bad_credentials"; q=${limit}; w=${WINDOW_SECONDS}`
  return {
    take: (address) => decide(counters, 'bad_credentials', policy, limit, address),
    shutdown: () => counters.shutdown(),
  }
}
