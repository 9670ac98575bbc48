import type { RateLimitConfig } from '../config.js'

/** Options for {@link createRateLimiter}. */
export type CreateRateLimiterParameters = RateLimitConfig & {
  /** Most keys tracked; past it, full buckets are forgotten first, then the oldest. */
  maxKeys?: number
  /** Clock in milliseconds, for tests. */
  now?: () => number
}

/** The outcome of taking one token. */
export type RateLimitResult = { ok: true } | { ok: false; retryAfterSeconds: number }

/** A set of token buckets by key. */
export type RateLimiter = { take(key: string): RateLimitResult; readonly size: number }

/**
 * Token buckets: each key starts with `burst` tokens, refills `ratePerSecond` per second up to
 * `burst`, and each request takes one. Memory is bounded by `maxKeys`.
 *
 * @example
 * const limiter = createRateLimiter({ ratePerSecond: 50, burst: 200 })
 * limiter.take('127.0.0.1|porthole-demo') // { ok: true }
 */
export function createRateLimiter({
  ratePerSecond,
  burst,
  maxKeys = 100_000,
  now = Date.now,
}: CreateRateLimiterParameters): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>()
  const refill = (bucket: { tokens: number; at: number }, time: number) =>
    Math.min(burst, bucket.tokens + ((time - bucket.at) / 1000) * ratePerSecond)

  const evict = (time: number) => {
    for (const [key, bucket] of buckets) if (refill(bucket, time) >= burst) buckets.delete(key)
    for (const key of buckets.keys()) {
      if (buckets.size < maxKeys) break
      buckets.delete(key)
    }
  }

  return {
    take(key) {
      const time = now()
      let bucket = buckets.get(key)
      if (!bucket) {
        if (buckets.size >= maxKeys) evict(time)
        bucket = { tokens: burst, at: time }
        buckets.set(key, bucket)
      } else {
        bucket.tokens = refill(bucket, time)
        bucket.at = time
      }
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1
        return { ok: true }
      }
      return {
        ok: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond)),
      }
    },
    get size() {
      return buckets.size
    },
  }
}
