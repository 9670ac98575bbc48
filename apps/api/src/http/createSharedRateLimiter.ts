import type { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'
import type { RateLimitConfig } from '../config.js'
import type { RateLimitResult } from './createRateLimiter.js'

/** Options of {@link createSharedRateLimiter}. */
export type CreateSharedRateLimiterParameters = RateLimitConfig & {
  redis: Redis
  /** Names the limiter's keys in Redis (`porthole:rl:<name>:<key>`). */
  name: string
}

/** A limiter every API replica shares. */
export type SharedRateLimiter = { take(key: string): Promise<RateLimitResult> }

/**
 * A rate limiter kept in Redis (rate-limiter-flexible), so a client spreading requests over
 * several replicas is limited as one. It counts fixed windows of `burst` requests per
 * `burst / ratePerSecond` seconds: the token bucket's average rate and burst. While Redis is
 * away each replica limits by itself with the same numbers (never unlimited, never failing).
 *
 * @example
 * const limiter = createSharedRateLimiter({ redis, name: 'api', ratePerSecond: 50, burst: 200 })
 * await limiter.take('203.0.113.7|shop') // { ok: true }
 */
export function createSharedRateLimiter({
  redis,
  name,
  ratePerSecond,
  burst,
}: CreateSharedRateLimiterParameters): SharedRateLimiter {
  const points = Math.max(1, Math.floor(burst))
  const duration = Math.max(1, Math.round(burst / ratePerSecond))
  const keyPrefix = `porthole:rl:${name}`
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
  })
  return {
    async take(key) {
      try {
        await limiter.consume(key)
        return { ok: true }
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) }
      }
    },
  }
}
