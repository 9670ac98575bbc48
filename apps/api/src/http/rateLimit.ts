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
 * Runs before the project lookup, so floods of unknown ids do not reach the database. A project
 * the API has found (`shared.isKnownProject`) has a bucket of its own per client; every other id
 * (not found yet, unknown, missing or malformed) shares one bucket per client, so inventing ids
 * (`made-up-1`, `made-up-2`…) or respelling one (`"shop "`, `"\tshop"`) earns no fresh bucket
 * and at most that bucket's worth of lookups. The client is the socket's peer
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
  const refuse = (retryAfterSeconds: number) => {
    shared.onLimited?.(name)
    return new ApiError('RATE_LIMITED', {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    })
  }
  return async (c, next) => {
    const param = projectIdParam(c)
    const client = clientIp(c, trustedProxies)
    if (param.status !== 'valid') {
      const result = await limiter.take(`${client}|(${param.status})`)
      if (!result.ok) throw refuse(result.retryAfterSeconds)
    } else {
      // An id nobody has found yet passes the client's shared bucket first, so invented ids
      // cannot each bring a full bucket (and a lookup) of their own.
      if (shared.isKnownProject && !shared.isKnownProject(param.projectId)) {
        const gate = await limiter.take(`${client}|(unverified)`)
        if (!gate.ok) throw refuse(gate.retryAfterSeconds)
      }
      const result = await limiter.take(`${client}|${param.projectId}`)
      if (!result.ok) throw refuse(result.retryAfterSeconds)
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
  /**
   * Whether a project id is one the API has found (the project cache's `isKnown`); others share
   * one bucket per client. Default: every well-formed id has its own bucket.
   */
  isKnownProject?: ((projectId: string) => boolean) | undefined
}
