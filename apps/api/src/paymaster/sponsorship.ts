/**
 * Gas sponsorship rules per project (on/off, a daily cap of sponsored user operations per
 * sending account and one for the whole project, a daily budget in wei) and the count of what
 * was sponsored, per (project, sender, UTC day) and per (project, UTC day).
 * Migration 9: `project_sponsorship` and `sponsored_user_operations`; migration 11:
 * `project_sponsorship.project_daily_cap`; migration 14: `project_sponsorship.daily_budget_gwei`,
 * `sponsored_user_operations.charge_gwei` and `revocation_count`.
 */
import { DEMO_PROJECT_ID } from '@porthole/shared'
import { formatEther, parseEther, parseGwei } from 'viem'
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
  /**
   * Most wei of gas the project's sponsorships may cost per UTC day, all together: the sum of
   * each one's maximum charge (all its gas limits × its `maxFeePerGas`). A whole number of gwei.
   */
  projectDailyBudget: bigint
}

/** What {@link getSponsorshipRules} answers: the rules, and whether the project set them. */
export type SponsorshipRulesReturnType = SponsorshipRules & { isDefault: boolean }

/** The daily cap per sending account when none was set. */
export const DEFAULT_DAILY_CAP = 20

/** The daily cap per project when none was set (also the column default of migration 11). */
export const DEFAULT_PROJECT_DAILY_CAP = 1000

/** The daily budget per project when none was set: 1 ETH (the column default of migration 14). */
export const DEFAULT_PROJECT_DAILY_BUDGET = parseEther('1')

/**
 * A project's rules until it sets its own: the demo project (`porthole-demo`) is sponsored,
 * 20 user operations per account, 1,000 and 1 ETH of gas for the project a day; other projects
 * are not.
 *
 * @example
 * defaultSponsorshipRules('porthole-demo')
 * // { enabled: true, dailyCap: 20, projectDailyCap: 1000, projectDailyBudget: 10n ** 18n }
 */
export function defaultSponsorshipRules(projectId: string): SponsorshipRules {
  return {
    enabled: projectId === DEMO_PROJECT_ID,
    dailyCap: DEFAULT_DAILY_CAP,
    projectDailyCap: DEFAULT_PROJECT_DAILY_CAP,
    projectDailyBudget: DEFAULT_PROJECT_DAILY_BUDGET,
  }
}

/**
 * A project's sponsorship rules: the stored ones, else {@link defaultSponsorshipRules}.
 *
 * @example
 * await getSponsorshipRules(db, 'porthole-demo')
 * // { enabled: true, dailyCap: 20, projectDailyCap: 1000, projectDailyBudget: 10n ** 18n, isDefault: true }
 */
export async function getSponsorshipRules(
  db: DbExecutor,
  projectId: string,
): Promise<SponsorshipRulesReturnType> {
  const [row] = await db.query<{
    enabled: number | bigint
    daily_cap: number | bigint
    project_daily_cap: number | bigint
    daily_budget_gwei: number | bigint | string
  }>(
    `SELECT enabled, daily_cap, project_daily_cap, daily_budget_gwei
     FROM project_sponsorship WHERE project_id = ?`,
    [projectId],
  )
  if (!row) return { ...defaultSponsorshipRules(projectId), isDefault: true }
  return {
    enabled: Number(row.enabled) === 1,
    dailyCap: Number(row.daily_cap),
    projectDailyCap: Number(row.project_daily_cap),
    projectDailyBudget: BigInt(row.daily_budget_gwei) * GWEI,
    isDefault: false,
  }
}

const GWEI = parseGwei('1')

/**
 * Wei as whole gwei, rounded up: how charges and budgets are kept in the database.
 *
 * @example
 * toGwei(1n) // 1
 */
export function toGwei(wei: bigint): number {
  return Number((wei + GWEI - 1n) / GWEI)
}

/** Options of {@link setSponsorshipRules}: what to change (the rest is kept). */
export type SetSponsorshipRulesParameters = {
  projectId: string
  enabled?: boolean | undefined
  /** Per sending account: a whole number from 1 to 1,000,000. */
  dailyCap?: number | undefined
  /** Per project: a whole number from 1 to 1,000,000. */
  projectDailyCap?: number | undefined
  /** Per project, in wei: whole gwei, from 1 gwei to 1,000,000 ETH. */
  projectDailyBudget?: bigint | undefined
}

