/**
 * A sponsorship is a reservation of one operation slot of an account: (project, chain, sender,
 * nonce). The paymaster signs only for the account's next nonce of a lane, so whoever asks,
 * there is one reservation per slot: asking again reuses it (no second count), and a reservation
 * whose signatures all expired while its nonce stayed unused is given back. A stranger naming
 * someone's account can at most reserve what that account's own next operation would take.
 * Migration 14: `sponsorship_reservations`.
 */
import type { Address } from 'viem'
import type { Db, DbExecutor } from '../db/Db.js'
import type { OperationKind } from './policy.js'
import {
  addSponsorshipCharge,
  giveBackRevocation,
  giveBackSponsorship,
  type SponsorshipRules,
  sponsoredToday,
  takeRevocation,
  takeSponsorship,
  toGwei,
  utcDay,
} from './sponsorship.js'

/** One account's operation slot, as the paymaster reserves it. */
export type ReservationKey = {
  projectId: string
  /** CAIP-2. */
  chain: string
  sender: Address
  /** The whole EntryPoint nonce (key << 64 | sequence). */
  nonce: bigint
}

/** A stored reservation. */
export type Reservation = ReservationKey & {
  kind: OperationKind
  /** The UTC day whose counts hold it. */
  day: string
  /** The maximum charge counted against the project's budget, in whole gwei (0 for a revocation). */
  chargeGwei: number
  /** Unix seconds: the newest signature's end. */
  validUntil: number
  status: 'held' | 'used'
}

type ReservationRow = {
  project_id: string
  chain: string
  sender: string
  nonce: string
  kind: string
  utc_day: string
  charge_gwei: number | bigint | string
  valid_until: number | bigint | string
  status: string
}

const COLUMNS = 'project_id, chain, sender, nonce, kind, utc_day, charge_gwei, valid_until, status'
const KEY = 'project_id = ? AND chain = ? AND sender = ? AND nonce = ?'
const keyOf = (key: ReservationKey) => [
  key.projectId,
  key.chain,
  key.sender.toLowerCase(),
  key.nonce.toString(),
]

function fromRow(row: ReservationRow): Reservation {
  return {
    projectId: row.project_id,
    chain: row.chain,
    sender: row.sender as Address,
    nonce: BigInt(row.nonce),
    kind: row.kind === 'revocation' ? 'revocation' : 'operation',
    day: row.utc_day,
    chargeGwei: Number(row.charge_gwei),
    validUntil: Number(row.valid_until),
    status: row.status === 'used' ? 'used' : 'held',
  }
}

/**
 * The reservation of an operation slot, if any.
 *
 * @example
 * await findReservation(db, { projectId, chain: 'eip155:31337', sender, nonce: 0n })
 */
export async function findReservation(
  db: DbExecutor,
  key: ReservationKey,
): Promise<Reservation | undefined> {
  const [row] = await db.query<ReservationRow>(
    `SELECT ${COLUMNS} FROM sponsorship_reservations WHERE ${KEY}`,
    keyOf(key),
  )
  return row && fromRow(row)
}

/** Options of {@link reserveSponsorship}. */
export type ReserveSponsorshipParameters = ReservationKey & {
  kind: OperationKind
  /** The operation's maximum charge, in wei (ignored for a revocation). */
  charge: bigint
  /** Unix seconds: the end of the signature about to be given. */
  validUntil: number
  rules: SponsorshipRules
  /** Revocations per account and UTC day. */
  revocationsPerDay: number
  /** Now, in milliseconds; default `Date.now()`. */
  now?: number
}

/** Which limit refused a reservation. */
export type ReservationCap = 'project' | 'sender' | 'budget' | 'revocations'

/** What {@link reserveSponsorship} answers. */
export type ReserveSponsorshipReturnType =
  | { reserved: true; reused: boolean }
  | { reserved: false; cap: ReservationCap }

/** A write that found the reservation changed under it: its transaction is rolled back. */
class ReservationChanged extends Error {
  override name = 'ReservationChanged' as const
}

/**
 * Reserves the slot for a signature valid until `validUntil`:
 * - a new slot counts: an operation one operation for the sender and the project and its
 *   maximum charge against the project's budget (`takeSponsorship`), a revocation one of the
 *   sender's revocations of the day (the caps and budget do not apply to it);
 * - a reserved slot is reused: its end moves to the later one, nothing more is counted, except
 *   a higher maximum charge (the difference goes against the budget) or an operation asked on a
 *   slot reserved for a revocation (it is then counted as an operation).
 * The counts and the reservation row are written in one transaction, so a row always stands for
 * what was counted, whatever runs at the same time; a request that loses a race for the same
 * slot reuses the winner's.
 *
 * @example
 * const reservation = await reserveSponsorship(db, { projectId, chain, sender, nonce, kind: 'operation', charge, validUntil, rules, revocationsPerDay: 10 })
 * if (!reservation.reserved) refuse(reservation.cap)
 */
