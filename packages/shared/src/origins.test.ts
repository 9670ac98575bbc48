import { describe, expect, test } from 'vitest'
import {
  frameAncestors,
  isOriginAllowed,
  normaliseOriginPattern,
  originMatches,
} from './origins.js'

describe('allowed origins with wildcards', () => {
  test.each([
    ['http://localhost:4000', 'http://localhost:4000', true],
    ['http://localhost:4001', 'http://localhost:4000', false],
    ['https://localhost:4000', 'http://localhost:4000', false],
    ['http://localhost:5173', 'http://localhost:*', true],
    ['http://localhost', 'http://localhost:*', true],
    ['https://app.example.com', 'https://*.example.com', true],
    ['https://a.b.example.com', 'https://*.example.com', true],
    ['https://example.com', 'https://*.example.com', false],
    ['https://evil-example.com', 'https://*.example.com', false],
    ['https://example.com.evil.io', 'https://example.com', false],
    ['https://example.com', 'https://example.com:443', true],
    ['https://EXAMPLE.com', 'https://example.com', true],
    ['https://example.com/path', 'https://example.com', false],
    ['null', 'https://example.com', false],
  ])('%s against %s → %s', (origin, pattern, expected) => {
    expect(originMatches(origin, pattern)).toBe(expected)
  })

  test('a bare * is not a pattern and matches nothing', () => {
    expect(isOriginAllowed('https://example.com', ['*'])).toBe(false)
  })

  test('normalises patterns', () => {
    expect(normaliseOriginPattern('HTTPS://*.Example.com:443')).toBe('https://*.example.com')
  })

  test('builds frame-ancestors, fail-closed when empty', () => {
    expect(frameAncestors(['http://localhost:4000', 'https://*.example.com'])).toBe(
      'frame-ancestors http://localhost:4000 https://*.example.com',
    )
    expect(frameAncestors([])).toBe("frame-ancestors 'none'")
    expect(frameAncestors(['*', 'javascript:alert(1)'])).toBe("frame-ancestors 'none'")
  })
})
