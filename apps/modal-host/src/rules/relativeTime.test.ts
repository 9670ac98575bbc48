import { describe, expect, test } from 'vitest'
import { relativeTime, relativeTimeUnit } from './relativeTime.js'

const now = Date.parse('2024-06-15T12:00:00Z')
const s = 1000
const min = 60 * s
const h = 60 * min
const d = 24 * h

describe('relative-time thresholds (spec §9)', () => {
  test.each<[number, string]>([
    [0, 'just now'],
    [400, 'just now'],
    [1 * s, '1 second ago'],
    [12 * s, '12 seconds ago'],
    [44 * s, '44 seconds ago'],
    [45 * s, '1 minute ago'],
    [89 * s, '1 minute ago'],
    [90 * s, '2 minutes ago'],
    [44 * min, '44 minutes ago'],
    [45 * min, '1 hour ago'],
    [89 * min, '1 hour ago'],
    [90 * min, '2 hours ago'],
    [3 * h, '3 hours ago'],
    [21 * h, '21 hours ago'],
    [22 * h, '1 day ago'],
    [35 * h, '1 day ago'],
    [36 * h, '2 days ago'],
    [25 * d, '25 days ago'],
    [26 * d, '1 month ago'],
    [45 * d, '1 month ago'],
    [46 * d, '2 months ago'],
    [300 * d, '10 months ago'],
    [320 * d, '1 year ago'],
    [17 * 30.44 * d, '1 year ago'],
    [18 * 30.44 * d, '2 years ago'],
    [3 * 365.25 * d, '3 years ago'],
  ])('%i ms in the past → %s', (elapsed, expected) => {
    expect(relativeTime({ time: now - elapsed, now })).toBe(expected)
  })

  test.each<[number, string]>([
    [12 * s, 'in 12 seconds'],
    [60 * s, 'in 1 minute'],
    [5 * min, 'in 5 minutes'],
    [3 * h, 'in 3 hours'],
    [2 * d, 'in 2 days'],
    [60 * d, 'in 2 months'],
    [400 * d, 'in 1 year'],
  ])('%i ms in the future → %s', (ahead, expected) => {
    expect(relativeTime({ time: now + ahead, now })).toBe(expected)
  })

  test.each<[string, number, string]>([
    ['de', -3 * h, 'vor 3 Stunden'],
    ['de', 2 * d, 'in 2 Tagen'],
    ['ja', -3 * h, '3 時間前'],
    ['fr', -1 * min, 'il y a 1 minute'],
    ['ar', -2 * d, 'قبل يومين'],
  ])('in %s, %i ms from now → %s', (locale, offset, expected) => {
    expect(relativeTime({ time: now + offset, now, locale })).toBe(expected)
  })

  test('accepts ISO texts and Dates', () => {
    expect(relativeTime({ time: '2024-06-15T09:00:00Z', now: new Date(now) })).toBe('3 hours ago')
    expect(relativeTime({ time: new Date(now - 2 * d), now })).toBe('2 days ago')
  })

  test('a date that does not parse gives an empty label', () => {
    expect(relativeTime({ time: 'yesterday-ish', now })).toBe('')
    expect(relativeTimeUnit({ time: 'yesterday-ish', now })).toBeUndefined()
  })

  test('reports the unit and count for other formatters', () => {
    expect(relativeTimeUnit({ time: now - 90 * s, now })).toEqual({
      unit: 'minute',
      value: 2,
      future: false,
    })
    expect(relativeTimeUnit({ time: now + 3 * h, now })).toEqual({
      unit: 'hour',
      value: 3,
      future: true,
    })
  })
})
