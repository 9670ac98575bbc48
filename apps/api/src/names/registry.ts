/**
 * The name registry in the API database (tables `profile_names` and `profile_addresses`,
 * migration 7). Names are stored lower-cased with their suffix; addresses lower-cased, answered
 * checksummed. One registry for every project: a name is unique across the service.
 */
import type { NameAccount } from '@porthole/shared'
import { getAddress } from 'viem'
import type { Db, DbExecutor } from '../db/Db.js'

/** A registration that passed every check (see `verifyRegistration.ts`). */
export type NewName = {
  /** Lower case, with the suffix. */
  name: string
  coinType: number
  /** Any case; stored lower-cased. */
  address: string
  message: string
  signature: string
  projectId: string
  /** The project user the name is for (see `registrant.ts`): its quota counts the name. */
  userId: string
  /** Most names the user may hold ({@link MAX_NAMES_PER_USER}). */
  maxNames: number
  /** Milliseconds since the epoch. */
  now: number
}

/**
 * Names one embedded-wallet user may register (on its wallet address and its smart account
 * together). Names cannot be released, so a few leave room for a second handle or a fixed typo.
 */
export const MAX_NAMES_PER_USER = 3

/** What {@link registerName} did: `registered`, or why not (`taken`, `limit`). */
export type RegisterNameReturnType = 'registered' | 'taken' | 'limit'

/** Thrown inside the transaction to undo the name of a user past the quota. */
class QuotaReached extends Error {}

type NameRow = {
  name: string
  attributes: string
  registered_at: number | string
  updated_at: number | string
}
type AddressRow = {
  name: string
  coin_type: number | string
  address: string
  created_at: number | string
}

/**
 * Registers a name with its first address and counts it in the user's quota, in one
 * transaction: `taken` when someone has the name (the insert is the check, so two registrations
 * of one name never both succeed; nothing is counted), `limit` when the user already holds
 * `maxNames` (the count moves in one conditional statement, so concurrent registrations cannot
 * pass it; nothing is stored).
 *
 * @example
 * const result = await registerName(db, registration)
 * if (result === 'taken') throw new NameError('NAME_TAKEN', 'taken')
 */
export async function registerName(db: Db, registration: NewName): Promise<RegisterNameReturnType> {
  const { name, coinType, address, message, signature, projectId, userId, maxNames, now } =
    registration
  try {
    return await db.transaction(async (tx) => {
      const inserted = await tx.execute(
        `INSERT INTO profile_names
          (name, project_id, attributes, message, signature, registered_at, updated_at)
         VALUES (?, ?, '{}', ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
        [name, projectId, message, signature, now, now],
      )
      if (inserted.rowsAffected !== 1) return 'taken'
      const counted = await tx.execute(
        `INSERT INTO profile_name_quota (user_id, name_count) VALUES (?, 1)
         ON CONFLICT (user_id) DO UPDATE SET name_count = profile_name_quota.name_count + 1
           WHERE profile_name_quota.name_count < ?`,
        [userId, maxNames],
      )
      if (counted.rowsAffected !== 1) throw new QuotaReached()
      await tx.execute(
        `INSERT INTO profile_addresses (name, coin_type, address, created_at) VALUES (?, ?, ?, ?)`,
        [name, coinType, address.toLowerCase(), now],
      )
      return 'registered'
    })
  } catch (error) {
    if (error instanceof QuotaReached) return 'limit'
    throw error
  }
}

/**
 * A name's record (addresses by coin type, attributes, times in seconds), or null.
 *
 * @example
 * const account = await lookupName(db, 'alice.porthole.id')
 */
export async function lookupName(db: DbExecutor, name: string): Promise<NameAccount | null> {
  const [row] = await db.query<NameRow>(
    'SELECT name, attributes, registered_at, updated_at FROM profile_names WHERE name = ?',
    [name.toLowerCase()],
  )
  if (!row) return null
  return (await accountsOf(db, [row]))[0] ?? null
}

/**
 * Every name bound to `address` (on any coin type), the primary one first: the oldest
 * registration, then by name.
 *
 * @example
 * const [primary] = await namesOf(db, '0xf39f…')
 */
export async function namesOf(db: DbExecutor, address: string): Promise<NameAccount[]> {
  const rows = await db.query<NameRow>(
    `SELECT DISTINCT n.name, n.attributes, n.registered_at, n.updated_at
     FROM profile_names n JOIN profile_addresses a ON a.name = n.name
     WHERE a.address = ?
     ORDER BY n.registered_at, n.name`,
    [address.toLowerCase()],
  )
  return accountsOf(db, rows)
}

/**
 * Which of `names` are registered.
 *
 * @example
 * const taken = await registeredNames(db, ['alice.porthole.id', 'alice1.porthole.id'])
 */
export async function registeredNames(
  db: DbExecutor,
  names: readonly string[],
): Promise<Set<string>> {
  if (!names.length) return new Set()
  const rows = await db.query<{ name: string }>(
    `SELECT name FROM profile_names WHERE name IN (${names.map(() => '?').join(', ')})`,
    names.map((name) => name.toLowerCase()),
  )
  return new Set(rows.map((row) => row.name))
}

async function accountsOf(db: DbExecutor, rows: readonly NameRow[]): Promise<NameAccount[]> {
  if (!rows.length) return []
  const addresses = await db.query<AddressRow>(
    `SELECT name, coin_type, address, created_at FROM profile_addresses
     WHERE name IN (${rows.map(() => '?').join(', ')}) ORDER BY coin_type`,
    rows.map((row) => row.name),
  )
  return rows.map((row) => ({
    name: row.name,
    registered: Math.floor(Number(row.registered_at) / 1000),
    updated: Math.floor(Number(row.updated_at) / 1000),
    addresses: Object.fromEntries(
      addresses
        .filter((a) => a.name === row.name)
        .map((a) => [
          String(Number(a.coin_type)),
          {
            address: getAddress(a.address),
            created: new Date(Number(a.created_at)).toISOString(),
          },
        ]),
    ),
    attributes: parseAttributes(row.attributes),
  }))
}

function parseAttributes(text: string): Record<string, string> {
  try {
    const value = JSON.parse(text) as unknown
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {}
    return Object.fromEntries(
      Object.entries(value).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    )
  } catch {
    return {}
  }
}
