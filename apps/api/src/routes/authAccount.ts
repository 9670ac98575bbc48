import { describeUserAgent, deviceRemovalDigest, sharesDigest } from '@porthole/shared'
import type { Context, Hono } from 'hono'
import { getAddress, type Hex, recoverAddress } from 'viem'
import type { AuthContext } from '../auth/AuthContext.js'
import { burnCode, checkCode, reserveSend } from '../auth/codes.js'
import { deliver } from '../auth/deliver.js'
import {
  deviceRef,
  findDevice,
  hasDevices,
  listDevices,
  markNoticesSeen,
  recordDevice,
  revokeDevice,
  touchDevice,
} from '../auth/devices.js'
import { decryptShare, encryptShare } from '../auth/keys.js'
import { codeMail, type WalletNoticeMailParameters, walletNoticeMail } from '../auth/mailer.js'
import {
  DeviceNoticeBody,
  DeviceRevokeBody,
  EmailUpdateStartBody,
  EmailUpdateVerifyBody,
  SharesBody,
} from '../auth/schemas.js'
import { clearSessionCookie, findSession, revokeSessions, sessionToken } from '../auth/sessions.js'
import { getUser, toAuthUser, type UserRow } from '../auth/users.js'
import type { DbExecutor } from '../db/Db.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { clientIp } from '../http/clientIp.js'
import { limitBody } from '../http/limitBody.js'
import { parseInput, readJson } from '../http/parseInput.js'
import { assertCredentialOrigin } from '../http/requireSession.js'
import { recoveryPolicy } from '../projects/features.js'

/** How recent a sign-in must be to receive the recovery ciphertext: 10 minutes. */
export const RECOVERY_LOGIN_MAX_AGE_MS = 10 * 60 * 1000

