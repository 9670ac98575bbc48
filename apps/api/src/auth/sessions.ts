/**
 * Sessions: a random 32-byte token, stored as its SHA-256 with an expiry, sent back in the JSON
 * body and as a partitioned cookie (CHIPS), so the wallet frame keeps it in a third-party context.
 * A session slides: it ends after {@link SESSION_IDLE_MS} without use, and at the latest
 * {@link SESSION_MAX_MS} after its sign-in.
 */
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { DbExecutor } from '../db/Db.js'
import type { AppEnv } from '../http/AppEnv.js'
import { hashToken, randomToken } from './tokens.js'

/** Name of the session cookie. */
export const SESSION_COOKIE = 'porthole_session'
/** Path of the session cookie: only the auth routes receive it. */
export const SESSION_COOKIE_PATH = '/auth/v1'
/**
 * Idle limit: 24 hours. A session unused for this long is refused; each authenticated use moves
 * its expiry to `min(now + SESSION_IDLE_MS, createdAt + SESSION_MAX_MS)`.
 */
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000
/**
 * Absolute limit: 30 days from the sign-in, however often the session is used. Also the cookie's
 * `Max-Age` (the server enforces the idle limit).
 */
export const SESSION_MAX_MS = 30 * 24 * 60 * 60 * 1000
/**
 * Least step of a slide: 1 minute. The new expiry is stored only when it is more than this
 * past the stored one, so a busy session is written at most once a minute (and so may end up to
 * a minute before its idle limit).
 */
export const SESSION_SLIDE_STEP_MS = 60 * 1000

/** Options of {@link createSession}. */
export type CreateSessionParameters = {
  projectId: string
  userId: string
  deviceId: string
  /** The site the sign-in named (a Farcaster login's, one the project allows). */
  site?: string | null
  /** The Farcaster custody address that signed the sign-in (lower-case hex). */
  farcasterCustody?: string | null
}

/**
 * Creates a session and returns its token (only the digest is stored).
 *
 * @example
 * const token = await createSession(db, { projectId, userId, deviceId })
 */
export async function createSession(
  db: DbExecutor,
  { projectId, userId, deviceId, site = null, farcasterCustody = null }: CreateSessionParameters,
): Promise<string> {
  const token = randomToken()
  const now = Date.now()
  await db.execute(
    `INSERT INTO auth_sessions
       (token_hash, project_id, user_id, device_id, created_at, expires_at, site, farcaster_custody)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      hashToken(token),
      projectId,
      userId,
      deviceId,
      now,
      now + SESSION_IDLE_MS,
      site,
      farcasterCustody,
    ],
  )
  return token
}

/** A live session. */
export type Session = {
  userId: string
  tokenHash: string
  deviceId: string
  /** When the sign-in that made this session happened (ms since the epoch). */
  createdAt: number
  /** The site the sign-in named, if it named one (Farcaster). */
  site: string | null
  /** The Farcaster custody address that signed the sign-in (lower-case hex), if any. */
  farcasterCustody: string | null
}

/**
 * The live session of `token` in `projectId`, if any. Finding it is a use: its expiry slides to
 * `min(now + SESSION_IDLE_MS, createdAt + SESSION_MAX_MS)`, written when that is more than
 * {@link SESSION_SLIDE_STEP_MS} past the stored expiry.
 *
 * @example
 * const session = await findSession(db, projectId, token)
 */
export async function findSession(
  db: DbExecutor,
  projectId: string,
  token: string,
): Promise<Session | undefined> {
  const tokenHash = hashToken(token)
  const now = Date.now()
  const [row] = await db.query<{
    user_id: string
    device_id: string
    created_at: number
    expires_at: number
    site: string | null
    farcaster_custody: string | null
  }>(
    `SELECT user_id, device_id, created_at, expires_at, site, farcaster_custody FROM auth_sessions
     WHERE token_hash = ? AND project_id = ? AND expires_at > ?`,
    [tokenHash, projectId, now],
  )
  if (!row) return undefined
  const createdAt = Number(row.created_at)
  const expiresAt = Math.min(now + SESSION_IDLE_MS, createdAt + SESSION_MAX_MS)
  // Never moves an expiry back (a concurrent request may have slid it further).
  if (expiresAt - Number(row.expires_at) > SESSION_SLIDE_STEP_MS)
    await db.execute(
      'UPDATE auth_sessions SET expires_at = ? WHERE token_hash = ? AND expires_at < ?',
      [expiresAt, tokenHash, expiresAt],
    )
  return {
    userId: row.user_id,
    tokenHash,
    deviceId: row.device_id,
    createdAt,
    site: row.site ?? null,
    farcasterCustody: row.farcaster_custody ?? null,
  }
}

/** Options of {@link revokeSessions}. */
export type RevokeSessionsParameters = {
  projectId: string
  userId: string
  /** The digest of a session to keep (the one making the change). */
  keep?: string
  /** Only the sessions of this device (a device removed from the wallet). */
  deviceId?: string
}

/**
 * Deletes every session of a user in a project (all devices), but `keep` when given; returns how
 * many it deleted.
 *
 * @example
 * await revokeSessions(db, { projectId, userId }) // sign-out everywhere
 * await revokeSessions(tx, { projectId, userId, keep: session.tokenHash }) // all other sessions
 * await revokeSessions(db, { projectId, userId, deviceId }) // one removed device's
 */
export async function revokeSessions(
  db: DbExecutor,
  { projectId, userId, keep, deviceId }: RevokeSessionsParameters,
): Promise<number> {
  const { rowsAffected } = await db.execute(
    `DELETE FROM auth_sessions WHERE project_id = ? AND user_id = ?${keep ? ' AND token_hash <> ?' : ''}${deviceId ? ' AND device_id = ?' : ''}`,
    [projectId, userId, ...(keep ? [keep] : []), ...(deviceId ? [deviceId] : [])],
  )
  return rowsAffected
}

/**
 * The session token a request carries: `Authorization: Bearer <token>` first, else the cookie.
 *
 * @example
 * const credential = sessionToken(c) // { token, via: 'bearer' } | undefined
 */
export function sessionToken(
  c: Context<AppEnv>,
): { token: string; via: 'bearer' | 'cookie' } | undefined {
  const bearer = /^Bearer\s+([A-Za-z0-9_-]{43})\s*$/i.exec(c.req.header('authorization') ?? '')?.[1]
  if (bearer) return { token: bearer, via: 'bearer' }
  const cookie = getCookie(c, SESSION_COOKIE)
  if (cookie && /^[A-Za-z0-9_-]{43}$/.test(cookie)) return { token: cookie, via: 'cookie' }
  return undefined
}

/**
 * Sets the session cookie: `HttpOnly; Secure; SameSite=None; Partitioned; Path=/auth/v1`
 * (browsers accept Secure cookies from http://127.0.0.1 and localhost).
 *
 * @example
 * setSessionCookie(c, token)
 */
export function setSessionCookie(c: Context<AppEnv>, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: 'None',
    partitioned: true,
    path: SESSION_COOKIE_PATH,
    maxAge: SESSION_MAX_MS / 1000,
  })
}

/**
 * Clears the session cookie (same attributes, `Max-Age=0`).
 *
 * @example
 * clearSessionCookie(c)
 */
export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, {
    httpOnly: true,
    secure: true,
    sameSite: 'None',
    partitioned: true,
    path: SESSION_COOKIE_PATH,
  })
}
