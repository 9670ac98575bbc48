/**
 * The Redis connection of an API replica (`PORTHOLE_REDIS_URL`): shared rate limits and caches.
 * Commands fail at once while Redis is away (no offline queue), so a request never waits on an
 * outage: callers fall back to this process's own limiter and cache, `/readyz` reports it, and
 * the client reconnects by itself.
 */
import { Redis } from 'ioredis'

/** Options of {@link openRedis}. */
export type OpenRedisParameters = {
  url: string
  /** Longest wait for one command, ms; default 500. */
  commandTimeoutMs?: number
  /** Called on connection errors (each is retried). */
  onError?: (error: Error) => void
}

/**
 * Connects to Redis and resolves once it answers, or after `readyTimeoutMs` (default 3000)
 * without it: the replica then starts degraded and joins Redis when it comes back.
 *
 * @example
 * const redis = await openRedis({ url: 'redis://127.0.0.1:6379' })
 * await redis.ping() // 'PONG'
 */
export async function openRedis({
  url,
  commandTimeoutMs = 500,
  onError = () => undefined,
  readyTimeoutMs = 3000,
}: OpenRedisParameters & { readyTimeoutMs?: number }): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2000,
    // Forever, at most a second apart: a Redis restart is joined within about a second.
    retryStrategy: (attempt) => Math.min(50 * attempt, 1000),
    lazyConnect: false,
  })
  redis.on('error', onError)
  if (redis.status !== 'ready')
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, readyTimeoutMs)
      redis.once('ready', done)
      function done() {
        clearTimeout(timer)
        redis.off('ready', done)
        resolve()
      }
    })
  return redis
}

/**
 * Whether Redis answers a PING within `timeoutMs` (default 500).
 *
 * @example
 * await redisAnswers(redis) // true
 */
export async function redisAnswers(redis: Redis, timeoutMs = 500): Promise<boolean> {
  if (redis.status !== 'ready') return false
  try {
    return (
      (await Promise.race([
        redis.ping(),
        new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref()),
      ])) === 'PONG'
    )
  } catch {
    return false
  }
}
