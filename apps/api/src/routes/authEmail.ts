import { isOriginAllowed } from '@porthole/shared'
import type { Hono } from 'hono'
import type { AuthContext } from '../auth/AuthContext.js'
import { checkCode, reserveSend } from '../auth/codes.js'
import { deliver } from '../auth/deliver.js'
import { codeMail } from '../auth/mailer.js'
import { EmailStartBody, EmailVerifyBody } from '../auth/schemas.js'
import { createSession, setSessionCookie } from '../auth/sessions.js'
import { ensureEmailUser, toAuthUser } from '../auth/users.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { limitBody } from '../http/limitBody.js'
import { parseInput, readJson } from '../http/parseInput.js'
import { recoveryPolicy, resolveRemoteFeatures } from '../projects/features.js'
import type { Project } from '../projects/Project.js'

/**
 * E-mail login (spec §4 login action VERIFY_OTP):
 * - `POST /auth/v1/email/start {email, deviceId, site}` → `{action: 'VERIFY_OTP'}` and a code mail
 *   naming `site` (the host page's origin; 403 `ORIGIN_NOT_ALLOWED` unless the project allows it)
 *   and the project, whether or not the address has an account (the answer never tells). 429 `COOLDOWN` /
 *   `LOCKED` with `retryAfter`.
 * - `POST /auth/v1/email/verify {email, deviceId, code}` → `{token, user, recovery}` and the
 *   session cookie. 400 `INVALID_CODE` (`attemptsLeft`) / `CODE_EXPIRED`, 429 `LOCKED`.
 *
 * A session alone never rebuilds a key: on a new device the wallet frame still needs the
 * recovery share, which the recovery service releases only after its own check of the user (its
 * own device-approval mail) or which the user's passkey unseals.
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
    const { email, site } = parseInput(EmailStartBody, await readJson(c.req.raw))
    const project = c.var.project
    assertEmailEnabled(project)
    // The mail names the site that asked, and only a site the project allows can ask: a code
    // relayed to a phishing page's request is recognisable by the site the mail names.
    if (!isOriginAllowed(site, project.origins)) throw new ApiError('ORIGIN_NOT_ALLOWED')
    ctx.cleanup()
    const key = { projectId: project.id, purpose: 'login', subject: email } as const
    const reserved = await reserveSend(db, key, { email, codeKey: keys().codeKey })
    await deliver(
      ctx,
      reserved,
      codeMail({ to: email, code: reserved.code!, login: { site, project: project.name } }),
    )
    return c.json({ action: 'VERIFY_OTP' as const })
  })

  app.use('/auth/v1/email/verify', ...ctx.guard, small)
  app.post('/auth/v1/email/verify', async (c) => {
    const { email, deviceId, code } = parseInput(EmailVerifyBody, await readJson(c.req.raw))
    const project = c.var.project
    assertEmailEnabled(project)
    ctx.cleanup()
    await checkCode(
      db,
      { projectId: project.id, purpose: 'login', subject: email },
      code,
      keys().codeKey,
    )
    const { user, isNew, token } = await db.transaction(async (tx) => {
      const { user, isNew } = await ensureEmailUser(tx, project.id, email)
      const token = await createSession(tx, { projectId: project.id, userId: user.id, deviceId })
      return { user, isNew, token }
    })
    setSessionCookie(c, token)
    return c.json({ token, user: toAuthUser(user, isNew), recovery: recoveryPolicy(project) })
  })
}

/** 403 `FEATURE_DISABLED` unless the project offers e-mail login. */
function assertEmailEnabled(project: Project): void {
  if (!resolveRemoteFeatures(project.features).email) throw new ApiError('FEATURE_DISABLED')
}
