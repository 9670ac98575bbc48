/**
 * Relative times for the Activity tab (spec §9 "Relative-time thresholds: seconds up to 44, a
 * minute up to 89 seconds, and so on"): the usual ladder — 44 s, 89 s, 44 min, 89 min, 21 h,
 * 35 h, 25 d, 45 d, 10 months, 17 months — past and future.
 *
 * Labels come from `Intl.RelativeTimeFormat` in the chosen locale, so every language gets its own
 * plural forms and word order: '12 seconds ago', '1 minute ago', '3 hours ago', '2 days ago',
 * '1 month ago', '2 years ago', 'in 3 hours' ('vor 3 Stunden', '3 時間前'); 'just now' under half a
 * second comes from the string catalogue. Numerals everywhere (never 'a month', 'yesterday') keep
 * the column scannable.
 */
import { ta } from '../i18n/accountTabs.js'
import { locale } from '../i18n/en.js'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
/** Mean Gregorian year and month, so that thresholds do not depend on the calendar. */
const YEAR = 365.2425 * DAY
const MONTH = YEAR / 12

/** The unit a relative time is expressed in; `now` is under half a second. */
export type RelativeTimeUnit = 'now' | 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year'

/** Parameters of {@link relativeTimeUnit} and {@link relativeTime}. */
export type RelativeTimeParameters = {
  /** The moment to describe: a Date, milliseconds since the epoch, or an ISO 8601 text. */
  time: Date | number | string
  /** The current time (injected, so tests and the view's ticker decide). */
  now: Date | number
  /** The language of the label; the chosen locale by default. */
  locale?: string | undefined
}

/** The unit, the rounded count in it, and whether the moment is in the future. */
export type RelativeTimeUnitReturnType = {
  unit: RelativeTimeUnit
  value: number
  future: boolean
}

function toMs(value: Date | number | string): number {
  if (value instanceof Date) return value.getTime()
  if (typeof value === 'number') return value
  return Date.parse(value)
}

/**
 * Chooses the unit by the spec's thresholds (each step compares the rounded count in the
 * previous unit with its limit). `undefined` when a date does not parse.
 *
 * @example
 * relativeTimeUnit({ time: 0, now: 90_000 }) // { unit: 'minute', value: 2, future: false }
 */
export function relativeTimeUnit(
  parameters: RelativeTimeParameters,
): RelativeTimeUnitReturnType | undefined {
  const time = toMs(parameters.time)
  const now = toMs(parameters.now)
  if (!Number.isFinite(time) || !Number.isFinite(now)) return undefined
  const future = time > now
  const abs = Math.abs(time - now)
  const at = (unit: RelativeTimeUnit, value: number) => ({ unit, value, future })
  // A range that starts at 2 ('5 min') never shows 1 after rounding at its lower edge.
  const many = (unit: RelativeTimeUnit, size: number) =>
    at(unit, Math.max(2, Math.round(abs / size)))

  const seconds = Math.round(abs / SECOND)
  if (seconds === 0) return at('now', 0)
  if (seconds <= 44) return at('second', seconds)
  if (seconds <= 89) return at('minute', 1)
  const minutes = Math.round(abs / MINUTE)
  if (minutes <= 44) return many('minute', MINUTE)
  if (minutes <= 89) return at('hour', 1)
  const hours = Math.round(abs / HOUR)
  if (hours <= 21) return many('hour', HOUR)
  if (hours <= 35) return at('day', 1)
  const days = Math.round(abs / DAY)
  if (days <= 25) return many('day', DAY)
  if (days <= 45) return at('month', 1)
  const months = Math.round(abs / MONTH)
  if (months <= 10) return many('month', MONTH)
  if (months <= 17) return at('year', 1)
  return many('year', YEAR)
}

/**
 * A relative time in the chosen locale: '12 seconds ago', '1 minute ago', '3 hours ago',
 * '2 days ago', '1 month ago', '2 years ago', 'in 5 minutes', 'just now'; '' for a date that
 * does not parse.
 *
 * @example
 * relativeTime({ time: '2024-05-01T12:00:00Z', now: Date.parse('2024-05-01T15:00:00Z') })
 * // '3 hours ago'; 'vor 3 Stunden' with locale: 'de'
 */
export function relativeTime(parameters: RelativeTimeParameters): string {
  const result = relativeTimeUnit(parameters)
  if (!result) return ''
  const { unit, value, future } = result
  if (unit === 'now') return ta('timeJustNow')
  return new Intl.RelativeTimeFormat(parameters.locale ?? locale(), { numeric: 'always' }).format(
    future ? value : -value,
    unit,
  )
}
