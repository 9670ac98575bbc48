import type { Context, Hono } from 'hono'
import type { AuthContext } from '../auth/AuthContext.js'
import { checkCode, reserveSend } from '../auth/codes.js'
import { deliver } from '../auth/deliver.js'
import { HTML_PAGE_CSP, htmlPage } from '../auth/htmlPage.js'
import { codeMail, deviceMail } from '../auth/mailer.js'
import { DeviceApproveQuery, EmailStartBody, EmailVerifyBody } from '../auth/schemas.js'
import { createSession, setSessionCookie } from '../auth/sessions.js'
import { hashToken, randomToken } from '../auth/tokens.js'
import {
  approveDevice,
  ensureEmailUser,
  findUserByEmail,
  getUser,
  isDeviceApproved,
  toAuthUser,
} from '../auth/users.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { limitBody } from '../http/limitBody.js'
import { parseInput, readJson } from '../http/parseInput.js'
import { resolveRemoteFeatures } from '../projects/features.js'
import type { Project } from '../projects/Project.js'

/** A device-approval link works for 15 minutes. */
export const DEVICE_TOKEN_TTL_MS = 15 * 60 * 1000

/**
 * E-mail login (spec §4 login actions VERIFY_DEVICE and VERIFY_OTP):
 * - `POST /auth/v1/email/start {email, deviceId}` → `{action: 'VERIFY_OTP'}` (a code is mailed)
 *   or `{action: 'VERIFY_DEVICE'}` (an existing user on a device they have not approved: an
 *   approval link is mailed). 429 `COOLDOWN` / `LOCKED` with `retryAfter`.
 * - `GET /auth/v1/device/approve?token&projectId` → HTML; approves the device and mails a code.
 * - `POST /auth/v1/device/status {email, deviceId}` → `{approved}`.
 * - `POST /auth/v1/email/verify {email, deviceId, code}` → `{token, user}` and the session
 *   cookie. 400 `INVALID_CODE` (`attemptsLeft`) / `CODE_EXPIRED`, 429 `LOCKED`, 403
 *   `DEVICE_NOT_APPROVED`.
 *
 * @example
 * authEmailRoutes(app, ctx)
 */
