/**
 * A key-value store with expiry that every API replica sees: Redis in a fleet. Caches built on it
 * (`createTtlCache`'s `shared` option) treat every failure as a miss, so a Redis outage slows
 * answers down but never fails them.
 */
import type { Redis } from 'ioredis'

/** Strings by key, each with its own lifetime. */
export type SharedStore = {
  /** The value, or null when absent or expired. */
  get(key: string): Promise<string | null>
  set(key: string, value: string, ttlMs: number): Promise<void>
  delete(key: string): Promise<void>
}

/**
 * A {@link SharedStore} in Redis, every key under `prefix`.
 *
 * @example
 * const store = redisStore(redis, 'porthole:balance:')
 * await store.set('eip155:1|0xabc', '{"native":"1"}', 5000)
 */
export function redisStore(redis: Redis, prefix: string): SharedStore {
  return {
    get: (key) => redis.get(prefix + key),
    async set(key, value, ttlMs) {
      await redis.set(prefix + key, value, 'PX', Math.max(1, Math.round(ttlMs)))
    },
    async delete(key) {
      await redis.del(prefix + key)
    },
  }
}

/**
 * A {@link SharedStore} in this process's memory, for tests and for code that wants the same
 * interface without Redis.
 *
 * @example
 * const store = memoryStore()
 */
export function memoryStore(now: () => number = Date.now): SharedStore {
  const entries = new Map<string, { value: string; until: number }>()
  return {
    async get(key) {
      const entry = entries.get(key)
      if (!entry) return null
      if (entry.until <= now()) {
        entries.delete(key)
        return null
      }
      return entry.value
    },
    async set(key, value, ttlMs) {
      entries.set(key, { value, until: now() + ttlMs })
    },
    async delete(key) {
      entries.delete(key)
    },
  }
}
