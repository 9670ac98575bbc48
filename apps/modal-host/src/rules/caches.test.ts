import { describe, expect, test } from 'vitest'
import {
  balanceFetchDecision,
  type CacheKind,
  cacheKey,
  canRetry,
  isFresh,
  readCache,
  writeCache,
} from './caches.js'

const T0 = 1_700_000_000_000

describe('cache durations (spec §9)', () => {
  test.each<[CacheKind, number, boolean]>([
    ['balance', 0, true],
    ['balance', 29_999, true],
    ['balance', 30_000, false],
    ['nativeBalance', 29_999, true],
    ['nativeBalance', 30_000, false],
    ['identity', 30_000, true],
    ['identity', 299_999, true],
    ['identity', 300_000, false],
    ['identity', -1, false],
  ])('%s stored %i ms ago is fresh: %s', (kind, age, fresh) => {
    expect(isFresh({ entry: { value: 1, timestamp: T0 }, kind, now: T0 + age })).toBe(fresh)
  })

  test('read gives the value while fresh, then nothing', () => {
    const cache = writeCache({
      cache: {},
      key: 'k',
      value: { name: 'alice.eth' },
      kind: 'identity',
      now: T0,
    })
    expect(readCache({ cache, key: 'k', kind: 'identity', now: T0 + 60_000 })).toEqual({
      name: 'alice.eth',
    })
    expect(readCache({ cache, key: 'k', kind: 'identity', now: T0 + 300_000 })).toBeUndefined()
    expect(readCache({ cache, key: 'other', kind: 'identity', now: T0 })).toBeUndefined()
  })

  test('write drops expired entries and leaves the old cache as it was', () => {
    const old = writeCache({ cache: {}, key: 'a', value: 1, kind: 'balance', now: T0 })
    const mid = writeCache({ cache: old, key: 'b', value: 2, kind: 'balance', now: T0 + 20_000 })
    const late = writeCache({ cache: mid, key: 'c', value: 3, kind: 'balance', now: T0 + 40_000 })
    expect(Object.keys(old)).toEqual(['a'])
    expect(Object.keys(mid)).toEqual(['a', 'b'])
    expect(Object.keys(late)).toEqual(['b', 'c'])
  })

  test('EVM keys ignore address case; Solana keys keep it', () => {
    expect(cacheKey({ caipNetworkId: 'eip155:1', address: '0xABCdef' })).toBe('eip155:1:0xabcdef')
    expect(cacheKey({ caipNetworkId: 'solana:5eyk', address: 'AbC' })).toBe('solana:5eyk:AbC')
  })
})

describe('balance retry gap (spec §5, §9)', () => {
  test.each<[number | null, number, boolean]>([
    [null, T0, true],
    [T0, T0, false],
    [T0, T0 + 29_999, false],
    [T0, T0 + 30_000, true],
    [T0 + 60_000, T0, true],
  ])('last failure %s, now %s → may retry: %s', (lastFailure, now, expected) => {
    expect(canRetry({ lastFailure, now })).toBe(expected)
  })

  const entry = { value: ['ETH'], timestamp: T0 }

  test.each<[string, Parameters<typeof balanceFetchDecision>[0], unknown]>([
    [
      'fresh cache',
      { entry, lastFailure: null, now: T0 + 10_000 },
      { action: 'cache', value: ['ETH'] },
    ],
    ['stale cache', { entry, lastFailure: null, now: T0 + 30_000 }, { action: 'fetch' }],
    ['no cache', { entry: undefined, lastFailure: null, now: T0 }, { action: 'fetch' }],
    ['forced', { entry, lastFailure: null, forceUpdate: true, now: T0 + 1 }, { action: 'fetch' }],
    [
      'failed 10 s ago',
      { entry: undefined, lastFailure: T0, now: T0 + 10_000 },
      { action: 'wait', retryAt: T0 + 30_000 },
    ],
    [
      'failed 10 s ago, forced',
      { entry: undefined, lastFailure: T0, forceUpdate: true, now: T0 + 10_000 },
      { action: 'wait', retryAt: T0 + 30_000 },
    ],
    [
      'failed 30 s ago',
      { entry: undefined, lastFailure: T0, now: T0 + 30_000 },
      { action: 'fetch' },
    ],
    [
      'fresh cache after a failure',
      { entry: { value: ['ETH'], timestamp: T0 + 5_000 }, lastFailure: T0, now: T0 + 10_000 },
      { action: 'cache', value: ['ETH'] },
    ],
  ])('%s', (_, parameters, expected) => {
    expect(balanceFetchDecision(parameters)).toEqual(expected)
  })
})
