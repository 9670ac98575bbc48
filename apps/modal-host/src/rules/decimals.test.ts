import { describe, expect, test } from 'vitest'
import {
  decimalSeparatorOf,
  formatDecimal,
  parseDecimal,
  readTypedAmount,
  typedAmountOf,
} from './decimals.js'

describe('parseDecimal', () => {
  test.each<[string | number, number, bigint | undefined]>([
    ['1.5', 6, 1_500_000n],
    ['1', 18, 10n ** 18n],
    ['0.000001', 6, 1n],
    ['0.0000019', 6, 1n],
    ['.5', 2, 50n],
    ['1.', 2, 100n],
    ['  2.25 ', 2, 225n],
    ['-0.25', 2, -25n],
    ['+3', 0, 3n],
    ['1e-7', 8, 10n],
    ['1.5E3', 0, 1500n],
    ['123456789012345678901234567890.123', 3, 123456789012345678901234567890123n],
    ['999.999999', 3, 999_999n],
    ['12345.678', -2, 123n],
    [0.1, 2, 10n],
    [1.005, 2, 100n],
    [1.5e21, 0, 1_500_000_000_000_000_000_000n],
    [1e-7, 9, 100n],
    ['', 2, undefined],
    ['.', 2, undefined],
    ['-', 2, undefined],
    ['abc', 2, undefined],
    ['1,5', 2, undefined],
    ['1.2.3', 2, undefined],
    ['0x10', 2, undefined],
    [Number.NaN, 2, undefined],
    [Number.POSITIVE_INFINITY, 2, undefined],
  ])('parseDecimal(%j, %i) = %s', (value, decimals, expected) => {
    expect(parseDecimal({ value, decimals })).toBe(expected)
  })
})

describe('formatDecimal rounds toward zero without float surprises', () => {
  test.each<[string | number, number, string]>([
    ['1.5', 3, '1.500'],
    ['0', 3, '0.000'],
    ['0.9999', 3, '0.999'],
    ['1234567.891', 3, '1,234,567.891'],
    ['-1.23456', 3, '-1.234'],
    ['-0.0001', 3, '0.000'],
    [1.005, 2, '1.00'],
    [0.1 + 0.2, 2, '0.30'],
    [19.99, 2, '19.99'],
    [1234.5, 2, '1,234.50'],
    ['1e-7', 3, '0.000'],
    ['not a number', 3, '—'],
  ])('formatDecimal(%j, %i) = %s', (value, digits, expected) => {
    expect(formatDecimal({ value, digits })).toBe(expected)
  })
})

describe('amounts typed in a locale', () => {
  test('the locales that write 1,5 have a decimal comma; the others a point', () => {
    const separators = ['en', 'de', 'es', 'fr', 'pt-BR', 'ja', 'ko', 'zh-CN', 'tr', 'ar'].map(
      (locale) => `${locale} ${decimalSeparatorOf(locale)}`,
    )
    expect(separators).toEqual([
      'en .',
      'de ,',
      'es ,',
      'fr ,',
      'pt-BR ,',
      'ja .',
      'ko .',
      'zh-CN .',
      'tr ,',
      'ar .',
    ])
  })

  test.each<[string, string, string | undefined]>([
    ['1,5', 'de', '1.5'],
    ['1,5', 'tr', '1.5'],
    [' 12,25 ', 'pt-BR', '12.25'],
    ['1,5', 'en', undefined],
    ['1,000', 'en', undefined],
    ['1.000', 'de', undefined],
    ['1.5', 'fr', undefined],
    ['1.5', 'en', '1.5'],
    ['١٢٫٥', 'ar', '12.5'],
    ['abc', 'de', 'abc'],
    ['', 'de', ''],
  ])('readTypedAmount(%j, %s) → %j', (text, locale, expected) => {
    expect(readTypedAmount(text, locale)).toBe(expected)
  })

  test('what Max writes reads back as the same amount', () => {
    for (const locale of ['en', 'de', 'fr', 'ja', 'ar'])
      expect(readTypedAmount(typedAmountOf('1234.5678', locale), locale)).toBe('1234.5678')
    expect(typedAmountOf('1234.5678', 'de')).toBe('1234,5678')
    expect(typedAmountOf('1234', 'de')).toBe('1234')
  })
})
