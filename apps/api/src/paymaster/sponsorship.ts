/**
 * Gas sponsorship rules per project (on/off, a daily cap of sponsored user operations per
 * sending account and one for the whole project) and the count of what was sponsored, per
 * (project, sender, UTC day) and per (project, UTC day).
 * Migration 9: `project_sponsorship` and `sponsored_user_operations`; migration 11:
 * `project_sponsorship.project_daily_cap`.
 */
import { DEMO_PROJECT_ID } from '@porthole/shared'
import type { Db, DbExecutor } from '../db/Db.js'
import { getProject } from '../projects/getProject.js'
import { ProjectNotFoundError } from '../projects/Project.js'

/** A project's sponsorship rules. */
export type SponsorshipRules = {
  /** Whether the paymaster sponsors this project's user operations. */
  enabled: boolean
  /** Most user operations sponsored per sending account and UTC day. */
  dailyCap: number
  /** Most user operations sponsored per UTC day for the whole project, all accounts together. */
  projectDailyCap: number
}

/** What {@link getSponsorshipRules} answers: the rules, and whether the project set them. */
export type SponsorshipRulesReturnType = SponsorshipRules & { isDefault: boolean }

/** The daily cap per sending account when none was set. */
export const DEFAULT_DAILY_CAP = 20

/** The daily cap per project when none was set (also the column default of migration 11). */
export const DEFAULT_PROJECT_DAILY_CAP = 1000

/**
 * A project's rules until it sets its own: the demo project (`porthole-demo`) is sponsored,
 * 20 user operations per account and 1,000 for the project a day; other projects are not.
 *
 * @example
 * defaultSponsorshipRules('porthole-demo') // { enabled: true, dailyCap: 20, projectDailyCap: 1000 }
 */
export function defaultSponsorshipRules(projectId: string): SponsorshipRules {
  return {
    enabled: projectId === DEMO_PROJECT_ID,
    dailyCap: DEFAULT_DAILY_CAP,
    projectDailyCap: DEFAULT_PROJECT_DAILY_CAP,
  }
}

/**
 * A project's sponsorship rules: the stored ones, else {@link defaultSponsorshipRules}.
 *
 * @example
 * await getSponsorshipRules(db, 'porthole-demo')
 * // { enabled: true, dailyCap: 20, projectDailyCap: 1000, isDefault: true }
 */
export async function getSponsorshipRules(
  db: DbExecutor,
  projectId: string,
): Promise<SponsorshipRulesReturnType> {
  const [row] = await db.query<{
    enabled: number | bigint
    daily_cap: number | bigint
    project_daily_cap: number | bigint
  }>('SELECT enabled, daily_cap, project_daily_cap FROM project_sponsorship WHERE project_id = ?', [
    projectId,
  ])
  if (!row) return { ...defaultSponsorshipRules(projectId), isDefault: true }
  return {
    enabled: Number(row.enabled) === 1,
    dailyCap: Number(row.daily_cap),
    projectDailyCap: Number(row.project_daily_cap),
    isDefault: false,
  }
}

/** Options of {@link setSponsorshipRules}: what to change (the rest is kept). */
export type SetSponsorshipRulesParameters = {
  projectId: string
  enabled?: boolean | undefined
  /** Per sending account: a whole number from 1 to 1,000,000. */
  dailyCap?: number | undefined
  /** Per project: a whole number from 1 to 1,000,000. */
  projectDailyCap?: number | undefined
}

/** Thrown for a daily cap (per account or per project) that is not a whole number from 1 to 1,000,000. */
export class InvalidDailyCapError extends Error {
  override name = 'InvalidDailyCapError' as const
}

const isCap = (value: number) => Number.isInteger(value) && value >= 1 && value <= 1e6

/**
 * Stores a project's sponsorship rules, changing what is given and keeping the rest (from the
 * stored or default rules). A running API applies them to the next `pm_*` call.
 *
 * @example
 * await setSponsorshipRules(db, { projectId, enabled: true, dailyCap: 5, projectDailyCap: 500 })
 * // { enabled: true, dailyCap: 5, projectDailyCap: 500 }
 */
