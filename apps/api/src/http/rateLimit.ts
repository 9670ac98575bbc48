import type { MiddlewareHandler } from 'hono'
import type { RateLimitConfig } from '../config.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from './AppEnv.js'
import { clientIp } from './clientIp.js'
import { createRateLimiter } from './createRateLimiter.js'

/**
 * Limits requests per client IP and `projectId`; past the limit answers 429
 * `{ code: 'RATE_LIMITED', message: 'Rate Limited' }` with `Retry-After` (seconds).
 * Runs before the project lookup, so floods of unknown ids do not reach the database.
 *
 * @example
 * app.get('/getWallets', rateLimit({ ratePerSecond: 50, burst: 200 }, false), handler)
 */
export function rateLimit(
  config: RateLimitConfig | false,
  trustProxy: boolean,
): MiddlewareHandler<AppEnv> {
  if (!config) return async (_c, next) => next()
  const limiter = createRateLimiter(config)
  return async (c, next) => {
    const result = limiter.take(`${clientIp(c, trustProxy)}|${c.req.query('projectId') ?? ''}`)
    if (!result.ok)
      throw new ApiError('RATE_LIMITED', {
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      })
    await next()
  }
}
