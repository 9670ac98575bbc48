/**
 * The analytics store (`analytics_events`, migration 1; `analytics_daily_counts`, migration 18):
 * one row per event, at most a daily cap of events per project, each kept for the retention
 * period. A stranger with a project's public id can send events; what they can store is bounded
 * by `dailyCap` × the body limit a day and by the retention in all.
 */
import { randomUUID } from 'node:crypto'
import type { Db, DbExecutor } from '../db/Db.js'

/** An event as `POST /e` stores it. */
export type StoredEvent = {
  projectId: string
  eventId: string
  url: string
  domain: string
  timestamp: number
  /** The JSON of `props`. */
  props: string
  sdkType: string | null
  sdkVersion: string | null
}

/** Options of {@link storeEvent}. */
export type StoreEventParameters = {
  /** Most events stored for the project on `now`'s UTC day. */
  dailyCap: number
  /** Now, in milliseconds; default `Date.now()`. */
  now?: number
}

/**
 * What {@link storeEvent} did: `stored`, `duplicate` (the project has this `eventId` already) or
 * `capped` (the project's daily cap is reached; nothing stored).
 */
export type StoreEventReturnType = 'stored' | 'duplicate' | 'capped'

/** Thrown inside the transaction to undo the insert of an event past the cap. */
class CapReached extends Error {}

/**
 * Stores one event unless the project has it already or has stored `dailyCap` events on the
 * current UTC day. The event and the day's count are written in one transaction, the count
 * with one conditional statement, so concurrent requests (on any number of replicas) cannot
 * pass the cap together; a duplicate counts nothing.
 *
 * @example
 * await storeEvent(db, event, { dailyCap: 10_000 }) // 'stored'
 */
export async function storeEvent(
  db: Db,
  event: StoredEvent,
  { dailyCap, now = Date.now() }: StoreEventParameters,
): Promise<StoreEventReturnType> {
  try {
    return await db.transaction(async (tx) => {
      const inserted = await tx.execute(
        `INSERT INTO analytics_events
           (id, project_id, event_id, url, domain, timestamp, props, sdk_type, sdk_version, received_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (project_id, event_id) DO NOTHING`,
        [
          randomUUID(),
          event.projectId,
          event.eventId,
          event.url,
          event.domain,
          event.timestamp,
          event.props,
          event.sdkType,
          event.sdkVersion,
          now,
        ],
      )
      if (inserted.rowsAffected !== 1) return 'duplicate'
      const counted = await tx.execute(
        `INSERT INTO analytics_daily_counts (project_id, utc_day, event_count) VALUES (?, ?, 1)
         ON CONFLICT (project_id, utc_day) DO UPDATE
           SET event_count = analytics_daily_counts.event_count + 1
           WHERE analytics_daily_counts.event_count < ?`,
        [event.projectId, utcDay(now), dailyCap],
      )
      if (counted.rowsAffected !== 1) throw new CapReached()
      return 'stored'
    })
  } catch (error) {
    if (error instanceof CapReached) return 'capped'
    throw error
  }
}

/**
 * How many events the project stored on `now`'s UTC day.
 *
 * @example
 * await storedToday(db, { projectId }) // 412
 */
export async function storedToday(
  db: DbExecutor,
  { projectId, now = Date.now() }: { projectId: string; now?: number },
): Promise<number> {
  const [row] = await db.query<{ event_count: number | bigint }>(
    'SELECT event_count FROM analytics_daily_counts WHERE project_id = ? AND utc_day = ?',
    [projectId, utcDay(now)],
  )
  return row ? Number(row.event_count) : 0
}

/** What {@link deleteOldEvents} deleted. */
export type DeleteOldEventsReturnType = { events: number; counts: number }

/**
 * Deletes the events received more than `retentionDays` days before `now`, and the daily counts
 * of days before yesterday (UTC).
 *
 * @example
 * await deleteOldEvents(db, { retentionDays: 30 }) // { events: 1200, counts: 3 }
 */
export async function deleteOldEvents(
  db: DbExecutor,
  { retentionDays, now = Date.now() }: { retentionDays: number; now?: number },
): Promise<DeleteOldEventsReturnType> {
  const events = await db.execute('DELETE FROM analytics_events WHERE received_at < ?', [
    now - retentionDays * DAY_MS,
  ])
  const counts = await db.execute('DELETE FROM analytics_daily_counts WHERE utc_day < ?', [
    utcDay(now - DAY_MS),
  ])
  return { events: events.rowsAffected, counts: counts.rowsAffected }
}

/** Options of {@link createAnalyticsCleanup}. */
export type CreateAnalyticsCleanupParameters = {
  retentionDays: number
  /** Least time between two runs; default one hour. */
  intervalMs?: number
  /** Receives a failed run's error. */
  onError: (error: unknown) => void
}

/**
 * The retention of the analytics store: `maybeRun()` starts {@link deleteOldEvents} in the
 * background at most once per interval for its holder (one per process; the route calls it as
 * events arrive, so no timer keeps the process alive). Answers the run when it started one
 * (settles, never rejects); a failed run goes to `onError`.
 *
 * @example
 * const cleanup = createAnalyticsCleanup(db, { retentionDays: 30, onError: console.error })
 * cleanup.maybeRun()
 */
export function createAnalyticsCleanup(
  db: DbExecutor,
  { retentionDays, intervalMs = 3_600_000, onError }: CreateAnalyticsCleanupParameters,
): { maybeRun(now?: number): Promise<void> | undefined } {
  let last: number | undefined
  let running: Promise<void> | undefined
  return {
    maybeRun(now = Date.now()) {
      if (running || (last !== undefined && now - last < intervalMs)) return undefined
      last = now
      running = deleteOldEvents(db, { retentionDays, now }).then(
        () => {
          running = undefined
        },
        (error: unknown) => {
          running = undefined
          onError(error)
        },
      )
      return running
    },
  }
}

const DAY_MS = 86_400_000

/** The UTC day of a time, `YYYY-MM-DD`: the period of the daily cap. */
function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}
