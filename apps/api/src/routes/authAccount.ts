import { randomUUID } from 'node:crypto'
import type { Hono } from 'hono'
import { SignJWT } from 'jose'
import { getAddress } from 'viem'
import type { AuthContext } from '../auth/AuthContext.js'
import { burnCode, checkCode, reserveSend } from '../auth/codes.js'
import { deliver } from '../auth/deliver.js'
import { decryptShare, encryptShare } from '../auth/keys.js'
import { codeMail } from '../auth/mailer.js'
import { EmailUpdateStartBody, EmailUpdateVerifyBody, SharesBody } from '../auth/schemas.js'
import { clearSessionCookie, sessionToken } from '../auth/sessions.js'
import { hashToken } from '../auth/tokens.js'
import { getUser, toAuthUser, type UserRow } from '../auth/users.js'
import type { DbExecutor } from '../db/Db.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { limitBody } from '../http/limitBody.js'
import { parseInput, readJson } from '../http/parseInput.js'

/** Audience of recovery tickets (the recovery key service). */
export const RECOVERY_TICKET_AUDIENCE = 'porthole-recovery'
/** Recovery tickets live 60 seconds. */
export const RECOVERY_TICKET_TTL_SECONDS = 60

/**
 * The signed-in user's account (all but `/jwks.json` need a session):
 * - `GET /auth/v1/me` → `{user}`; `POST /auth/v1/logout` → 204 (session deleted, cookie cleared).
 * - `PUT /auth/v1/shares {setId, address, authShare, recoveryCiphertext}` → `{setId, address}`;
 *   409 `ADDRESS_MISMATCH` when a wallet with another address exists. `GET /auth/v1/shares` →
 *   the same four fields, or 404 `NO_WALLET`.
 * - `POST /auth/v1/recovery/ticket` → `{ticket}` (EdDSA JWT for the recovery service, 60 s);
 *   `GET /auth/v1/jwks.json` → `{keys}` (no project needed).
 * - `POST /auth/v1/email/update/start {newEmail}` → `{action: 'VERIFY_PRIMARY_OTP' |
 *   'VERIFY_SECONDARY_OTP'}`; `POST /auth/v1/email/update/verify {stage, code}` →
 *   `{action: 'VERIFY_SECONDARY_OTP'}` (primary) or `{email}` (secondary). 409 `EMAIL_IN_USE`.
 *
 * @example
 * authAccountRoutes(app, ctx)
 */
