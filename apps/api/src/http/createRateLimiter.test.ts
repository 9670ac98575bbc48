import { describe, expect, test } from 'vitest'
import { createRateLimiter } from './createRateLimiter.js'

describe('createRateLimiter', () => {
  test('allows a burst, then refills at the rate', () => {
    let time = 0
    const limiter = createRateLimiter({ ratePerSecond: 2, burst: 3, now: () => time })
    expect([1, 2, 3].map(() => limiter.take('k').ok)).toEqual([true, true, true])
    expect(limiter.take('k')).toEqual({ ok: false, retryAfterSeconds: 1 })
    time = 499
    expect(limiter.take('k').ok).toBe(false)
    time = 1000
    expect(limiter.take('k').ok).toBe(true)
    expect(limiter.take('k').ok).toBe(true)
    expect(limiter.take('k').ok).toBe(false)
  })

  test('keeps one bucket per key', () => {
    const limiter = createRateLimiter({ ratePerSecond: 1, burst: 1, now: () => 0 })
    expect(limiter.take('a').ok).toBe(true)
    expect(limiter.take('a').ok).toBe(false)
    expect(limiter.take('b').ok).toBe(true)
  })

  test('Retry-After covers the wait for one token at a slow rate', () => {
    const limiter = createRateLimiter({ ratePerSecond: 0.1, burst: 1, now: () => 0 })
    limiter.take('k')
    expect(limiter.take('k')).toEqual({ ok: false, retryAfterSeconds: 10 })
  })

  test('bounds memory: full buckets are forgotten first, then the oldest', () => {
    let time = 0
    const limiter = createRateLimiter({ ratePerSecond: 1, burst: 1, maxKeys: 3, now: () => time })
    for (const key of ['a', 'b', 'c']) limiter.take(key)
    time = 10_000 // every bucket has refilled
    limiter.take('d')
    expect(limiter.size).toBe(1)
    for (const key of ['e', 'f', 'g', 'h']) limiter.take(key)
    expect(limiter.size).toBeLessThanOrEqual(3)
  })
})