/**
 * The signed-in user's account (every route needs a session):
 * - `GET /auth/v1/me` → `{user, recovery, authenticatedAt}`; `POST /auth/v1/logout` → 204
 *   (every session of the user in the project deleted: all devices; cookie cleared).
 * - `PUT /auth/v1/shares {setId, replaces, deviceX, address, authShare, recovery, signature,
 *   site?}` →
 *   `{setId, address}`. `signature` is the wallet key's signature of `sharesDigest` (EIP-191 0x00);
 *   400 `INVALID_SHARES_SIGNATURE` otherwise, 409 `ADDRESS_MISMATCH` for another wallet, 409
 *   `SHARES_CHANGED` when `replaces` is not the current set. A replacement is mailed to the user.
 * - `POST /auth/v1/devices {site?}` → 204: the wallet was set up on a new device or site (from
 *   the auth and recovery shares); the user is mailed.
 * - `GET /auth/v1/devices` → `{devices: [{id, kind, site, label, custody, createdAt, lastSeenAt,
 *   current, isNew}]}`: the wallet's devices (see `auth/devices.ts`); `isNew` marks a recovery or
 *   a refused custody this device has not shown yet. `POST /auth/v1/devices/seen` → 204 marks
 *   them shown. `POST /auth/v1/devices/revoke {device, signature}` → 204: removes a device (not
 *   this one), signed by the wallet's own key (`deviceRemovalDigest`; 400
 *   `INVALID_SHARES_SIGNATURE` otherwise): its sessions end and it is refused the auth share.
 *   Only a device that joined after the asking one: 403 `DEVICE_NOT_REMOVABLE` otherwise. 404
 *   `NOT_FOUND` for a device the list does not hold.
 * - `GET /auth/v1/shares` → `{setId, deviceX, address, authShare, recovery: {kind, credentialId?,
 *   ciphertext, custodyChanged?, reseal?}, policy}`; `ciphertext` is `null` unless the session's
 *   sign-in is at most 10 minutes old and, for a Farcaster wallet recovered automatically, was
 *   signed by the custody address the wallet belongs to (`custodyChanged: true` otherwise);
 *   `reseal: true` asks a device holding the wallet to seal its recovery share for this
 *   sign-in's custody address (sealed before it was recorded, or the custody changed: the PUT
 *   then records it). A device listed for the first time is recorded — a recovery (the
 *   ciphertext handed out) is shown on the user's other devices. 403 `DEVICE_REVOKED` for a
 *   removed device. 404 `NO_WALLET` (with the project's recovery policy) before the first set.
 * - `POST /auth/v1/email/update/start {newEmail}` → `{action: 'VERIFY_PRIMARY_OTP' |
 *   'VERIFY_SECONDARY_OTP'}`; `POST /auth/v1/email/update/verify {stage, code}` →
 *   `{action: 'VERIFY_SECONDARY_OTP'}` (primary) or `{email}` (secondary). 409 `EMAIL_IN_USE`.
 *   The change deletes every other session of the user; the one that made it stays.
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
    return c.json({
      user: toAuthUser(user),
      recovery: recoveryPolicy(c.var.project),
      authenticatedAt: c.var.session.createdAt,
    })
  })

  app.use('/auth/v1/logout', ...ctx.guard)
  app.post('/auth/v1/logout', async (c) => {
    // Signs the user out everywhere: a token copied from any device dies with this one.
    const credential = sessionToken(c)
    // Signing everyone out is a write: another site cannot do it with the user's cookie.
    if (credential) assertCredentialOrigin(c, credential.via, ctx.credentialOrigins)
    const projectId = c.var.project.id
    const session = credential && (await findSession(db, projectId, credential.token))
    if (session) await revokeSessions(db, { projectId, userId: session.userId })
    clearSessionCookie(c)
    return c.body(null, 204)
  })

  app.use('/auth/v1/shares', ...signedIn, limitBody(32 * 1024))
  app.put('/auth/v1/shares', async (c) => {
    const body = parseInput(SharesBody, await readJson(c.req.raw))
    const projectId = c.var.project.id
    const { userId } = c.var.session
    // Only the key's holder replaces shares: the signature covers every stored field and the set
    // it replaces, so it is good for this one transition only.
    const signer = await recoverAddress({
      hash: sharesDigest({ projectId, ...body }),
      signature: body.signature as Hex,
    }).catch(() => null)
    if (signer?.toLowerCase() !== body.address) throw new ApiError('INVALID_SHARES_SIGNATURE')
    await assertNotRevoked(db, userId, c.var.session.deviceId)
    // The custody address a Farcaster sign-in carried: sealing for it, by the key's holder,
    // confirms it as the wallet's.
    const custody =
      body.recovery.kind === 'automatic' ? (c.var.session.farcasterCustody ?? null) : null
    const stored = encryptShare(keys().shareKey, body.authShare, userId)
    const { user, replaced } = await db.transaction(async (tx) => {
      // The first share set names the wallet; re-splits must keep it.
      await tx.execute(
        'UPDATE auth_users SET address = ? WHERE id = ? AND project_id = ? AND address IS NULL',
        [body.address, userId, projectId],
      )
      const user = await currentUser(tx, projectId, userId)
      if (user.address !== body.address) throw new ApiError('ADDRESS_MISMATCH')
      const [current] = await tx.query<{ set_id: string; recovery_kind: string }>(
        'SELECT set_id, recovery_kind FROM auth_shares WHERE user_id = ?',
        [userId],
      )
      if ((current?.set_id ?? null) !== body.replaces) throw new ApiError('SHARES_CHANGED')
      const values = [
        body.setId,
        body.deviceX,
        stored,
        body.recovery.ciphertext,
        body.recovery.kind,
        body.recovery.kind === 'passkey' ? body.recovery.credentialId : null,
        Date.now(),
        custody,
      ]
      if (current) {
        const { rowsAffected } = await tx.execute(
          `UPDATE auth_shares SET set_id = ?, device_x = ?, auth_share = ?,
             recovery_ciphertext = ?, recovery_kind = ?, recovery_credential = ?, updated_at = ?,
             recovery_custody = ?
           WHERE user_id = ? AND set_id = ?`,
          [...values, userId, current.set_id],
        )
        if (rowsAffected !== 1) throw new ApiError('SHARES_CHANGED')
      } else
        await tx.execute(
          `INSERT INTO auth_shares (set_id, device_x, auth_share, recovery_ciphertext,
             recovery_kind, recovery_credential, updated_at, recovery_custody, user_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [...values, userId],
        )
      if (custody && user.social_provider === 'farcaster')
        await tx.execute('UPDATE auth_users SET farcaster_custody = ? WHERE id = ?', [
          custody,
          userId,
        ])
      return { user, replaced: current }
    })
    // The device that made the wallet is its first device.
    if (!replaced)
      await recordDevice(db, {
        projectId,
        userId,
        deviceId: c.var.session.deviceId,
        kind: 'created',
        site: body.site ?? c.var.session.site,
        label: describeUserAgent(c.req.header('user-agent')),
        ip: clientIp(c, ctx.trustProxy),
      })
    // Every change of a wallet's shares is mailed to its owner (a passkey set up, a new e-mail);
    // the first split at sign-up is not a change.
    if (replaced)
      await notify(ctx, c, user, {
        event: 'recovery-changed',
        address: body.address,
        site: body.site ?? null,
        recovery: body.recovery.kind,
      })
    return c.json({ setId: body.setId, address: getAddress(body.address) })
  })

  // A device set up from the auth and recovery shares changes nothing stored (it gets the device
  // share at the set's own point), so the wallet frame reports it, and the owner is mailed.
  // Every device route needs a session ('/devices/*' matches '/devices' too).
  app.use('/auth/v1/devices/*', ...signedIn)
  app.post('/auth/v1/devices', ctx.mailLimit, small, async (c) => {
    const { site } = parseInput(DeviceNoticeBody, await readJson(c.req.raw))
    const user = await currentUser(db, c.var.project.id, c.var.session.userId)
    await touchDevice(db, user.id, c.var.session.deviceId, site ?? null)
    const [row] = await db.query<{ recovery_kind: string }>(
      'SELECT recovery_kind FROM auth_shares WHERE user_id = ?',
      [user.id],
    )
    if (!row || !user.address) throw new ApiError('NO_WALLET')
    await notify(ctx, c, user, {
      event: 'new-device',
      address: user.address,
      site: site ?? null,
      recovery: row.recovery_kind === 'passkey' ? 'passkey' : 'automatic',
    })
    return c.body(null, 204)
  })

  app.get('/auth/v1/devices', async (c) => {
    const { userId, deviceId } = c.var.session
    await assertNotRevoked(db, userId, deviceId)
    return c.json({ devices: await listDevices(db, userId, deviceId) })
  })

  app.post('/auth/v1/devices/seen', async (c) => {
    await assertNotRevoked(db, c.var.session.userId, c.var.session.deviceId)
    await markNoticesSeen(db, c.var.session.userId, c.var.session.deviceId)
    return c.body(null, 204)
  })

  app.post('/auth/v1/devices/revoke', small, async (c) => {
    const { device, signature } = parseInput(DeviceRevokeBody, await readJson(c.req.raw))
    const projectId = c.var.project.id
    const { userId, deviceId } = c.var.session
    const user = await currentUser(db, projectId, userId)
    // Only the wallet's key removes a device: a session alone (a phished login, a new custody
    // address that got no wallet) cannot cut the owner's devices off.
    const signer = user.address
      ? await recoverAddress({
          hash: deviceRemovalDigest({ projectId, address: user.address, device }),
          signature: signature as Hex,
        }).catch(() => null)
      : null
    if (!user.address || signer?.toLowerCase() !== user.address)
      throw new ApiError('INVALID_SHARES_SIGNATURE')
    await assertNotRevoked(db, userId, deviceId)
    if (device === deviceRef(deviceId))
      throw new ApiError('INVALID_REQUEST', { details: 'device: this device (sign out instead)' })
    // A device removes only devices that joined after it: a newcomer that rebuilt the key (a
    // phished login) cannot cut the owner's devices off before the owner moves the funds.
    const here = await findDevice(db, userId, deviceId)
    const target = (await listDevices(db, userId, deviceId)).find((d) => d.id === device)
    if (!target) throw new ApiError('NOT_FOUND')
    if (!here || Number(here.created_at) > target.createdAt)
      throw new ApiError('DEVICE_NOT_REMOVABLE')
    if (!(await revokeDevice(db, { projectId, userId, ref: device })))
      throw new ApiError('NOT_FOUND')
    return c.body(null, 204)
  })

  app.get('/auth/v1/shares', async (c) => {
    const { userId, createdAt, deviceId } = c.var.session
    const session = c.var.session
    const device = await findDevice(db, userId, deviceId)
    // A removed device gets no auth share, whatever session it holds.
    if (device?.revoked_at) throw new ApiError('DEVICE_REVOKED')
    const [row] = await db.query<{
      set_id: string
      device_x: number | null
      auth_share: string
      recovery_ciphertext: string
      recovery_kind: string
      recovery_credential: string | null
      recovery_custody: string | null
      address: string | null
      social_provider: string | null
      farcaster_custody: string | null
    }>(
      `SELECT s.set_id, s.device_x, s.auth_share, s.recovery_ciphertext, s.recovery_kind,
         s.recovery_credential, s.recovery_custody, u.address, u.social_provider,
         u.farcaster_custody
       FROM auth_shares s JOIN auth_users u ON u.id = s.user_id
       WHERE s.user_id = ? AND u.project_id = ?`,
      [userId, c.var.project.id],
    )
    const policy = recoveryPolicy(c.var.project)
    if (!row?.address) throw new ApiError('NO_WALLET', { fields: { recovery: policy } })
    // The recovery ciphertext only goes to a sign-in of the last few minutes: recovery needs a
    // fresh login, not a long-lived session.
    const fresh = Date.now() - createdAt <= RECOVERY_LOGIN_MAX_AGE_MS
    // A Farcaster wallet recovered automatically belongs to a custody address: a sign-in by
    // another (the fid moved: a transfer, a Farcaster recovery, a sale) gets no recovery share.
    const custodyBound = row.social_provider === 'farcaster' && row.recovery_kind === 'automatic'
    const login = session.farcasterCustody
    const custodyChanged = custodyBound && (login === null || login !== row.farcaster_custody)
    const reseal = custodyBound && login !== null && row.recovery_custody !== login
    const handOut = fresh && !custodyChanged
    if (!device)
      await recordDevice(db, {
        projectId: c.var.project.id,
        userId,
        deviceId,
        // A recovery is shown on the user's other devices; the first device seen of a wallet of
        // before the list is listed quietly.
        kind: handOut && (await hasDevices(db, userId)) ? 'recovered' : 'known',
        site: session.site,
        label: describeUserAgent(c.req.header('user-agent')),
        ip: clientIp(c, ctx.trustProxy),
        custody: login,
      })
    else await touchDevice(db, userId, deviceId, session.site)
    return c.json({
      setId: row.set_id,
      deviceX: Number(row.device_x),
      address: getAddress(row.address),
      authShare: decryptShare(keys().shareKey, row.auth_share, userId),
      recovery: {
        kind: row.recovery_kind,
        ...(row.recovery_credential ? { credentialId: row.recovery_credential } : {}),
        ciphertext: handOut ? row.recovery_ciphertext : null,
        ...(custodyChanged ? { custodyChanged: true } : {}),
        ...(reseal ? { reseal: true } : {}),
      },
      policy,
    })
  })

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
      // The new address is the user's login: every other session (a token stolen before, a
      // device the user no longer holds) ends with the change; this one goes on.
      await db.transaction(async (tx) => {
        await tx.execute('UPDATE auth_users SET email = ? WHERE id = ? AND project_id = ?', [
          email,
          userId,
          projectId,
        ])
        await revokeSessions(tx, { projectId, userId, keep: c.var.session.tokenHash })
      })
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

/** Mails a custody notice to the user's e-mail (login or social), naming the request's device. */
async function notify(
  ctx: Pick<AuthContext, 'mailer' | 'onError' | 'trustProxy'>,
  c: Context<AppEnv>,
  user: UserRow,
  notice: Pick<WalletNoticeMailParameters, 'event' | 'site' | 'recovery'> & { address: string },
): Promise<void> {
  const to = user.email ?? user.social_email
  if (!to) return
  await ctx.mailer
    .send(
      walletNoticeMail({
        to,
        ...notice,
        address: getAddress(notice.address),
        device: describeUserAgent(c.req.header('user-agent')),
        ip: clientIp(c, ctx.trustProxy),
      }),
    )
    .catch(ctx.onError)
}

/** 403 `DEVICE_REVOKED` when the user removed this device from the wallet. */
async function assertNotRevoked(db: DbExecutor, userId: string, deviceId: string): Promise<void> {
  if ((await findDevice(db, userId, deviceId))?.revoked_at) throw new ApiError('DEVICE_REVOKED')
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
