/**
 * Exact decimal arithmetic for display (spec §9 "Display"): the blockchain data service gives
 * amounts as decimal strings ('1.5') and values as numbers; both are turned into scaled bigints
 * so that no float rounding shows up on screen ('1.005' stays 1.005, not 1.00499…).
 */
import { formatAmount } from '@porthole/shared'
import { locale } from '../i18n/en.js'

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i

/** Parameters of {@link parseDecimal}: the text or number, and the scale to express it in. */
export type ParseDecimalParameters = { value: string | number; decimals: number }

/** The integer `value × 10^decimals` rounded toward zero, or `undefined` for a non-number. */
export type ParseDecimalReturnType = bigint | undefined

/**
 * Parses a decimal string ('1.5', '-0.25', '.5', '1e-7') or a finite number into an integer
 * scaled by `decimals`, rounding toward zero (a balance is never shown larger than it is).
 * Anything else (empty, 'abc', NaN, Infinity, '1,5') gives `undefined`.
 *
 * @example
 * parseDecimal({ value: '1.5', decimals: 6 }) // 1500000n
 * parseDecimal({ value: 0.1, decimals: 2 }) // 10n
 */
export function parseDecimal(parameters: ParseDecimalParameters): ParseDecimalReturnType {
  const { value, decimals } = parameters
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined
  // String(number) is the shortest text that reads back as the same double: 0.1 → '0.1'.
  const match = DECIMAL.exec(String(value).trim())
  if (!match) return undefined
  const [, sign, whole = '', fraction = '', exponent] = match
  if (!whole && !fraction) return undefined
  const shift = decimals + (exponent ? Number(exponent) : 0)
  if (!Number.isSafeInteger(shift) || Math.abs(shift) > 1000) return undefined
  const digits = `${whole}${fraction}`
  // digits × 10^(shift - fraction.length)
  const scale = shift - fraction.length
  const scaled =
    scale >= 0
      ? BigInt(digits || '0') * 10n ** BigInt(scale)
      : BigInt(digits.slice(0, Math.max(0, digits.length + scale)) || '0')
  return sign === '-' ? -scaled : scaled
}

/** Parameters of {@link formatDecimal}. */
export type FormatDecimalParameters = {
  value: string | number
  /** Fraction digits shown (3 for balances and quantities, 2 for currency). */
  digits: number
}

/**
 * Formats a decimal string or number with exactly `digits` fraction digits, rounding toward
 * zero, in the chosen locale's digits and separators (English: thousands grouped with commas).
 * A value that is not a number shows as '—'.
 *
 * @example
 * formatDecimal({ value: '1.5', digits: 3 }) // '1.500'
 * formatDecimal({ value: 1234.567, digits: 2 }) // '1,234.56'; '1.234,56' in German
 */
export function formatDecimal(parameters: FormatDecimalParameters): string {
  const { value, digits } = parameters
  const scaled = parseDecimal({ value, decimals: digits })
  return scaled === undefined ? '—' : formatAmount(scaled, digits, digits, locale())
}

/**
 * A decimal text ('1234.5', as the swap rules write amounts) in the chosen locale's digits and
 * decimal separator, with the fraction digits it has and no grouping (as the swap view has always
 * shown them); a text that is not a decimal stays as it is.
 *
 * @example
 * localizeDecimal('2990.125') // '2990.125'; '2990,125' in German
 */
export function localizeDecimal(text: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text
  const digits = text.split('.')[1]?.length ?? 0
  return new Intl.NumberFormat(locale(), {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(text as `${number}`)
}

/**
 * The decimal separator a locale writes numbers with: ',' in German, Spanish, French, Brazilian
 * Portuguese and Turkish ('1,5'), '.' in English, Japanese, Korean, Chinese and Arabic.
 *
 * @example
 * decimalSeparatorOf('de') // ','
 * decimalSeparatorOf('en') // '.'
 */
export function decimalSeparatorOf(locale: string): '.' | ',' {
  const separator = new Intl.NumberFormat(locale, { numberingSystem: 'latn' })
    .formatToParts(1.5)
    .find((part) => part.type === 'decimal')?.value
  return separator === ',' ? ',' : '.'
}

/** Arabic-Indic and Eastern Arabic-Indic digits, which read as 0–9. */
const ARABIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g

/**
 * An amount as the user typed it in their locale, as a plain decimal with a dot ('1,5' in German
 * → '1.5'); `undefined` when it holds the separator the locale does not use for decimals. Nothing
 * is guessed: in German '1.000' is a thousand to a reader and 1 to a dot-decimal parser, so it is
 * refused, and so is '1,000' in English (1000 or 1?). Arabic-Indic digits and the Arabic decimal
 * separator (٫) read as their Latin forms. What remains is checked by the amount rules.
 *
 * @example
 * readTypedAmount('1,5', 'de') // '1.5'
 * readTypedAmount('1.5', 'de') // undefined
 * readTypedAmount('1,000', 'en') // undefined
 * readTypedAmount('0.25', 'en') // '0.25'
 */
export function readTypedAmount(text: string, locale: string): string | undefined {
  const latin = text
    .trim()
    .replace(ARABIC_DIGITS, (digit) => String((digit.codePointAt(0) as number) & 0xf))
  if (decimalSeparatorOf(locale) === '.') {
    const plain = latin.replace(/\u066B/g, '.')
    return plain.includes(',') ? undefined : plain
  }
  return latin.includes('.') ? undefined : latin.replace(',', '.')
}

/**
 * A plain decimal ('1.5', as balances and quotes come) as the user would type it in their
 * locale: what Max and the quoted side of a swap put into an amount field.
 *
 * @example
 * typedAmountOf('1.5', 'de') // '1,5'
 * typedAmountOf('1.5', 'en') // '1.5'
 */
export function typedAmountOf(plain: string, locale: string): string {
  return decimalSeparatorOf(locale) === ',' ? plain.replace('.', ',') : plain
}
