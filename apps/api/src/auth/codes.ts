/**
 * One-time codes: 6 digits, stored as an HMAC, 10 minutes, single use; a 30 s cooldown between
 * sends (spec §5, §9) and a 15-minute lock after 5 wrong attempts. One row per
 * (project, purpose, subject); every check-and-change is a single conditional statement, so
 * concurrent requests (and API instances) cannot both pass.
 */
import type { DbExecutor } from '../db/Db.js'
import { ApiError } from '../errors.js'
import { hashCode, randomCode, sameDigest } from './tokens.js'

/** Code lifetime: 10 minutes. */
export const CODE_TTL_MS = 10 * 60 * 1000
/** Spec §9 "E-mail login cooldown: 30 s". */
export const COOLDOWN_MS = 30 * 1000
/** Wrong attempts before the lock. */
export const MAX_ATTEMPTS = 5
/** Lock duration: 15 minutes. */
export const LOCK_MS = 15 * 60 * 1000

/** What a code is for: e-mail login (subject: the e-mail) or an e-mail change (subject: user id). */
export type CodePurpose = 'login' | 'update-primary' | 'update-secondary'

/** The row a code lives in. */
export type CodeKey = { projectId: string; purpose: CodePurpose; subject: string }

type CodeRow = {
  email: string
  new_email: string | null
  code_hash: string | null
  expires_at: number
  sent_at: number
  attempts: number
  locked_until: number | null
}

/** Options of {@link reserveSend}. */
export type ReserveSendParameters = {
  /** Where the mail goes. */
  email: string
  /** For `update-primary`: the address the user wants. */
  newEmail?: string | null
  /** Hashing key of the codes. */
  codeKey: Buffer
  /** `false` for a send that is not subject to the cooldown (it still starts one). */
  cooldown?: boolean
  /** `false` to keep the current code and only start the cooldown (the device-approval mail). */
  newCode?: boolean
}

/** A reserved send: the code to mail (unless `newCode: false`) and how to undo the reservation. */
export type ReservedSend = { code: string | undefined; release(): Promise<void> }

/**
 * Reserves the next mail for a code row: throws 429 `LOCKED` while locked and 429 `COOLDOWN`
 * ('Please try again after {n} seconds') within 30 s of the last send; otherwise stores a new
 * code (replacing the previous one) and the send time. Attempts carry over to the new code
 * unless the previous code had expired or a lock has ended. Call `release()` when the mail could
 * not be sent, so the user may retry at once.
 *
 * @example
 * const { code, release } = await reserveSend(db, key, { email, codeKey })
 * await mailer.send(codeMail({ to: email, code: code! })).catch(async (e) => { await release(); throw e })
 */
export async function reserveSend(
  db: DbExecutor,
  key: CodeKey,
  { email, newEmail = null, codeKey, cooldown = true, newCode = true }: ReserveSendParameters,
): Promise<ReservedSend> {
  const now = Date.now()
  const code = newCode ? randomCode() : undefined
  const codeHash = code === undefined ? null : hashCode(codeKey, context(key), code)
  const keep = code === undefined
  const { rowsAffected } = await db.execute(
    `INSERT INTO auth_codes
       (project_id, purpose, subject, email, new_email, code_hash, expires_at, sent_at, attempts)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)
     ON CONFLICT (project_id, purpose, subject) DO UPDATE SET
       email = excluded.email,
       new_email = excluded.new_email,
       code_hash = ${keep ? 'auth_codes.code_hash' : 'excluded.code_hash'},
       expires_at = ${keep ? 'auth_codes.expires_at' : 'excluded.expires_at'},
       sent_at = excluded.sent_at,
       attempts = CASE
         WHEN auth_codes.locked_until IS NOT NULL OR auth_codes.expires_at <= ? THEN 0
         ELSE auth_codes.attempts END,
       locked_until = NULL
     WHERE (auth_codes.locked_until IS NULL OR auth_codes.locked_until <= ?)
       AND auth_codes.sent_at <= ?`,
    [
      key.projectId,
      key.purpose,
      key.subject,
      email,
      newEmail,
      codeHash,
      keep ? now : now + CODE_TTL_MS,
      now,
      now,
      now,
      cooldown ? now - COOLDOWN_MS : now,
    ],
  )
  if (rowsAffected === 0) {
    const row = await readRow(db, key)
    if (row?.locked_until != null && Number(row.locked_until) > now) throw locked(row, now)
    const wait = row ? Number(row.sent_at) + COOLDOWN_MS - now : 0
    throw cooldownError(Math.max(1, Math.ceil(wait / 1000)))
  }
  return {
    code,
    release: async () => {
      // Only if nothing was sent since: forget this send and its code.
      await db.execute(
        `UPDATE auth_codes SET sent_at = 0${keep ? '' : ', code_hash = NULL'}
         WHERE project_id = ? AND purpose = ? AND subject = ? AND sent_at = ?`,
        [key.projectId, key.purpose, key.subject, now],
      )
    },
  }
}

