/**
 * What `POST /e` may store: a daily cap of events per project and how long events are kept
 * (`PORTHOLE_ANALYTICS_DAILY_CAP`, `PORTHOLE_ANALYTICS_RETENTION_DAYS`).
 */

/** The analytics store's limits. */
export type AnalyticsConfig = {
  /** Most events stored per project and UTC day; later ones that day are answered and dropped. */
  dailyCap: number
  /** Events are deleted this many days after they were received. */
  retentionDays: number
}

/** The daily cap per project when none is set. */
export const DEFAULT_ANALYTICS_DAILY_CAP = 10_000

/** Days an event is kept when nothing is set. */
export const DEFAULT_ANALYTICS_RETENTION_DAYS = 30

/** Environment variables of {@link resolveAnalyticsConfig}. */
export const ANALYTICS_CONFIG_ENV = {
  dailyCap: 'PORTHOLE_ANALYTICS_DAILY_CAP',
  retentionDays: 'PORTHOLE_ANALYTICS_RETENTION_DAYS',
} as const

/** Thrown for an analytics setting that is not a whole number in its range. */
export class InvalidAnalyticsConfigError extends Error {
  override name = 'InvalidAnalyticsConfigError' as const
}

/**
 * The analytics limits from the environment: a daily cap per project (a whole number from 1 to
 * 10,000,000; default 10,000) and a retention in days (1 to 3,650; default 30).
 *
 * @example
 * resolveAnalyticsConfig({ PORTHOLE_ANALYTICS_DAILY_CAP: '50000' }) // { dailyCap: 50000, retentionDays: 30 }
 */
export function resolveAnalyticsConfig(
  env: Record<string, string | undefined> = process.env,
): AnalyticsConfig {
  return {
    dailyCap:
      wholeNumber(env, ANALYTICS_CONFIG_ENV.dailyCap, 10_000_000) ?? DEFAULT_ANALYTICS_DAILY_CAP,
    retentionDays:
      wholeNumber(env, ANALYTICS_CONFIG_ENV.retentionDays, 3650) ??
      DEFAULT_ANALYTICS_RETENTION_DAYS,
  }
}

function wholeNumber(
  env: Record<string, string | undefined>,
  name: string,
  max: number,
): number | undefined {
  const text = env[name]?.trim()
  if (!text) return undefined
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new InvalidAnalyticsConfigError(
      `${name} must be a whole number from 1 to ${max}, not ${text}`,
    )
  return value
}
