import { describe, expect, test } from 'vitest'
import { cutDisplay, formatAmount, truncateAddress } from './format.js'

describe('display rules', () => {
  test('addresses keep the first 4 and last 6 characters', () => {
    expect(truncateAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe('0xf3…b92266')
    expect(truncateAddress('short')).toBe('short')
  })

  test.each([
    [1234567890000000000n, 18, 3, '1.234'],
    [1999999999999999999n, 18, 3, '1.999'],
    [0n, 18, 3, '0.000'],
    [1234567891234n, 6, 2, '1,234,567.89'],
    [-1500000n, 6, 3, '-1.500'],
    [10n ** 22n, 18, 3, '10,000.000'],
  ])('formatAmount(%s, %i, %i) = %s', (value, decimals, digits, expected) => {
    expect(formatAmount(value, decimals, digits)).toBe(expected)
  })

  test.each([
    ['en', 1234567891234n, 6, 2, '1,234,567.89'],
    ['de', 1234567891234n, 6, 2, '1.234.567,89'],
    ['fr', 1234567891234n, 6, 2, '1\u202f234\u202f567,89'],
    ['ja', -1500000n, 6, 3, '-1.500'],
    // Exact beyond a float's 15-16 digits: the decimal text is formatted, not a number.
    ['de', 123456789012345678901234n, 6, 3, '123.456.789.012.345.678,901'],
  ])('in %s, formatAmount(%s, %i, %i) = %s', (locale, value, decimals, digits, expected) => {
    expect(formatAmount(value, decimals, digits, locale)).toBe(expected)
  })

  test('a display longer than 30 characters is cut with an ellipsis', () => {
    expect(cutDisplay('a-very-long-address-for-testing@example.com')).toBe(
      'a-very-long-address-for-testin…',
    )
    expect(cutDisplay('exactly-thirty-characters-long')).toBe('exactly-thirty-characters-long')
  })
})
