/**
 * Display formatting rules (spec §9 "Display").
 */

/**
 * Truncates in the middle keeping the first `start` and last `end` characters (addresses in
 * descriptions: first 4 and last 6).
 *
 * @example
 * truncateAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266') // '0xf3…b92266'
 */
export function truncateAddress(value: string, start = 4, end = 6): string {
  if (value.length <= start + end + 1) return value
  return `${value.slice(0, start)}…${value.slice(-end)}`
}

/**
 * Formats an integer amount with `decimals` to a fixed number of fraction digits, rounding
 * down (balances show 3 decimals; currency totals 2). With a `locale`, `Intl` writes the digits
 * and separators of that locale (exactly: the decimal text is formatted, not a float); without
 * one, thousands are grouped with commas.
 *
 * @example
 * formatAmount(1234567890000000000n, 18) // '1.234'
 * formatAmount(1234567890000000000000n, 18, 3, 'de') // '1.234,567'
 */
export function formatAmount(value: bigint, decimals: number, digits = 3, locale?: string): string {
  const negative = value < 0n
  const abs = negative ? -value : value
  const base = 10n ** BigInt(decimals)
  const whole = abs / base
  const scale = 10n ** BigInt(digits)
  const fraction = ((abs % base) * scale) / base
  const text = digits ? `${whole}.${fraction.toString().padStart(digits, '0')}` : `${whole}`
  if (locale)
    return new Intl.NumberFormat(locale, { minimumFractionDigits: digits }).format(
      `${negative ? '-' : ''}${text}` as `${number}`,
    )
  return `${negative ? '-' : ''}${groupThousands(text)}`
}

function groupThousands(text: string): string {
  const [whole = '', fraction] = text.split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return fraction === undefined ? grouped : `${grouped}.${fraction}`
}

/**
 * Cuts an e-mail (or any display name) longer than `max` characters with an ellipsis
 * (spec: "A stored e-mail display is cut above 30 characters").
 *
 * @example
 * cutDisplay('a-very-long-address-for-testing@example.com') // 'a-very-long-address-for-testin…'
 */
export function cutDisplay(value: string, max = 30): string {
  return value.length > max ? `${value.slice(0, max)}…` : value
}