export async function reserveSponsorship(
  db: Db,
  parameters: ReserveSponsorshipParameters,
): Promise<ReserveSponsorshipReturnType> {
  const { kind, charge, validUntil, rules, revocationsPerDay, now = Date.now() } = parameters
  const key = keyOf(parameters)
  const sender = parameters.sender.toLowerCase()
  const projectId = parameters.projectId
  const today = utcDay(now)
  const gwei = kind === 'operation' ? toGwei(charge) : 0
  const takeOperation = (tx: DbExecutor) =>
    takeSponsorship(tx, {
      projectId,
      sender,
      dailyCap: rules.dailyCap,
      projectDailyCap: rules.projectDailyCap,
      charge,
      projectDailyBudget: rules.projectDailyBudget,
      now,
    })
  /** Runs `write` in a transaction: its refusal, its success, or undefined when it lost a race. */
  const attempt = (write: (tx: DbExecutor) => Promise<ReserveSponsorshipReturnType>) =>
    db.transaction(write).catch((error: unknown) => {
      if (error instanceof ReservationChanged) return undefined
      throw error
    })

  for (let tries = 0; tries < 5; tries++) {
    const existing = await findReservation(db, parameters)
    if (!existing) {
      const created = await attempt(async (tx) => {
        if (kind === 'operation') {
          const take = await takeOperation(tx)
          if (!take.taken) return { reserved: false, cap: take.cap }
        } else if (
          !(await takeRevocation(tx, { projectId, sender, day: today }, revocationsPerDay))
        )
          return { reserved: false, cap: 'revocations' }
        const { rowsAffected } = await tx.execute(
          `INSERT INTO sponsorship_reservations (${COLUMNS}, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'held', ?)
           ON CONFLICT (project_id, chain, sender, nonce) DO NOTHING`,
          [...key, kind, today, gwei, validUntil, now],
        )
        if (rowsAffected === 0) throw new ReservationChanged()
        return { reserved: true, reused: false }
      })
      // Refused by a cap while another request reserved the slot: theirs is reused.
      if (created && (created.reserved || !(await findReservation(db, parameters)))) return created
      continue
    }

    // Reused: its end moves first, so a concurrent give-back of the expired one cannot hit it.
    const extended = await db.execute(
      `UPDATE sponsorship_reservations
       SET valid_until = CASE WHEN valid_until < ? THEN ? ELSE valid_until END
       WHERE ${KEY}`,
      [validUntil, validUntil, ...key],
    )
    if (extended.rowsAffected === 0) continue
    const reused = { reserved: true, reused: true } as const
    if (kind === 'operation' && existing.kind === 'revocation') {
      const upgraded = await attempt(async (tx) => {
        const take = await takeOperation(tx)
        if (!take.taken) return { reserved: false, cap: take.cap }
        const { rowsAffected } = await tx.execute(
          `UPDATE sponsorship_reservations SET kind = 'operation', utc_day = ?, charge_gwei = ?
           WHERE ${KEY} AND kind = 'revocation'`,
          [today, gwei, ...key],
        )
        if (rowsAffected === 0) throw new ReservationChanged()
        await giveBackRevocation(tx, { projectId, sender, day: existing.day })
        return reused
      })
      if (upgraded) return upgraded
      continue
    }
    if (kind === 'operation' && gwei > existing.chargeGwei) {
      const raised = await attempt(async (tx) => {
        const more = BigInt(gwei - existing.chargeGwei) * 1_000_000_000n
        const added = await addSponsorshipCharge(tx, {
          projectId,
          day: existing.day,
          charge: more,
          projectDailyBudget: rules.projectDailyBudget,
        })
        if (!added) return { reserved: false, cap: 'budget' }
        const { rowsAffected } = await tx.execute(
          `UPDATE sponsorship_reservations SET charge_gwei = ? WHERE ${KEY} AND charge_gwei = ?`,
          [gwei, ...key, existing.chargeGwei],
        )
        if (rowsAffected === 0) throw new ReservationChanged()
        return reused
      })
      if (raised) return raised
      continue
    }
    return reused
  }
  throw new Error('The sponsorship reservation kept changing under concurrent requests')
}

/** Options of {@link canReserve}. */
export type CanReserveParameters = ReservationKey & {
  kind: OperationKind
  rules: SponsorshipRules
  revocationsPerDay: number
  /** Now, in milliseconds; default `Date.now()`. */
  now?: number
}

