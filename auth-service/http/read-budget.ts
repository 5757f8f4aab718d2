import type { RequestHandler } from 'express'
import { ServiceError } from '../errors.ts'
import type { Store } from '../store/store.ts'
import { principalOf, type Principal } from './bearer.ts'
import type { RateLimits } from '../defaults.ts'
import { BatchedCounters, clientAddress } from './rate-limits.ts'

const WINDOW_SECONDS = 60

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
  /** The same check as middleware on GET and HEAD, after the bearer check (429 rate_limited beyond it). */
  middleware: RequestHandler
  /** The same on every request, whatever its method: each POST to /mcp is one read. */
  everyRequest: RequestHandler
  shutdown(): void
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
    const anonymous = principal.kind === 'anonymous'
    const limit = anonymous ? limits.anonymousReadsPerMinute : limits.identifiedReadsPerMinute
    const { totalHits, resetTime } = counters.increment(anonymous ? address() : `sub:${principal.subject}`)
    const resetSeconds = Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000))
    return {
      allowed: totalHits <= limit,
      policy: anonymous ? policies.anonymous : policies.identified,
      remaining: `"reads"; r=${Math.max(0, limit - totalHits)}; t=${resetSeconds}`,
      resetSeconds,
    }
  }

  const everyRequest: RequestHandler = (req, res, next) => {
    const d = take(principalOf(res), () => clientAddress(req))
    const headers = rateLimitHeaders(d)
    for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!)
    if (!d.allowed)
      throw new ServiceError('rate_limited', 'Too many requests; wait for the time given in Retry-After, then retry.', {
        headers: { 'Retry-After': String(Math.max(1, d.resetSeconds)) },
      })
    next()
  }

  return {
    take,
    middleware: (req, res, next) => (req.method !== 'GET' && req.method !== 'HEAD' ? next() : everyRequest(req, res, next)),
    everyRequest,
    shutdown: () => counters.shutdown(),
  }
}
