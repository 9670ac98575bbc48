import type { Hono, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import type { AnalyticsConfig } from '../analytics/config.js'
import { createAnalyticsCleanup, storeEvent } from '../analytics/store.js'
import type { Db } from '../db/Db.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { parseInput, readJson } from '../http/parseInput.js'
import { isAnalyticsEnabled } from '../projects/features.js'

/**
 * The largest body of `POST /e`, in bytes. The modal's events are a few hundred bytes; its error
 * reports cut the message at 1,000 and the stack at 4,000 characters.
 */
export const MAX_EVENT_BYTES = 8 * 1024

/** `props` of an error report (spec §7). */
export const ErrorEventProps = z.strictObject({
  type: z.literal('error'),
  event: z.string().min(1).max(100),
  errorType: z.string().max(200),
  errorMessage: z.string().max(1000),
  stackTrace: z.string().max(4000).optional(),
})

/** `props` of a tracked event (SEND_INITIATED, SEND_SUCCESS, SWITCH_NETWORK, …). */
export const TrackEventProps = z.looseObject({
  type: z.literal('track'),
  event: z.string().min(1).max(100),
  address: z.string().max(100).optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
})

/** Body of `POST /e`. `timestamp` is milliseconds since the epoch. */
export const AnalyticsEvent = z.strictObject({
  eventId: z.string().min(1).max(128),
  url: z.url().max(2048),
  domain: z.string().min(1).max(253),
  timestamp: z.number().int().nonnegative(),
  props: z.discriminatedUnion('type', [ErrorEventProps, TrackEventProps]),
})
/** An analytics event or error report. */
export type AnalyticsEvent = z.infer<typeof AnalyticsEvent>

/** Options of {@link analyticsRoutes}. */
export type AnalyticsRoutesOptions = {
  db: Db
  /** The daily cap per project and the retention (`analytics/config.ts`). */
  limits: AnalyticsConfig
  /** Receives a failed retention run's error. */
  onError: (error: unknown) => void
}

/**
 * `POST /e?projectId&st&sv` (JSON, ≤ {@link MAX_EVENT_BYTES}) stores one event in
 * `analytics_events` and answers 204. A repeated `eventId` for the project is stored once;
 * projects with analytics off, and projects past their daily cap of stored events, are answered
 * 204 without storing. Events older than the retention are deleted as events arrive (at most
 * once an hour per process).
 *
 * @example
 * analyticsRoutes(app, guard, { db, limits: { dailyCap: 10_000, retentionDays: 30 }, onError })
 */
export function analyticsRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  { db, limits, onError }: AnalyticsRoutesOptions,
): void {
  const cleanup = createAnalyticsCleanup(db, { retentionDays: limits.retentionDays, onError })
  app.use('/e', ...guard)
  app.post(
    '/e',
    bodyLimit({
      maxSize: MAX_EVENT_BYTES,
      onError: () => {
        throw new ApiError('PAYLOAD_TOO_LARGE')
      },
    }),
    async (c) => {
      const event = parseInput(AnalyticsEvent, await readJson(c.req.raw))
      const { project, sdk } = c.var
      if (isAnalyticsEnabled(project.features)) {
        void cleanup.maybeRun()
        await storeEvent(
          db,
          {
            projectId: project.id,
            eventId: event.eventId,
            url: event.url,
            domain: event.domain,
            timestamp: event.timestamp,
            props: JSON.stringify(event.props),
            sdkType: sdk.type ?? null,
            sdkVersion: sdk.version ?? null,
          },
          { dailyCap: limits.dailyCap },
        )
      }
      return c.body(null, 204)
    },
  )
}
