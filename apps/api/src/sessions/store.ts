/**
 * Smart sessions in the API database (table `smart_sessions`, migration 10): the session keys
 * the modal registered for smart accounts, keyed by chain (CAIP-2), account and pci (the session
 * key's address), both lower-case hex.
 */
import type { DbExecutor } from '../db/Db.js'

/** The account a session belongs to. */
export type SessionAccount = {
  /** CAIP-2 (`eip155:31337`). */
  chainId: string
  /** Lower-case hex. */
  address: string
}

/** A session as stored. */
export type StoredSession = SessionAccount & {
  /** The session key's address, lower-case hex. */
  pci: string
  projectId: string
  /** The registering request's `Origin`, or null. */
  origin: string | null
  signer: unknown
  permissions: unknown
  policies: unknown
  /** Unix seconds. */
  expiry: number
  /** Milliseconds since the epoch. */
  createdAt: number
  /** Milliseconds since the epoch, or null. */
  revokedAt: number | null
}

type SessionRow = {
  chain_id: string
  address: string
  pci: string
  project_id: string
  origin: string | null
  signer: string
  permissions: string
  policies: string
  expiry: number | string
  created_at: number | string
  revoked_at: number | string | null
}

const COLUMNS =
  'chain_id, address, pci, project_id, origin, signer, permissions, policies, expiry, created_at, revoked_at'

/** The most sessions {@link listSessions} answers for one account (the newest). */
export const MAX_LISTED_SESSIONS = 100

const sessionOf = (row: SessionRow): StoredSession => ({
  chainId: row.chain_id,
  address: row.address,
  pci: row.pci,
  projectId: row.project_id,
  origin: row.origin,
  signer: JSON.parse(row.signer),
  permissions: JSON.parse(row.permissions),
  policies: JSON.parse(row.policies),
  expiry: Number(row.expiry),
  createdAt: Number(row.created_at),
  revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
})

/**
 * Stores a session, replacing an earlier registration of the same (account, pci). A revoked
 * registration is replaced only by another grant (another expiry): re-posting the revoked grant
 * (still on chain until the wallet's revoke is mined) answers false and writes nothing, so it
 * cannot undo the user's decision. The upsert is the check (no race with a revoke).
 *
 * @example
 * if (!(await saveSession(db, session))) throw new ApiError('SESSION_REVOKED')
 */
export async function saveSession(
  db: DbExecutor,
  session: Omit<StoredSession, 'revokedAt'>,
): Promise<boolean> {
  const { rowsAffected } = await db.execute(
    `INSERT INTO smart_sessions (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
     ON CONFLICT (chain_id, address, pci) DO UPDATE SET
       project_id = excluded.project_id, origin = excluded.origin, signer = excluded.signer,
       permissions = excluded.permissions, policies = excluded.policies,
       expiry = excluded.expiry, created_at = excluded.created_at, revoked_at = NULL
     WHERE smart_sessions.revoked_at IS NULL OR smart_sessions.expiry <> excluded.expiry`,
    [
      session.chainId,
      session.address.toLowerCase(),
      session.pci.toLowerCase(),
      session.projectId,
      session.origin,
      JSON.stringify(session.signer),
      JSON.stringify(session.permissions),
      JSON.stringify(session.policies),
      session.expiry,
      session.createdAt,
    ],
  )
  return rowsAffected === 1
}

/**
 * An account's sessions, newest first (at most {@link MAX_LISTED_SESSIONS}).
 *
 * @example
 * const sessions = await listSessions(db, { chainId: 'eip155:31337', address })
 */
export async function listSessions(
  db: DbExecutor,
  { chainId, address }: SessionAccount,
): Promise<StoredSession[]> {
  const rows = await db.query<SessionRow>(
    `SELECT ${COLUMNS} FROM smart_sessions WHERE chain_id = ? AND address = ?
     ORDER BY created_at DESC, pci LIMIT ${MAX_LISTED_SESSIONS}`,
    [chainId, address.toLowerCase()],
  )
  return rows.map(sessionOf)
}

/**
 * One session of an account, or null.
 *
 * @example
 * const session = await getSession(db, { chainId: 'eip155:31337', address, pci })
 */
export async function getSession(
  db: DbExecutor,
  { chainId, address, pci }: SessionAccount & { pci: string },
): Promise<StoredSession | null> {
  const [row] = await db.query<SessionRow>(
    `SELECT ${COLUMNS} FROM smart_sessions WHERE chain_id = ? AND address = ? AND pci = ?`,
    [chainId, address.toLowerCase(), pci.toLowerCase()],
  )
  return row ? sessionOf(row) : null
}

/**
 * Marks a session revoked at `at` (ms); a session revoked already keeps its first time, and an
 * unknown one is left alone.
 *
 * @example
 * await revokeSession(db, { chainId: 'eip155:31337', address, pci, at: Date.now() })
 */
export async function revokeSession(
  db: DbExecutor,
  { chainId, address, pci, at }: SessionAccount & { pci: string; at: number },
): Promise<void> {
  await db.execute(
    `UPDATE smart_sessions SET revoked_at = ?
     WHERE chain_id = ? AND address = ? AND pci = ? AND revoked_at IS NULL`,
    [at, chainId, address.toLowerCase(), pci.toLowerCase()],
  )
}
