import { describe, expect, test } from 'vitest'
import { createRateLimiter } from './rateLimiter.js'

describe('sliding-window limiter (spec §9: 5 per 60 s)', () => {
  test.each<[string, number[], boolean[]]>([
    ['five pass, the sixth waits', [0, 1, 2, 3, 4, 5], [true, true, true, true, true, false]],
    [
      'a slot frees 60 s after the oldest',
      [0, 10, 20, 30, 40, 59_999, 60_000],
      [true, true, true, true, true, false, true],
    ],
    [
      'the window slides, it does not reset',
      [0, 30_000, 30_001, 30_002, 30_003, 60_000, 60_001],
      [true, true, true, true, true, true, false],
    ],
    [
      'refused takes do not count',
      [0, 0, 0, 0, 0, 0, 0, 60_000],
      [true, true, true, true, true, false, false, true],
    ],
    [
      'a clock that moves back does not reopen',
      [100_000, 100_000, 100_000, 100_000, 100_000, 50_000],
      [true, true, true, true, true, false],
    ],
  ])('%s', (_, times, expected) => {
    const limiter = createRateLimiter({ limit: 5, windowMs: 60_000 })
    expect(times.map((time) => limiter.take(time))).toEqual(expected)
  })
})