/** The stored row of a code after a successful check. */
export type CheckedCode = { email: string; newEmail: string | null }

/**
 * Checks a code and uses it up. Errors: 429 `LOCKED` (also on the 5th wrong attempt, which
 * burns the code), 400 `CODE_EXPIRED` (none, used or expired), 400 `INVALID_CODE` with
 * `attemptsLeft`.
 *
 * @example
 * const { email } = await checkCode(db, { projectId, purpose: 'login', subject: email }, '042917', keys.codeKey)
 */
export async function checkCode(
  db: DbExecutor,
  key: CodeKey,
  code: string,
  codeKey: Buffer,
): Promise<CheckedCode> {
  const now = Date.now()
  const row = await readRow(db, key)
  if (row?.locked_until != null && Number(row.locked_until) > now) throw locked(row, now)
  if (!row?.code_hash || Number(row.expires_at) <= now) throw new ApiError('CODE_EXPIRED')
  const where = 'WHERE project_id = ? AND purpose = ? AND subject = ?'
  const params = [key.projectId, key.purpose, key.subject]
  if (sameDigest(row.code_hash, hashCode(codeKey, context(key), code))) {
    // Single use: only one of concurrent correct submissions clears the hash. The resend
    // cooldown guards an outstanding code, so a used one ends it (a sign-in on another site
    // right after this one may mail again).
    const { rowsAffected } = await db.execute(
      `UPDATE auth_codes SET code_hash = NULL, attempts = 0, sent_at = 0 ${where} AND code_hash = ? AND expires_at > ?`,
      [...params, row.code_hash, now],
    )
    if (rowsAffected === 0) throw new ApiError('CODE_EXPIRED')
    return { email: row.email, newEmail: row.new_email }
  }
  await db.execute(
    `UPDATE auth_codes SET
       attempts = attempts + 1,
       locked_until = CASE WHEN attempts + 1 >= ? THEN ? ELSE locked_until END,
       code_hash = CASE WHEN attempts + 1 >= ? THEN NULL ELSE code_hash END
     ${where} AND code_hash IS NOT NULL`,
    [MAX_ATTEMPTS, now + LOCK_MS, MAX_ATTEMPTS, ...params],
  )
  const after = await readRow(db, key)
  if (after?.locked_until != null && Number(after.locked_until) > now) throw locked(after, now)
  if (!after?.code_hash) throw new ApiError('CODE_EXPIRED')
  throw new ApiError('INVALID_CODE', {
    fields: { attemptsLeft: Math.max(0, MAX_ATTEMPTS - Number(after.attempts)) },
  })
}

/**
 * Burns the current code of a row (e.g. a stale e-mail change), keeping cooldown and lock.
 *
 * @example
 * await burnCode(db, { projectId, purpose: 'update-secondary', subject: userId })
 */
export async function burnCode(db: DbExecutor, key: CodeKey): Promise<void> {
  await db.execute(
    'UPDATE auth_codes SET code_hash = NULL WHERE project_id = ? AND purpose = ? AND subject = ?',
    [key.projectId, key.purpose, key.subject],
  )
}

/**
 * 429 `LOCKED` if the row is locked now.
 *
 * @example
 * await assertNotLocked(db, key)
 */
export async function assertNotLocked(db: DbExecutor, key: CodeKey): Promise<void> {
  const now = Date.now()
  const row = await readRow(db, key)
  if (row?.locked_until != null && Number(row.locked_until) > now) throw locked(row, now)
}

/**
 * The spec's cooldown error: 429 `COOLDOWN`, 'Please try again after {n} seconds', `retryAfter`.
 *
 * @example
 * cooldownError(12).toJSON() // { code: 'COOLDOWN', message: 'Please try again after 12 seconds', retryAfter: 12 }
 */
export function cooldownError(seconds: number): ApiError {
  return new ApiError('COOLDOWN', {
    message: `Please try again after ${seconds} seconds`,
    fields: { retryAfter: seconds },
    headers: { 'Retry-After': String(seconds) },
  })
}

function locked(row: CodeRow, now: number): ApiError {
  const seconds = Math.max(1, Math.ceil((Number(row.locked_until) - now) / 1000))
  const minutes = Math.ceil(seconds / 60)
  return new ApiError('LOCKED', {
    message: `Too many attempts. Please try again after ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
    fields: { retryAfter: seconds },
    headers: { 'Retry-After': String(seconds) },
  })
}

function context(key: CodeKey): string[] {
  return [key.purpose, key.projectId, key.subject]
}

async function readRow(db: DbExecutor, key: CodeKey): Promise<CodeRow | undefined> {
  const [row] = await db.query<CodeRow>(
    `SELECT email, new_email, code_hash, expires_at, sent_at, attempts, locked_until
     FROM auth_codes WHERE project_id = ? AND purpose = ? AND subject = ?`,
    [key.projectId, key.purpose, key.subject],
  )
  return row
}
