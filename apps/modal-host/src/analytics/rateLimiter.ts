/**
 * A sliding-window limiter for error reports (spec §7, §9 "Error reports: 5 per 60 s").
 */

/** Parameters of {@link createRateLimiter}. */
export type CreateRateLimiterParameters = {
  /** How many may pass in any window. */
  limit: number
  windowMs: number
}

/** A limiter: `take(now)` is true when one more may pass now, and counts it. */
export type RateLimiter = { take: (now: number) => boolean }

/**
 * Creates a sliding-window limiter: at most `limit` takes in any `windowMs`; a take passes
 * again once the oldest one in the window is `windowMs` old. Refused takes do not count.
 *
 * @example
 * const limiter = createRateLimiter({ limit: 5, windowMs: 60_000 })
 * if (limiter.take(Date.now())) report(error)
 */
export function createRateLimiter(parameters: CreateRateLimiterParameters): RateLimiter {
  const { limit, windowMs } = parameters
  let taken: number[] = []
  return {
    take(now) {
      // A clock that moved back keeps the later stamps, so it cannot reopen the window early.
      taken = taken.filter((time) => now - time < windowMs)
      if (taken.length >= limit) return false
      taken.push(now)
      return true
    },
  }
}
