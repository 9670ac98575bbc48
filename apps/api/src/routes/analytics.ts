import { randomUUID } from 'node:crypto'
import type { Hono, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import type { DbExecutor } from '../db/Db.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { parseInput, readJson } from '../http/parseInput.js'
import { isAnalyticsEnabled } from '../projects/features.js'

/** `props` of an error report (spec §7). */
export const ErrorEventProps = z.strictObject({
  type: z.literal('error'),
  event: z.string().min(1).max(100),
  errorType: z.string().max(200),
  errorMessage: z.string().max(4000),
  stackTrace: z.string().max(20_000).optional(),
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

/**
 * `POST /e?projectId&st&sv` (JSON, ≤ 64 KiB) stores one event in `analytics_events` and answers
 * 204. A repeated `eventId` for the project is stored once; projects with analytics off are
 * answered 204 without storing.
 *
 * @example
 * analyticsRoutes(app, guard, { db })
 */
export function analyticsRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  { db }: { db: DbExecutor },
): void {
  app.use('/e', ...guard)
  app.post(
    '/e',
    bodyLimit({
      maxSize: 64 * 1024,
      onError: () => {
        throw new ApiError('PAYLOAD_TOO_LARGE')
      },
    }),
    async (c) => {
      const event = parseInput(AnalyticsEvent, await readJson(c.req.raw))
      const { project, sdk } = c.var
      if (isAnalyticsEnabled(project.features))
        await db.execute(
          `INSERT INTO analytics_events
             (id, project_id, event_id, url, domain, timestamp, props, sdk_type, sdk_version, received_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (project_id, event_id) DO NOTHING`,
          [
            randomUUID(),
            project.id,
            event.eventId,
            event.url,
            event.domain,
            event.timestamp,
            JSON.stringify(event.props),
            sdk.type ?? null,
            sdk.version ?? null,
            Date.now(),
          ],
        )
      return c.body(null, 204)
    },
  )
}
