/**
 * Gas sponsorship rules per project (on/off, a daily cap of sponsored user operations per
 * sending account) and the count of what was sponsored, per (project, sender, UTC day).
 * Migration 9: `project_sponsorship` and `sponsored_user_operations`.
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
}

/** What {@link getSponsorshipRules} answers: the rules, and whether the project set them. */
export type SponsorshipRulesReturnType = SponsorshipRules & { isDefault: boolean }

/** The daily cap when none was set. */
export const DEFAULT_DAILY_CAP = 20

/**
 * A project's rules until it sets its own: the demo project (`porthole-demo`) is sponsored,
 * 20 user operations per account and day; other projects are not.
 *
 * @example
 * defaultSponsorshipRules('porthole-demo') // { enabled: true, dailyCap: 20 }
 */
export function defaultSponsorshipRules(projectId: string): SponsorshipRules {
  return { enabled: projectId === DEMO_PROJECT_ID, dailyCap: DEFAULT_DAILY_CAP }
}

/**
 * A project's sponsorship rules: the stored ones, else {@link defaultSponsorshipRules}.
 *
 * @example
 * await getSponsorshipRules(db, 'porthole-demo') // { enabled: true, dailyCap: 20, isDefault: true }
 */
export async function getSponsorshipRules(
  db: DbExecutor,
  projectId: string,
): Promise<SponsorshipRulesReturnType> {
  const [row] = await db.query<{ enabled: number | bigint; daily_cap: number | bigint }>(
    'SELECT enabled, daily_cap FROM project_sponsorship WHERE project_id = ?',
    [projectId],
  )
  if (!row) return { ...defaultSponsorshipRules(projectId), isDefault: true }
  return { enabled: Number(row.enabled) === 1, dailyCap: Number(row.daily_cap), isDefault: false }
}

/** Options of {@link setSponsorshipRules}: what to change (the rest is kept). */
export type SetSponsorshipRulesParameters = {
  projectId: string
  enabled?: boolean | undefined
  /** A whole number from 1 to 1,000,000. */
  dailyCap?: number | undefined
}

/** Thrown for a daily cap that is not a whole number from 1 to 1,000,000. */
export class InvalidDailyCapError extends Error {
  override name = 'InvalidDailyCapError' as const
}

/**
 * Stores a project's sponsorship rules, changing what is given and keeping the rest (from the
 * stored or default rules). A running API applies them to the next `pm_*` call.
 *
 * @example
 * await setSponsorshipRules(db, { projectId, enabled: true, dailyCap: 5 }) // { enabled: true, dailyCap: 5 }
 */
export async function setSponsorshipRules(
  db: Db,
  { projectId, enabled, dailyCap }: SetSponsorshipRulesParameters,
): Promise<SponsorshipRules> {
  if (dailyCap !== undefined && !(Number.isInteger(dailyCap) && dailyCap >= 1 && dailyCap <= 1e6))
    throw new InvalidDailyCapError(
      `The daily cap must be a whole number from 1 to 1000000, not ${dailyCap}`,
    )
  return db.transaction(async (tx) => {
    if (!(await getProject(tx, projectId))) throw new ProjectNotFoundError(projectId)
    const current = await getSponsorshipRules(tx, projectId)
    const next = { enabled: enabled ?? current.enabled, dailyCap: dailyCap ?? current.dailyCap }
    await tx.execute(
      `INSERT INTO project_sponsorship (project_id, enabled, daily_cap, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET enabled = excluded.enabled,
         daily_cap = excluded.daily_cap, updated_at = excluded.updated_at`,
      [projectId, next.enabled ? 1 : 0, next.dailyCap, Date.now()],
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
 * Counts one more sponsored user operation of `sender` on the current UTC day, unless that
 * would pass `dailyCap`: one statement, so concurrent calls cannot pass the cap together.
 * Answers whether it was counted.
 *
 * @example
 * if (!(await takeSponsorship(db, { projectId, sender, dailyCap: 20 }))) refuse()
 */
export async function takeSponsorship(
  db: DbExecutor,
  {
    projectId,
    sender,
    dailyCap,
    now = Date.now(),
  }: SponsoredOperationsParameters & { dailyCap: number },
): Promise<boolean> {
  const { rowsAffected } = await db.execute(
    `INSERT INTO sponsored_user_operations (project_id, sender, utc_day, op_count) VALUES (?, ?, ?, 1)
     ON CONFLICT (project_id, sender, utc_day) DO UPDATE
       SET op_count = sponsored_user_operations.op_count + 1
       WHERE sponsored_user_operations.op_count < ?`,
    [projectId, sender.toLowerCase(), utcDay(now), dailyCap],
  )
  return rowsAffected > 0
}
