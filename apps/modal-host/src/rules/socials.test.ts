import { describe, expect, test } from 'vitest'
import {
  authDisplayName,
  DEFAULT_SOCIALS,
  detectPlatform,
  socialName,
  visibleSocials,
} from './socials.js'

const all = ['google', 'x', 'farcaster', 'discord', 'apple', 'github', 'facebook']

describe('Telegram social filtering (spec §5)', () => {
  test.each([
    [{ telegram: false, os: 'ios' as const }, all],
    [
      { telegram: true, os: 'ios' as const },
      ['x', 'farcaster', 'discord', 'apple', 'github', 'facebook'],
    ],
    [
      { telegram: true, os: 'mac' as const },
      ['google', 'farcaster', 'discord', 'apple', 'github', 'facebook'],
    ],
    [
      { telegram: true, os: 'android' as const },
      ['google', 'farcaster', 'discord', 'apple', 'github'],
    ],
    [{ telegram: true, os: 'other' as const }, all],
  ])('%j', (platform, expected) => {
    expect(visibleSocials(all, platform)).toEqual(expected)
  })

  test('the default list is the spec’s, farcaster third', () => {
    expect(DEFAULT_SOCIALS).toEqual(all)
    expect(socialName('farcaster')).toBe('Farcaster')
  })

  test('unknown providers are dropped', () => {
    expect(visibleSocials(['google', 'myspace'], { telegram: false, os: 'other' })).toEqual([
      'google',
    ])
  })

  test('platform detection', () => {
    expect(detectPlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', true)).toEqual({
      telegram: true,
      os: 'ios',
    })
    expect(detectPlatform('Mozilla/5.0 (Linux; Android 14)', false).os).toBe('android')
    expect(detectPlatform('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0)', false).os).toBe('mac')
  })
})

describe('auth display name (spec §5)', () => {
  test.each([
    [{ socialProvider: 'discord' as const, userName: 'ada0', email: null }, 'ada'],
    [{ socialProvider: 'discord' as const, userName: 'ada1', email: null }, 'ada1'],
    [{ socialProvider: 'github' as const, userName: 'ada0', email: null }, 'ada0'],
    [{ socialProvider: 'farcaster' as const, userName: 'dwr0', email: null }, 'dwr0'],
    [{ socialProvider: null, userName: null, email: 'short@example.com' }, 'short@example.com'],
    [
      {
        socialProvider: null,
        userName: null,
        email: 'a-very-long-address-for-testing@example.com',
      },
      'a-very-long-address-for-testin…',
    ],
    [{ socialProvider: null, userName: null, email: null }, null],
  ])('%j → %s', (user, expected) => {
    expect(authDisplayName(user)).toBe(expected)
  })
})
