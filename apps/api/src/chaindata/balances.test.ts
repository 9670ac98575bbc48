import { expect, test } from 'vitest'
import { memoryStore, type SharedStore } from '../fleet/sharedStore.js'
import { type ChainBalances, chainBalancesCodec, createTtlCache } from './balances.js'

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

test('replicas share loads through the shared store; a forced refresh on one reaches the others', async () => {
  let now = 0
  const store = memoryStore(() => now)
  const codec = { encode: (value: number) => String(value), decode: Number }
  const replica = () =>
    createTtlCache<number>({ ttlMs: 5000, now: () => now, shared: { store, ...codec } })
  const [a, b] = [replica(), replica()]
  let loads = 0
  const load = async () => ++loads
  expect(await a.get('k', load, false)).toBe(1)
  expect(await b.get('k', load, false)).toBe(1)
  expect(loads).toBe(1)
  expect(await a.get('k', load, true)).toBe(2)
  now = 300 // past the 250 ms local reuse
  expect(await b.get('k', load, false)).toBe(2)
  now = 5400
  expect(await b.get('k', load, false)).toBe(3)
})

test('a failing shared store counts as a miss, never as a failure', async () => {
  const broken: SharedStore = {
    get: async () => Promise.reject(new Error('ECONNREFUSED')),
    set: async () => Promise.reject(new Error('ECONNREFUSED')),
    delete: async () => Promise.reject(new Error('ECONNREFUSED')),
  }
  const cache = createTtlCache<number>({
    ttlMs: 5000,
    shared: { store: broken, encode: String, decode: Number },
  })
  expect(await cache.get('k', async () => 5, false)).toBe(5)
  await cache.delete('k')
})

test('balances survive the trip through the shared store with their exact amounts', () => {
  const balances: ChainBalances = {
    native: 123456789012345678901234567890n,
    tokens: [
      {
        token: { address: '0xabc', name: 'Porthole USD', symbol: 'pUSD', decimals: 6 },
        amount: 2n ** 255n,
      },
    ],
  }
  expect(chainBalancesCodec.decode(chainBalancesCodec.encode(balances))).toEqual(balances)
})
