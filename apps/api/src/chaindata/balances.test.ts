import { expect, test } from 'vitest'
import { memoryStore, type SharedStore } from '../fleet/sharedStore.js'
import { type ChainBalances, chainBalancesCodec, createTtlCache } from './balances.js'

/** A load whose answers the test gives one by one (before or after the cache asks). */
function gatedLoads() {
  type Outcome = { value: number } | { error: Error }
  const outcomes: Outcome[] = []
  const waiting: ((outcome: Outcome) => void)[] = []
  let loads = 0
  const settle = (outcome: Outcome) => {
    const waiter = waiting.shift()
    if (waiter) waiter(outcome)
    else outcomes.push(outcome)
  }
  return {
    load: () => {
      loads++
      return new Promise<number>((resolve, reject) => {
        const answer = (outcome: Outcome) =>
          'value' in outcome ? resolve(outcome.value) : reject(outcome.error)
        const ready = outcomes.shift()
        if (ready) answer(ready)
        else waiting.push(answer)
      })
    },
    release: (value: number) => settle({ value }),
    fail: (error: Error) => settle({ error }),
    get loads() {
      return loads
    },
  }
}

/** Whether `promise` settled by the time queued callbacks ran. */
async function settledNow(promise: Promise<unknown>): Promise<boolean> {
  let settled = false
  promise.then(
    () => (settled = true),
    () => (settled = true),
  )
  await new Promise((resolve) => setTimeout(resolve, 0))
  return settled
}

test('the TTL cache reuses a value while fresh, reloads on force or after the TTL, and merges concurrent loads', async () => {
  let now = 0
  let loads = 0
  const cache = createTtlCache<number>({ ttlMs: 5000, now: () => now })
  const load = async () => ++loads
  const [a, b] = await Promise.all([cache.get('k', load, false), cache.get('k', load, false)])
  expect([a, b, loads]).toEqual([1, 1, 1])
  now = 2499
  expect(await cache.get('k', load, false)).toBe(1)
  expect(loads).toBe(1)
  expect(await cache.get('k', load, true)).toBe(2)
  now = 2499 + 5000
  expect(await cache.get('k', load, false)).toBe(3)
  expect(await cache.get('other', load, false)).toBe(4)
})

test('past half its TTL a value is answered at once while one refresh runs behind it; never past the TTL', async () => {
  let now = 0
  const gate = gatedLoads()
  const cache = createTtlCache<number>({ ttlMs: 5000, now: () => now })
  const first = cache.get('k', gate.load, false)
  gate.release(1)
  expect(await first).toBe(1)
  now = 3000
  // Stale but within the TTL: answered without waiting, one load started behind it.
  const during = [cache.get('k', gate.load, false), cache.get('k', gate.load, false)]
  expect(await settledNow(Promise.all(during))).toBe(true)
  expect(await Promise.all(during)).toEqual([1, 1])
  expect(gate.loads).toBe(2)
  gate.release(2)
  await new Promise((resolve) => setTimeout(resolve, 0))
  expect(await cache.get('k', gate.load, false)).toBe(2)
  // Nobody asked for 5 s: the value (loaded at 3000) is past its TTL, so the request waits.
  now = 3000 + 5000
  const late = cache.get('k', gate.load, false)
  expect(await settledNow(late)).toBe(false)
  gate.release(3)
  expect(await late).toBe(3)
})

test('a refresh that fails keeps the old value until its TTL, is not retried at once, and then the error shows', async () => {
  let now = 0
  const gate = gatedLoads()
  const cache = createTtlCache<number>({ ttlMs: 5000, now: () => now })
  const first = cache.get('k', gate.load, false)
  gate.release(1)
  await first
  now = 3000
  expect(await cache.get('k', gate.load, false)).toBe(1)
  gate.fail(new Error('upstream down'))
  await new Promise((resolve) => setTimeout(resolve, 0))
  now = 3500
  expect(await cache.get('k', gate.load, false)).toBe(1)
  expect(gate.loads).toBe(2)
  now = 4100
  expect(await cache.get('k', gate.load, false)).toBe(1)
  expect(gate.loads).toBe(3)
  gate.fail(new Error('upstream down'))
  now = 5000
  const expired = cache.get('k', gate.load, false)
  gate.fail(new Error('upstream down'))
  await expect(expired).rejects.toThrow('upstream down')
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
  expect(loads).toBe(2)
  // Past half the TTL one replica refreshes behind its answer; the other takes that value.
  now = 2800
  expect(await b.get('k', load, false)).toBe(2)
  await new Promise((resolve) => setTimeout(resolve, 0))
  expect(loads).toBe(3)
  now = 2900
  expect(await a.get('k', load, false)).toBe(3)
  expect(loads).toBe(3)
})

test('a value in the shared store carries when it was loaded: a replica never answers it past the TTL', async () => {
  let now = 0
  const store = memoryStore(() => now)
  const codec = { encode: (value: number) => String(value), decode: Number }
  const replica = () =>
    createTtlCache<number>({ ttlMs: 5000, now: () => now, shared: { store, ...codec } })
  let loads = 0
  const load = async () => ++loads
  expect(await replica().get('k', load, false)).toBe(1)
  // Another replica's first request at 4900 reads it (100 ms of life left)…
  now = 4900
  const late = replica()
  expect(await late.get('k', load, false)).toBe(1)
  await new Promise((resolve) => setTimeout(resolve, 0))
  // …and refreshes it behind the answer: at 5000 the answer is the new load, not the old value.
  now = 5000
  expect(await late.get('k', load, false)).toBe(2)
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
