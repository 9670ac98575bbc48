import { InvalidOriginPatternError } from '@porthole/shared'
import { describe, expect, test } from 'vitest'
import { normaliseAllowedOriginPattern, PublicSuffixPatternError } from './allowedOriginPattern.js'

describe('normaliseAllowedOriginPattern', () => {
  test.each([
    'https://*.com',
    'https://*.co.uk',
    'http://*.github.io',
    'https://*.vercel.app:*',
    'https://*.COM',
    'https://*.example', // a single label: an unlisted top-level domain
  ])('refuses a wildcard over the public suffix of %s', (pattern) => {
    expect(() => normaliseAllowedOriginPattern(pattern)).toThrow(PublicSuffixPatternError)
    expect(() => normaliseAllowedOriginPattern(pattern)).toThrow(InvalidOriginPatternError)
  })

  test.each([
    ['https://*.example.com', 'https://*.example.com'],
    ['https://*.shop.co.uk', 'https://*.shop.co.uk'],
    ['https://*.alice.github.io', 'https://*.alice.github.io'],
    ['http://*.localhost:*', 'http://*.localhost:*'],
    ['https://co.uk', 'https://co.uk'], // no wildcard: one site
    ['HTTP://localhost:*', 'http://localhost:*'],
  ])('keeps %s', (pattern, normalised) => {
    expect(normaliseAllowedOriginPattern(pattern)).toBe(normalised)
  })
})
