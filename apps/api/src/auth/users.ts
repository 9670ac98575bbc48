/** Embedded-wallet users, scoped per project (one project on two host sites has one user). */
import { randomUUID } from 'node:crypto'
import type { DbExecutor } from '../db/Db.js'

/** A user as the auth routes answer it. */
export type AuthUser = {
  id: string
  /** The login e-mail, else the social provider's e-mail claim. */
  email: string | null
  socialProvider: string | null
  /** The social `preferred_username`, else its `name`. */
  username: string | null
  /** Milliseconds since the epoch. */
  createdAt: number
  /** True when this sign-in created the user. */
  isNew: boolean
}

/** A stored user row. */
export type UserRow = {
  id: string
  project_id: string
  email: string | null
  social_provider: string | null
  social_email: string | null
  username: string | null
  name: string | null
  address: string | null
  created_at: number
  /** A Farcaster user's recorded custody address (lower-case hex), once known. */
  farcaster_custody: string | null
}

const COLUMNS =
  'id, project_id, email, social_provider, social_email, username, name, address, created_at, farcaster_custody'

/**
 * The API form of a user row.
 *
 * @example
 * toAuthUser(row, true) // { id, email, socialProvider: null, username: null, createdAt, isNew: true }
 */
export function toAuthUser(row: UserRow, isNew = false): AuthUser {
  return {
    id: row.id,
    email: row.email ?? row.social_email,
    socialProvider: row.social_provider,
    username: row.username ?? row.name,
    createdAt: Number(row.created_at),
    isNew,
  }
}

/**
 * A project's user by id.
 *
 * @example
 * const user = await getUser(db, projectId, session.userId)
 */
export async function getUser(
  db: DbExecutor,
  projectId: string,
  userId: string,
): Promise<UserRow | undefined> {
  const [row] = await db.query<UserRow>(
    `SELECT ${COLUMNS} FROM auth_users WHERE project_id = ? AND id = ?`,
    [projectId, userId],
  )
  return row
}

/**
 * A project's user by login e-mail (lower case).
 *
 * @example
 * const user = await findUserByEmail(db, projectId, 'ada@example.com')
 */
export async function findUserByEmail(
  db: DbExecutor,
  projectId: string,
  email: string,
): Promise<UserRow | undefined> {
  const [row] = await db.query<UserRow>(
    `SELECT ${COLUMNS} FROM auth_users WHERE project_id = ? AND email = ?`,
    [projectId, email],
  )
  return row
}

/**
 * The user with this login e-mail, created when there is none (safe under concurrency).
 *
 * @example
 * const { user, isNew } = await ensureEmailUser(tx, projectId, 'ada@example.com')
 */
export async function ensureEmailUser(
  db: DbExecutor,
  projectId: string,
  email: string,
): Promise<{ user: UserRow; isNew: boolean }> {
  const { rowsAffected } = await db.execute(
    `INSERT INTO auth_users (id, project_id, email, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (project_id, email) DO NOTHING`,
    [randomUUID(), projectId, email, Date.now()],
  )
  const user = await findUserByEmail(db, projectId, email)
  if (!user) throw new Error('User vanished after insert')
  return { user, isNew: rowsAffected === 1 }
}

/** What a social provider says about the user. */
export type SocialClaims = {
  sub: string
  email: string | null
  name: string | null
  username: string | null
}

/**
 * The user of a social identity (project, provider, subject), created when new; the stored
 * e-mail, name and username follow the provider's latest claims.
 *
 * @example
 * const { user, isNew } = await ensureSocialUser(db, projectId, 'google', claims)
 */
export async function ensureSocialUser(
  db: DbExecutor,
  projectId: string,
  provider: string,
  claims: SocialClaims,
): Promise<{ user: UserRow; isNew: boolean }> {
  const id = randomUUID()
  await db.execute(
    `INSERT INTO auth_users
       (id, project_id, social_provider, social_subject, social_email, name, username, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project_id, social_provider, social_subject) DO UPDATE SET
       social_email = excluded.social_email,
       name = excluded.name,
       username = excluded.username`,
    [id, projectId, provider, claims.sub, claims.email, claims.name, claims.username, Date.now()],
  )
  const [user] = await db.query<UserRow>(
    `SELECT ${COLUMNS} FROM auth_users
     WHERE project_id = ? AND social_provider = ? AND social_subject = ?`,
    [projectId, provider, claims.sub],
  )
  if (!user) throw new Error('Social user vanished after upsert')
  // The row keeps the id of whoever inserted it first: ours means this sign-in created it.
  return { user, isNew: user.id === id }
}
