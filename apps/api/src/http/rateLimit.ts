import type { MiddlewareHandler } from 'hono'
import type { Redis } from 'ioredis'
import type { RateLimitConfig } from '../config.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from './AppEnv.js'
import { clientIp } from './clientIp.js'
import { createRateLimiter } from './createRateLimiter.js'
import { createSharedRateLimiter } from './createSharedRateLimiter.js'
import { projectIdParam } from './projectIdParam.js'

/**
 * Limits requests per client IP and `projectId`; past the limit answers 429
 * `{ code: 'RATE_LIMITED', message: 'Rate Limited' }` with `Retry-After` (seconds).
 * Runs before the project lookup, so floods of unknown ids do not reach the database. The key is
 * the id as the lookup reads it; every missing or malformed id shares one bucket per client, so
 * respelling an id (`"shop "`, `"\tshop"`) earns no fresh bucket. The client is the socket's peer
 * or, behind `trustedProxies` proxies, the `X-Forwarded-For` entry our outermost proxy wrote.
 * With `shared.redis` the counts live in Redis, so every replica of a fleet limits a client as
 * one (see `createSharedRateLimiter`); `shared.onLimited` hears each refusal (metrics).
 *
 * @example
 * app.get('/getWallets', rateLimit({ ratePerSecond: 50, burst: 200 }, 0), handler)
 */
export function rateLimit(
  config: RateLimitConfig | false,
  trustedProxies: number,
  shared: RateLimitSharing = {},
): MiddlewareHandler<AppEnv> {
  if (!config) return async (_c, next) => next()
  const name = shared.name ?? 'api'
  const limiter = shared.redis
    ? createSharedRateLimiter({ ...config, redis: shared.redis, name })
    : createRateLimiter(config)
  return async (c, next) => {
    const param = projectIdParam(c)
    const project = param.status === 'valid' ? param.projectId : `(${param.status})`
    const result = await limiter.take(`${clientIp(c, trustedProxies)}|${project}`)
    if (!result.ok) {
      shared.onLimited?.(name)
      throw new ApiError('RATE_LIMITED', {
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      })
    }
    await next()
  }
}

/** Where a {@link rateLimit} keeps its counts and whom it tells about refusals. */
export type RateLimitSharing = {
  /** Redis shared by the fleet; default none (this process's own token buckets). */
  redis?: Redis | undefined
  /** The limiter's name in Redis keys and metrics; default `api`. */
  name?: string
  onLimited?: ((name: string) => void) | undefined
}
