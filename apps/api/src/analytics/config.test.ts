import { expect, test } from 'vitest'
import { InvalidAnalyticsConfigError, resolveAnalyticsConfig } from './config.js'

test('the analytics limits default to 10,000 events a day per project, kept 30 days; the environment sets them', () => {
  expect(resolveAnalyticsConfig({})).toEqual({ dailyCap: 10_000, retentionDays: 30 })
  expect(
    resolveAnalyticsConfig({
      PORTHOLE_ANALYTICS_DAILY_CAP: '50000',
      PORTHOLE_ANALYTICS_RETENTION_DAYS: '7',
    }),
  ).toEqual({ dailyCap: 50_000, retentionDays: 7 })
  for (const bad of ['0', '-1', '1.5', 'lots'])
    expect(() => resolveAnalyticsConfig({ PORTHOLE_ANALYTICS_DAILY_CAP: bad })).toThrow(
      InvalidAnalyticsConfigError,
    )
  expect(() => resolveAnalyticsConfig({ PORTHOLE_ANALYTICS_RETENTION_DAYS: '4000' })).toThrow(
    'PORTHOLE_ANALYTICS_RETENTION_DAYS must be a whole number from 1 to 3650, not 4000',
  )
})