export function authEmailRoutes(app: Hono<AppEnv>, ctx: AuthContext): void {
  const { db } = ctx
  const keys = () => ctx.keys()
  const small = limitBody(4 * 1024)

  app.use('/auth/v1/email/start', ...ctx.guard, ctx.mailLimit, small)
  app.post('/auth/v1/email/start', async (c) => {
    const { email, deviceId } = parseInput(EmailStartBody, await readJson(c.req.raw))
    const project = c.var.project
    assertEmailEnabled(project)
    ctx.cleanup()
    const key = { projectId: project.id, purpose: 'login', subject: email } as const
    const user = await findUserByEmail(db, project.id, email)
    if (user && !(await isDeviceApproved(db, user.id, deviceId))) {
      // The approval mail takes the cooldown's turn but leaves a code already sent alive.
      const reserved = await reserveSend(db, key, {
        email,
        codeKey: keys().codeKey,
        newCode: false,
      })
      const token = randomToken()
      await db.execute(
        `INSERT INTO auth_device_tokens (token_hash, project_id, user_id, device_id, expires_at)
         VALUES (?, ?, ?, ?, ?)`,
        [hashToken(token), project.id, user.id, deviceId, Date.now() + DEVICE_TOKEN_TTL_MS],
      )
      const link = `${ctx.publicUrl}/auth/v1/device/approve?${new URLSearchParams({ token, projectId: project.id })}`
      await deliver(ctx, reserved, deviceMail({ to: email, link }))
      return c.json({ action: 'VERIFY_DEVICE' as const })
    }
    const reserved = await reserveSend(db, key, { email, codeKey: keys().codeKey })
    await deliver(ctx, reserved, codeMail({ to: email, code: reserved.code! }))
    return c.json({ action: 'VERIFY_OTP' as const })
  })

  app.use('/auth/v1/device/approve', ...ctx.guard)
  app.get('/auth/v1/device/approve', async (c) => {
    const project = c.var.project
    const parsed = DeviceApproveQuery.safeParse(c.req.query())
    const row = parsed.success ? await takeDeviceToken(ctx, project.id, parsed.data.token) : null
    const user = row ? await getUser(db, project.id, row.user_id) : undefined
    if (!row || !user?.email)
      return page(
        c,
        400,
        'Link expired',
        'This approval link is invalid, expired or already used. Start the sign-in again in the app.',
      )
    await approveDevice(db, user.id, row.device_id)
    const key = { projectId: project.id, purpose: 'login', subject: user.email } as const
    try {
      // Not subject to the cooldown, but it starts one.
      const reserved = await reserveSend(db, key, {
        email: user.email,
        codeKey: keys().codeKey,
        cooldown: false,
      })
      await deliver(ctx, reserved, codeMail({ to: user.email, code: reserved.code! }))
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      return page(
        c,
        error.status === 429 ? 429 : 503,
        'Device approved',
        error.code === 'LOCKED'
          ? `This device is approved, but there were too many wrong codes. ${error.shortMessage}.`
          : 'This device is approved, but we could not send the code. Return to the app and start the sign-in again.',
      )
    }
    return page(
      c,
      200,
      'Device approved',
      'Device approved — return to the app and enter the code we just sent.',
    )
  })

  app.use('/auth/v1/device/status', ...ctx.guard, small)
  app.post('/auth/v1/device/status', async (c) => {
    const { email, deviceId } = parseInput(EmailStartBody, await readJson(c.req.raw))
    const user = await findUserByEmail(db, c.var.project.id, email)
    return c.json({ approved: user ? await isDeviceApproved(db, user.id, deviceId) : false })
  })

  app.use('/auth/v1/email/verify', ...ctx.guard, small)
  app.post('/auth/v1/email/verify', async (c) => {
    const { email, deviceId, code } = parseInput(EmailVerifyBody, await readJson(c.req.raw))
    const project = c.var.project
    assertEmailEnabled(project)
    ctx.cleanup()
    // Legitimate flows only reach here from an approved device (or for a new user).
    const existing = await findUserByEmail(db, project.id, email)
    if (existing && !(await isDeviceApproved(db, existing.id, deviceId)))
      throw new ApiError('DEVICE_NOT_APPROVED')
    await checkCode(
      db,
      { projectId: project.id, purpose: 'login', subject: email },
      code,
      keys().codeKey,
    )
    const { user, isNew, token } = await db.transaction(async (tx) => {
      const { user, isNew } = await ensureEmailUser(tx, project.id, email)
      await approveDevice(tx, user.id, deviceId)
      const token = await createSession(tx, { projectId: project.id, userId: user.id, deviceId })
      return { user, isNew, token }
    })
    setSessionCookie(c, token)
    return c.json({ token, user: toAuthUser(user, isNew) })
  })
}

/** 403 `FEATURE_DISABLED` unless the project offers e-mail login. */
function assertEmailEnabled(project: Project): void {
  if (!resolveRemoteFeatures(project.features).email) throw new ApiError('FEATURE_DISABLED')
}

/** Uses up a live approval token of the project; `null` when there is none. */
async function takeDeviceToken(
  { db }: AuthContext,
  projectId: string,
  token: string,
): Promise<{ user_id: string; device_id: string } | null> {
  const tokenHash = hashToken(token)
  const [row] = await db.query<{
    project_id: string
    user_id: string
    device_id: string
    expires_at: number
  }>(
    'SELECT project_id, user_id, device_id, expires_at FROM auth_device_tokens WHERE token_hash = ?',
    [tokenHash],
  )
  if (!row || row.project_id !== projectId) return null
  const { rowsAffected } = await db.execute('DELETE FROM auth_device_tokens WHERE token_hash = ?', [
    tokenHash,
  ])
  if (rowsAffected === 0 || Number(row.expires_at) <= Date.now()) return null
  return row
}

function page(c: Context<AppEnv>, status: 200 | 400 | 429 | 503, title: string, message: string) {
  return c.html(htmlPage(title, message), status, {
    'Content-Security-Policy': HTML_PAGE_CSP,
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  })
}
