import { expect, test } from 'vitest'
import { createTtlCache } from './balances.js'

test('the TTL cache reuses a value while fresh, reloads on force or after the TTL, and merges concurrent loads', async () => {
  let now = 0
  let loads = 0
  const cache = createTtlCache<number>({ ttlMs: 5000, now: () => now })
  const load = async () => ++loads
  const [a, b] = await Promise.all([cache.get('k', load, false), cache.get('k', load, false)])
  expect([a, b, loads]).toEqual([1, 1, 1])
  now = 4999
  expect(await cache.get('k', load, false)).toBe(1)
  expect(await cache.get('k', load, true)).toBe(2)
  now = 4999 + 5000
  expect(await cache.get('k', load, false)).toBe(3)
  expect(await cache.get('other', load, false)).toBe(4)
})

test('a failed load is not cached, and the cache is bounded', async () => {
  const cache = createTtlCache<number>({ ttlMs: 60_000, maxEntries: 2 })
  await expect(
    cache.get('k', async () => Promise.reject(new Error('down')), false),
  ).rejects.toThrow('down')
  expect(await cache.get('k', async () => 7, false)).toBe(7)
  await cache.get('a', async () => 1, false)
  await cache.get('b', async () => 2, false)
  // 'k' was the oldest: it is gone.
  expect(await cache.get('k', async () => 8, false)).toBe(8)
})