export async function setSponsorshipRules(
  db: Db,
  { projectId, enabled, dailyCap, projectDailyCap }: SetSponsorshipRulesParameters,
): Promise<SponsorshipRules> {
  if (dailyCap !== undefined && !isCap(dailyCap))
    throw new InvalidDailyCapError(
      `The daily cap must be a whole number from 1 to 1000000, not ${dailyCap}`,
    )
  if (projectDailyCap !== undefined && !isCap(projectDailyCap))
    throw new InvalidDailyCapError(
      `The project daily cap must be a whole number from 1 to 1000000, not ${projectDailyCap}`,
    )
  return db.transaction(async (tx) => {
    if (!(await getProject(tx, projectId))) throw new ProjectNotFoundError(projectId)
    const current = await getSponsorshipRules(tx, projectId)
    const next = {
      enabled: enabled ?? current.enabled,
      dailyCap: dailyCap ?? current.dailyCap,
      projectDailyCap: projectDailyCap ?? current.projectDailyCap,
    }
    await tx.execute(
      `INSERT INTO project_sponsorship (project_id, enabled, daily_cap, project_daily_cap, updated_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET enabled = excluded.enabled,
         daily_cap = excluded.daily_cap, project_daily_cap = excluded.project_daily_cap,
         updated_at = excluded.updated_at`,
      [projectId, next.enabled ? 1 : 0, next.dailyCap, next.projectDailyCap, Date.now()],
    )
    return next
  })
}

/**
 * The UTC day of a time, `YYYY-MM-DD`: the period of the daily cap.
 *
 * @example
 * utcDay(Date.UTC(2026, 0, 31, 23, 59)) // '2026-01-31'
 */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/** Options of {@link sponsoredToday} and {@link takeSponsorship}. */
export type SponsoredOperationsParameters = {
  projectId: string
  /** The sending account (any case). */
  sender: string
  /** Now, in milliseconds; default `Date.now()`. */
  now?: number
}

/**
 * How many user operations of `sender` the project had sponsored on the current UTC day.
 *
 * @example
 * await sponsoredToday(db, { projectId, sender }) // 3
 */
export async function sponsoredToday(
  db: DbExecutor,
  { projectId, sender, now = Date.now() }: SponsoredOperationsParameters,
): Promise<number> {
  const [row] = await db.query<{ op_count: number | bigint }>(
    'SELECT op_count FROM sponsored_user_operations WHERE project_id = ? AND sender = ? AND utc_day = ?',
    [projectId, sender.toLowerCase(), utcDay(now)],
  )
  return row ? Number(row.op_count) : 0
}

/**
 * How many user operations the project had sponsored on the current UTC day, all senders
 * together.
 *
 * @example
 * await projectSponsoredToday(db, { projectId }) // 412
 */
export async function projectSponsoredToday(
  db: DbExecutor,
  { projectId, now = Date.now() }: Omit<SponsoredOperationsParameters, 'sender'>,
): Promise<number> {
  return sponsoredToday(db, { projectId, sender: PROJECT_SENDER, now })
}

/** Options of {@link takeSponsorship}. */
export type TakeSponsorshipParameters = SponsoredOperationsParameters & {
  /** The sender's cap per UTC day. */
  dailyCap: number
  /** The project's cap per UTC day, all senders together. */
  projectDailyCap: number
}

/** What {@link takeSponsorship} answers: counted, or which cap refused it. */
export type TakeSponsorshipReturnType =
  | { taken: true }
  | { taken: false; cap: 'project' | 'sender' }

/**
 * Counts one more sponsored user operation of `sender` on the current UTC day, for the
 * project and for the sender, unless that would pass `projectDailyCap` or `dailyCap`. Each
 * counter moves in one statement, so concurrent calls cannot pass a cap together: the project's
 * slot is taken first, then the sender's; when the sender's is refused, the project's is given
 * back (a concurrent call may meanwhile find the project full, which errs on the safe side).
 *
 * @example
 * const take = await takeSponsorship(db, { projectId, sender, dailyCap: 20, projectDailyCap: 1000 })
 * if (!take.taken) refuse(take.cap) // 'project' or 'sender'
 */