export function authAccountRoutes(app: Hono<AppEnv>, ctx: AuthContext): void {
  const { db } = ctx
  const keys = () => ctx.keys()
  const signedIn = [...ctx.guard, ctx.session] as const
  const small = limitBody(4 * 1024)

  app.use('/auth/v1/me', ...signedIn)
  app.get('/auth/v1/me', async (c) => {
    const user = await currentUser(db, c.var.project.id, c.var.session.userId)
    return c.json({ user: toAuthUser(user) })
  })

  app.use('/auth/v1/logout', ...ctx.guard)
  app.post('/auth/v1/logout', async (c) => {
    const credential = sessionToken(c)
    if (credential)
      await db.execute('DELETE FROM auth_sessions WHERE token_hash = ? AND project_id = ?', [
        hashToken(credential.token),
        c.var.project.id,
      ])
    clearSessionCookie(c)
    return c.body(null, 204)
  })

  app.use('/auth/v1/shares', ...signedIn, limitBody(32 * 1024))
  app.put('/auth/v1/shares', async (c) => {
    const body = parseInput(SharesBody, await readJson(c.req.raw))
    const projectId = c.var.project.id
    const { userId } = c.var.session
    const stored = encryptShare(keys().shareKey, body.authShare, userId)
    await db.transaction(async (tx) => {
      // The first share set names the wallet; re-splits must keep it.
      await tx.execute(
        'UPDATE auth_users SET address = ? WHERE id = ? AND project_id = ? AND address IS NULL',
        [body.address, userId, projectId],
      )
      const user = await currentUser(tx, projectId, userId)
      if (user.address !== body.address) throw new ApiError('ADDRESS_MISMATCH')
      await tx.execute(
        `INSERT INTO auth_shares (user_id, set_id, auth_share, recovery_ciphertext, updated_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET
           set_id = excluded.set_id,
           auth_share = excluded.auth_share,
           recovery_ciphertext = excluded.recovery_ciphertext,
           updated_at = excluded.updated_at`,
        [userId, body.setId, stored, body.recoveryCiphertext, Date.now()],
      )
    })
    return c.json({ setId: body.setId, address: getAddress(body.address) })
  })

  app.get('/auth/v1/shares', async (c) => {
    const { userId } = c.var.session
    const [row] = await db.query<{
      set_id: string
      auth_share: string
      recovery_ciphertext: string
      address: string | null
    }>(
      `SELECT s.set_id, s.auth_share, s.recovery_ciphertext, u.address
       FROM auth_shares s JOIN auth_users u ON u.id = s.user_id
       WHERE s.user_id = ? AND u.project_id = ?`,
      [userId, c.var.project.id],
    )
    if (!row?.address) throw new ApiError('NO_WALLET')
    return c.json({
      setId: row.set_id,
      address: getAddress(row.address),
      authShare: decryptShare(keys().shareKey, row.auth_share, userId),
      recoveryCiphertext: row.recovery_ciphertext,
    })
  })

  app.use('/auth/v1/recovery/ticket', ...signedIn)
  app.post('/auth/v1/recovery/ticket', async (c) => {
    const ticket = await new SignJWT({ pid: c.var.project.id })
      .setProtectedHeader({ alg: 'EdDSA', kid: keys().publicJwk.kid, typ: 'JWT' })
      .setIssuer(ctx.publicUrl)
      .setAudience(RECOVERY_TICKET_AUDIENCE)
      .setSubject(c.var.session.userId)
      .setIssuedAt()
      .setExpirationTime(`${RECOVERY_TICKET_TTL_SECONDS}s`)
      .setJti(randomUUID())
      .sign(keys().signingKey)
    return c.json({ ticket })
  })

  app.use('/auth/v1/jwks.json', ctx.limit)
  app.get('/auth/v1/jwks.json', (c) =>
    c.json({ keys: [keys().publicJwk] }, 200, { 'Cache-Control': 'public, max-age=300' }),
  )

  app.use('/auth/v1/email/update/start', ...signedIn, ctx.mailLimit, small)
  app.post('/auth/v1/email/update/start', async (c) => {
    const { newEmail } = parseInput(EmailUpdateStartBody, await readJson(c.req.raw))
    const projectId = c.var.project.id
    const user = await currentUser(db, projectId, c.var.session.userId)
    const current = user.email ?? user.social_email
    if (newEmail === current)
      throw new ApiError('INVALID_REQUEST', { details: 'newEmail: same as the current e-mail' })
    await assertEmailFree(db, projectId, newEmail, user.id)
    ctx.cleanup()
    // A code already sent to an address the user no longer wants must not complete the change.
    await burnCode(db, { projectId, purpose: 'update-secondary', subject: user.id })
    if (current) {
      const key = { projectId, purpose: 'update-primary', subject: user.id } as const
      const reserved = await reserveSend(db, key, {
        email: current,
        newEmail,
        codeKey: keys().codeKey,
      })
      await deliver(ctx, reserved, codeMail({ to: current, code: reserved.code! }))
      return c.json({ action: 'VERIFY_PRIMARY_OTP' as const })
    }
    await sendSecondary(ctx, projectId, user.id, newEmail, true)
    return c.json({ action: 'VERIFY_SECONDARY_OTP' as const })
  })

  app.use('/auth/v1/email/update/verify', ...signedIn, small)
  app.post('/auth/v1/email/update/verify', async (c) => {
    const { stage, code } = parseInput(EmailUpdateVerifyBody, await readJson(c.req.raw))
    const projectId = c.var.project.id
    const { userId } = c.var.session
    if (stage === 'primary') {
      const key = { projectId, purpose: 'update-primary', subject: userId } as const
      const { newEmail } = await checkCode(db, key, code, keys().codeKey)
      if (!newEmail) throw new ApiError('CODE_EXPIRED')
      await assertEmailFree(db, projectId, newEmail, userId)
      // Earned by the primary code: not subject to the cooldown (it starts one).
      await sendSecondary(ctx, projectId, userId, newEmail, false)
      return c.json({ action: 'VERIFY_SECONDARY_OTP' as const })
    }
    const key = { projectId, purpose: 'update-secondary', subject: userId } as const
    const { email } = await checkCode(db, key, code, keys().codeKey)
    await assertEmailFree(db, projectId, email, userId)
    try {
      await db.execute('UPDATE auth_users SET email = ? WHERE id = ? AND project_id = ?', [
        email,
        userId,
        projectId,
      ])
    } catch (error) {
      // The unique (project, email) index: someone took it in between.
      await assertEmailFree(db, projectId, email, userId)
      throw error
    }
    return c.json({ email })
  })
}

async function sendSecondary(
  ctx: AuthContext,
  projectId: string,
  userId: string,
  newEmail: string,
  cooldown: boolean,
): Promise<void> {
  const key = { projectId, purpose: 'update-secondary', subject: userId } as const
  const reserved = await reserveSend(ctx.db, key, {
    email: newEmail,
    codeKey: ctx.keys().codeKey,
    cooldown,
  })
  await deliver(ctx, reserved, codeMail({ to: newEmail, code: reserved.code! }))
}

/** The session's user (401 when it was deleted meanwhile). */
async function currentUser(db: DbExecutor, projectId: string, userId: string): Promise<UserRow> {
  const user = await getUser(db, projectId, userId)
  if (!user) throw new ApiError('UNAUTHENTICATED')
  return user
}

/** 409 `EMAIL_IN_USE` when another user of the project logs in with `email`. */
async function assertEmailFree(
  db: DbExecutor,
  projectId: string,
  email: string,
  userId: string,
): Promise<void> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM auth_users WHERE project_id = ? AND email = ? AND id <> ?',
    [projectId, email, userId],
  )
  if (rows.length > 0) throw new ApiError('EMAIL_IN_USE')
}