/** Thrown for a daily cap (per account or per project) that is not a whole number from 1 to 1,000,000. */
export class InvalidDailyCapError extends Error {
  override name = 'InvalidDailyCapError' as const
}

/** Thrown for a daily budget that is not whole gwei from 1 gwei to 1,000,000 ETH. */
export class InvalidDailyBudgetError extends Error {
  override name = 'InvalidDailyBudgetError' as const
}

const isCap = (value: number) => Number.isInteger(value) && value >= 1 && value <= 1e6
const MAX_DAILY_BUDGET = parseEther('1000000')
const isBudget = (wei: bigint) => wei >= GWEI && wei <= MAX_DAILY_BUDGET && wei % GWEI === 0n

/**
 * Stores a project's sponsorship rules, changing what is given and keeping the rest (from the
 * stored or default rules). A running API applies them to the next `pm_*` call.
 *
 * @example
 * await setSponsorshipRules(db, { projectId, enabled: true, dailyCap: 5, projectDailyCap: 500 })
 * // { enabled: true, dailyCap: 5, projectDailyCap: 500, projectDailyBudget: 10n ** 18n }
 */
export async function setSponsorshipRules(
  db: Db,
  {
    projectId,
    enabled,
    dailyCap,
    projectDailyCap,
    projectDailyBudget,
  }: SetSponsorshipRulesParameters,
): Promise<SponsorshipRules> {
  if (dailyCap !== undefined && !isCap(dailyCap))
    throw new InvalidDailyCapError(
      `The daily cap must be a whole number from 1 to 1000000, not ${dailyCap}`,
    )
  if (projectDailyCap !== undefined && !isCap(projectDailyCap))
    throw new InvalidDailyCapError(
      `The project daily cap must be a whole number from 1 to 1000000, not ${projectDailyCap}`,
    )
  if (projectDailyBudget !== undefined && !isBudget(projectDailyBudget))
    throw new InvalidDailyBudgetError(
      `The project daily budget must be whole gwei from 0.000000001 to 1000000 ETH, not ${formatEther(projectDailyBudget)} ETH`,
    )
  return db.transaction(async (tx) => {
    if (!(await getProject(tx, projectId))) throw new ProjectNotFoundError(projectId)
    const current = await getSponsorshipRules(tx, projectId)
    const next = {
      enabled: enabled ?? current.enabled,
      dailyCap: dailyCap ?? current.dailyCap,
      projectDailyCap: projectDailyCap ?? current.projectDailyCap,
      projectDailyBudget: projectDailyBudget ?? current.projectDailyBudget,
    }
    await tx.execute(
      `INSERT INTO project_sponsorship
         (project_id, enabled, daily_cap, project_daily_cap, daily_budget_gwei, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET enabled = excluded.enabled,
         daily_cap = excluded.daily_cap, project_daily_cap = excluded.project_daily_cap,
         daily_budget_gwei = excluded.daily_budget_gwei, updated_at = excluded.updated_at`,
      [
        projectId,
        next.enabled ? 1 : 0,
        next.dailyCap,
        next.projectDailyCap,
        toGwei(next.projectDailyBudget),
        Date.now(),
      ],
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
  /** The operation's maximum charge, in wei (counted in whole gwei, rounded up); default 0. */
  charge?: bigint
  /** The project's budget per UTC day, in wei; default none. */
  projectDailyBudget?: bigint
}

/** What {@link takeSponsorship} answers: counted, or which cap refused it. */
export type TakeSponsorshipReturnType =
  | { taken: true }
  | { taken: false; cap: 'project' | 'sender' | 'budget' }

/**
 * Counts one more sponsored user operation of `sender` on the current UTC day, for the
 * project (with its maximum charge) and for the sender, unless that would pass
 * `projectDailyCap`, `projectDailyBudget` or `dailyCap`. Each counter moves in one statement,
 * so concurrent calls cannot pass a cap together: the project's slot is taken first, then the
 * sender's; when the sender's is refused, the project's is given back (a concurrent call may
 * meanwhile find the project full, which errs on the safe side).
 *
 * @example
 * const take = await takeSponsorship(db, { projectId, sender, dailyCap: 20, projectDailyCap: 1000 })
 * if (!take.taken) refuse(take.cap) // 'project', 'budget' or 'sender'
 */
export async function takeSponsorship(
  db: DbExecutor,
  {
    projectId,
    sender,
    dailyCap,
    projectDailyCap,
    charge = 0n,
    projectDailyBudget,
    now = Date.now(),
  }: TakeSponsorshipParameters,
): Promise<TakeSponsorshipReturnType> {
  const day = utcDay(now)
  const gwei = toGwei(charge)
  const budget =
    projectDailyBudget === undefined ? Number.MAX_SAFE_INTEGER : toGwei(projectDailyBudget)
  if (gwei > budget) return { taken: false, cap: 'budget' }
  const { rowsAffected } = await db.execute(
    `INSERT INTO sponsored_user_operations (project_id, sender, utc_day, op_count, charge_gwei)
     VALUES (?, ?, ?, 1, ?)
     ON CONFLICT (project_id, sender, utc_day) DO UPDATE
       SET op_count = sponsored_user_operations.op_count + 1,
         charge_gwei = sponsored_user_operations.charge_gwei + excluded.charge_gwei
       WHERE sponsored_user_operations.op_count < ?
         AND sponsored_user_operations.charge_gwei + excluded.charge_gwei <= ?`,
    [projectId, PROJECT_SENDER, day, gwei, projectDailyCap, budget],
  )
  if (rowsAffected === 0) {
    const count = await sponsoredToday(db, { projectId, sender: PROJECT_SENDER, now })
    return { taken: false, cap: count >= projectDailyCap ? 'project' : 'budget' }
  }
  if (await takeSlot(db, { projectId, sender: sender.toLowerCase(), day, cap: dailyCap }))
    return { taken: true }
  await giveBack(db, { projectId, sender: PROJECT_SENDER, day, gwei })
  return { taken: false, cap: 'sender' }
}

/** Options of {@link giveBackSponsorship}. */
export type GiveBackSponsorshipParameters = {
  projectId: string
  sender: string
  /** The UTC day that counted it (`YYYY-MM-DD`). */
  day: string
  /** The charge it counted, in wei. */
  charge: bigint
}

/**
 * Undoes a {@link takeSponsorship} of `day`: one operation less for the project and the sender,
 * and its charge off the project's spend (never below zero).
 *
 * @example
 * await giveBackSponsorship(db, { projectId, sender, day: '2026-05-10', charge })
 */
export async function giveBackSponsorship(
  db: DbExecutor,
  { projectId, sender, day, charge }: GiveBackSponsorshipParameters,
): Promise<void> {
  await giveBack(db, { projectId, sender: PROJECT_SENDER, day, gwei: toGwei(charge) })
  await giveBack(db, { projectId, sender: sender.toLowerCase(), day, gwei: 0 })
}

/** Options of {@link addSponsorshipCharge}. */
export type AddSponsorshipChargeParameters = {
  projectId: string
  day: string
  /** More wei counted against the project's budget (negative: less). */
  charge: bigint
  projectDailyBudget: bigint
}

/**
 * Moves the project's spend of `day` by `charge` (a sponsorship asked again with a higher
 * maximum charge), unless that passes its budget; answers whether it moved.
 *
 * @example
 * await addSponsorshipCharge(db, { projectId, day, charge: delta, projectDailyBudget })
 */
export async function addSponsorshipCharge(
  db: DbExecutor,
  { projectId, day, charge, projectDailyBudget }: AddSponsorshipChargeParameters,
): Promise<boolean> {
  const gwei = charge < 0n ? -toGwei(-charge) : toGwei(charge)
  const { rowsAffected } = await db.execute(
    `UPDATE sponsored_user_operations SET charge_gwei = charge_gwei + ?
     WHERE project_id = ? AND sender = ? AND utc_day = ? AND charge_gwei + ? <= ?
       AND charge_gwei + ? >= 0`,
    [gwei, projectId, PROJECT_SENDER, day, gwei, toGwei(projectDailyBudget), gwei],
  )
  return rowsAffected > 0
}

/**
 * How much of its daily budget the project's sponsorships took on the current UTC day, in wei
 * (whole gwei).
 *
 * @example
 * formatEther(await projectChargedToday(db, { projectId })) // '0.0421'
 */
export async function projectChargedToday(
  db: DbExecutor,
  { projectId, now = Date.now() }: Omit<SponsoredOperationsParameters, 'sender'>,
): Promise<bigint> {
  const [row] = await db.query<{ charge_gwei: number | bigint | string }>(
    'SELECT charge_gwei FROM sponsored_user_operations WHERE project_id = ? AND sender = ? AND utc_day = ?',
    [projectId, PROJECT_SENDER, utcDay(now)],
  )
  return row ? BigInt(row.charge_gwei) * GWEI : 0n
}

/** Options of {@link takeRevocation} and {@link giveBackRevocation}. */
export type RevocationSlotParameters = {
  projectId: string
  sender: string
  /** The UTC day (`YYYY-MM-DD`). */
  day: string
}

/**
 * Counts one more sponsored session revocation of `sender` on `day` unless it had `cap`;
 * answers whether it was counted. Revocations pass the daily caps and budget: this is theirs.
 *
 * @example
 * await takeRevocation(db, { projectId, sender, day: utcDay(Date.now()) }, 10) // true
 */
export async function takeRevocation(
  db: DbExecutor,
  { projectId, sender, day }: RevocationSlotParameters,
  cap: number,
): Promise<boolean> {
  const { rowsAffected } = await db.execute(
    `INSERT INTO sponsored_user_operations (project_id, sender, utc_day, op_count, revocation_count)
     VALUES (?, ?, ?, 0, 1)
     ON CONFLICT (project_id, sender, utc_day) DO UPDATE
       SET revocation_count = sponsored_user_operations.revocation_count + 1
       WHERE sponsored_user_operations.revocation_count < ?`,
    [projectId, sender.toLowerCase(), day, cap],
  )
  return rowsAffected > 0
}

/**
 * Undoes a {@link takeRevocation}.
 *
 * @example
 * await giveBackRevocation(db, { projectId, sender, day })
 */
export async function giveBackRevocation(
  db: DbExecutor,
  { projectId, sender, day }: RevocationSlotParameters,
): Promise<void> {
  await db.execute(
    `UPDATE sponsored_user_operations SET revocation_count = revocation_count - 1
     WHERE project_id = ? AND sender = ? AND utc_day = ? AND revocation_count > 0`,
    [projectId, sender.toLowerCase(), day],
  )
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

/** One less on a counter row (and `gwei` off its charge), never below zero. */
async function giveBack(
  db: DbExecutor,
  {
    projectId,
    sender,
    day,
    gwei,
  }: { projectId: string; sender: string; day: string; gwei: number },
): Promise<void> {
  await db.execute(
    `UPDATE sponsored_user_operations
     SET op_count = op_count - 1,
       charge_gwei = CASE WHEN charge_gwei > ? THEN charge_gwei - ? ELSE 0 END
     WHERE project_id = ? AND sender = ? AND utc_day = ? AND op_count > 0`,
    [gwei, gwei, projectId, sender, day],
  )
}

/** How many UTC days of counts are kept: today and yesterday. */
export const SPONSORED_DAYS_KEPT = 2

/**
 * Deletes the counts and sponsorship reservations older than the last
 * {@link SPONSORED_DAYS_KEPT} UTC days: those of `now`'s day and the day before stay. Answers
 * how many rows went.
 *
 * @example
 * await deleteOldSponsorships(db, { now: Date.UTC(2026, 4, 10, 12) }) // 2026-05-08 and before
 */
export async function deleteOldSponsorships(
  db: DbExecutor,
  { now = Date.now() }: { now?: number } = {},
): Promise<number> {
  const oldestKept = utcDay(now - (SPONSORED_DAYS_KEPT - 1) * 86_400_000)
  const counts = await db.execute('DELETE FROM sponsored_user_operations WHERE utc_day < ?', [
    oldestKept,
  ])
  const reservations = await db.execute('DELETE FROM sponsorship_reservations WHERE utc_day < ?', [
    oldestKept,
  ])
  return counts.rowsAffected + reservations.rowsAffected
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