export async function takeSponsorship(
  db: DbExecutor,
  { projectId, sender, dailyCap, projectDailyCap, now = Date.now() }: TakeSponsorshipParameters,
): Promise<TakeSponsorshipReturnType> {
  const day = utcDay(now)
  if (!(await takeSlot(db, { projectId, sender: PROJECT_SENDER, day, cap: projectDailyCap })))
    return { taken: false, cap: 'project' }
  if (await takeSlot(db, { projectId, sender: sender.toLowerCase(), day, cap: dailyCap }))
    return { taken: true }
  await db.execute(
    `UPDATE sponsored_user_operations SET op_count = op_count - 1
     WHERE project_id = ? AND sender = ? AND utc_day = ? AND op_count > 0`,
    [projectId, PROJECT_SENDER, day],
  )
  return { taken: false, cap: 'sender' }
}

/** The `sender` of a project's own counter row: never an address (those are 0x… lower case). */
const PROJECT_SENDER = '*'

/** One more on a counter row unless it is at `cap`, in one statement; answers whether it was counted. */
async function takeSlot(
  db: DbExecutor,
  { projectId, sender, day, cap }: { projectId: string; sender: string; day: string; cap: number },
): Promise<boolean> {
  const { rowsAffected } = await db.execute(
    `INSERT INTO sponsored_user_operations (project_id, sender, utc_day, op_count) VALUES (?, ?, ?, 1)
     ON CONFLICT (project_id, sender, utc_day) DO UPDATE
       SET op_count = sponsored_user_operations.op_count + 1
       WHERE sponsored_user_operations.op_count < ?`,
    [projectId, sender, day, cap],
  )
  return rowsAffected > 0
}

/** How many UTC days of counts are kept: today and yesterday. */
export const SPONSORED_DAYS_KEPT = 2

/**
 * Deletes the counts older than the last {@link SPONSORED_DAYS_KEPT} UTC days: those of
 * `now`'s day and the day before stay. Answers how many rows went.
 *
 * @example
 * await deleteOldSponsorships(db, { now: Date.UTC(2026, 4, 10, 12) }) // 2026-05-08 and before
 */
export async function deleteOldSponsorships(
  db: DbExecutor,
  { now = Date.now() }: { now?: number } = {},
): Promise<number> {
  const oldestKept = utcDay(now - (SPONSORED_DAYS_KEPT - 1) * 86_400_000)
  const { rowsAffected } = await db.execute(
    'DELETE FROM sponsored_user_operations WHERE utc_day < ?',
    [oldestKept],
  )
  return rowsAffected
}

/** Options of {@link createSponsorshipCleanup}. */
export type CreateSponsorshipCleanupParameters = {
  /** Receives a failed run's error. */
  onError: (error: unknown) => void
}

/** What {@link createSponsorshipCleanup} answers. */
export type SponsorshipCleanup = {
  /**
   * Starts {@link deleteOldSponsorships} in the background unless it already started on
   * `now`'s UTC day; answers the run (settles, never rejects) when it started one.
   */
  maybeRun(now?: number): Promise<void> | undefined
}

/**
 * The cleanup of old sponsorship counts, at most once per UTC day for its holder (one per
 * process): call `maybeRun()` when a sponsorship is taken and do not wait for it. A failed run
 * goes to `onError` and is tried again the next day.
 *
 * @example
 * const cleanup = createSponsorshipCleanup(db, { onError: console.error })
 * cleanup.maybeRun()
 */
export function createSponsorshipCleanup(
  db: DbExecutor,
  { onError }: CreateSponsorshipCleanupParameters,
): SponsorshipCleanup {
  let lastDay: string | undefined
  return {
    maybeRun(now = Date.now()) {
      const day = utcDay(now)
      if (day === lastDay) return undefined
      lastDay = day
      return deleteOldSponsorships(db, { now }).then(() => undefined, onError)
    },
  }
}