/**
 * Whether {@link reserveSponsorship} would find room for the slot now (before the operation's
 * gas is known: the stub data's check): null when it would (or the slot is reserved already),
 * else the limit that is full.
 *
 * @example
 * await canReserve(db, { projectId, chain, sender, nonce, kind: 'operation', rules, revocationsPerDay: 10 }) // null
 */
export async function canReserve(
  db: DbExecutor,
  parameters: CanReserveParameters,
): Promise<ReservationCap | null> {
  const { projectId, kind, rules, revocationsPerDay, now = Date.now() } = parameters
  const existing = await findReservation(db, parameters)
  if (existing && (existing.kind === 'operation' || kind === 'revocation')) return null
  const sender = parameters.sender.toLowerCase()
  if (kind === 'revocation') {
    const [row] = await db.query<{ revocation_count: number | bigint }>(
      `SELECT revocation_count FROM sponsored_user_operations
       WHERE project_id = ? AND sender = ? AND utc_day = ?`,
      [projectId, sender, utcDay(now)],
    )
    return Number(row?.revocation_count ?? 0) >= revocationsPerDay ? 'revocations' : null
  }
  const [project] = await db.query<{
    op_count: number | bigint
    charge_gwei: number | bigint | string
  }>(
    `SELECT op_count, charge_gwei FROM sponsored_user_operations
     WHERE project_id = ? AND sender = '*' AND utc_day = ?`,
    [projectId, utcDay(now)],
  )
  if (Number(project?.op_count ?? 0) >= rules.projectDailyCap) return 'project'
  if (BigInt(project?.charge_gwei ?? 0) >= BigInt(toGwei(rules.projectDailyBudget))) return 'budget'
  if ((await sponsoredToday(db, { projectId, sender, now })) >= rules.dailyCap) return 'sender'
  return null
}

/** Options of {@link reclaimExpiredReservations}. */
export type ReclaimExpiredReservationsParameters = {
  projectId: string
  /** The EntryPoint's next nonce of each (sender, key), in order, on `chain`. */
  nonces(chain: string, slots: readonly { sender: Address; key: bigint }[]): Promise<bigint[]>
  /** Now, in milliseconds; default `Date.now()`. */
  now?: number
  /** Most reservations looked at; default 100 (the oldest first). */
  limit?: number
}

/**
 * Settles the project's held reservations whose signatures all expired: a nonce the chain has
 * moved past marks its reservation used (its counts stay); a nonce still next gives the
 * reservation back (deleted, its counts undone). Answers how many were given back.
 *
 * @example
 * await reclaimExpiredReservations(db, { projectId, nonces: chain.nonces }) // 3
 */
export async function reclaimExpiredReservations(
  db: DbExecutor,
  { projectId, nonces, now = Date.now(), limit = 100 }: ReclaimExpiredReservationsParameters,
): Promise<number> {
  const nowSeconds = Math.floor(now / 1000)
  const expired = (
    await db.query<ReservationRow>(
      `SELECT ${COLUMNS} FROM sponsorship_reservations
       WHERE project_id = ? AND status = 'held' AND valid_until < ?
       ORDER BY valid_until LIMIT ?`,
      [projectId, nowSeconds, limit],
    )
  ).map(fromRow)
  let released = 0
  const chains = [...new Set(expired.map((reservation) => reservation.chain))]
  for (const chain of chains) {
    const held = expired.filter((reservation) => reservation.chain === chain)
    const next = await nonces(
      chain,
      held.map(({ sender, nonce }) => ({ sender, key: nonce >> 64n })),
    )
    for (const [i, reservation] of held.entries()) {
      const key = keyOf(reservation)
      if ((next[i] ?? 0n) > reservation.nonce) {
        await db.execute(
          `UPDATE sponsorship_reservations SET status = 'used' WHERE ${KEY} AND status = 'held'`,
          key,
        )
        continue
      }
      const { rowsAffected } = await db.execute(
        `DELETE FROM sponsorship_reservations
         WHERE ${KEY} AND status = 'held' AND valid_until < ? AND kind = ? AND charge_gwei = ? AND utc_day = ?`,
        [...key, nowSeconds, reservation.kind, reservation.chargeGwei, reservation.day],
      )
      if (rowsAffected === 0) continue
      const slot = { projectId, sender: reservation.sender, day: reservation.day }
      if (reservation.kind === 'operation')
        await giveBackSponsorship(db, {
          ...slot,
          charge: BigInt(reservation.chargeGwei) * 1_000_000_000n,
        })
      else await giveBackRevocation(db, slot)
      released++
    }
  }
  return released
}
