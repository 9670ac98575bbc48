import {
  describeUserAgent,
  FarcasterSignInError,
  isOriginAllowed,
  portholeRequestId,
  type VerifyFarcasterSignInReturnType,
  verifyFarcasterSignIn,
} from '@porthole/shared'
import type { Hono } from 'hono'
import { z } from 'zod'
import type { AuthContext } from '../auth/AuthContext.js'
import { findDevice, recordDevice } from '../auth/devices.js'
import type { FarcasterClient } from '../auth/farcaster.js'
import { DeviceId, Site, Token } from '../auth/schemas.js'
import { createSession, setSessionCookie } from '../auth/sessions.js'
import { hashToken, randomToken } from '../auth/tokens.js'
import { ensureSocialUser, toAuthUser } from '../auth/users.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { clientIp } from '../http/clientIp.js'
import { limitBody } from '../http/limitBody.js'
import { parseInput, readJson } from '../http/parseInput.js'
import { recoveryPolicy, resolveRemoteFeatures } from '../projects/features.js'

/**
 * The Sign In With Farcaster nonce the wallet frame chose: the RFC 7638 thumbprint of a key only
 * it holds, as 64 hex digits (SIWF nonces are alphanumeric), so the signed message proves the
 * frame's login to the recovery service and is useless to anyone else who sees it.
 */
export const FarcasterNonce = z.string().regex(/^[0-9a-f]{64}$/, 'Expected 64 hex digits')

/** Body of `POST /auth/v1/farcaster/start`. */
export const FarcasterStartBody = z.object({
  deviceId: DeviceId,
  nonce: FarcasterNonce,
  site: Site,
})
/** Body of `POST /auth/v1/farcaster/status`. */
export const FarcasterStatusBody = z.object({ loginId: Token, deviceId: DeviceId })

type LoginRow = {
  project_id: string
  device_id: string
  nonce: string
  channel_token: string
  expires_at: number
  site: string | null
}

/**
 * Farcaster login for the embedded wallet (Sign In With Farcaster through an auth relay):
 * - `POST /auth/v1/farcaster/start {deviceId, nonce, site}` → `{url, loginId}`: opens a relay
 *   channel for a message that names who asks — `site` (the host page's origin the modal
 *   verified; 403 `ORIGIN_NOT_ALLOWED` unless the project allows it) as domain and URI, the
 *   project by id and registered name as `Request ID` — with the frame's nonce, expiring in 10
 *   minutes; `url` is the `farcaster://connect?…` link (QR code) the user's Farcaster app answers.
 *   403 `FEATURE_DISABLED` when the project does not offer farcaster, 502 `FARCASTER_UNAVAILABLE`
 *   when the relay fails.
 * - `POST /auth/v1/farcaster/status {loginId, deviceId}` → `{state: 'pending'}` until the wallet
 *   answers; then the message is checked (that site, that project, the nonce, chain, not
 *   expired), its signature (viem) and that the signer is the fid's custody address in the
 *   IdRegistry, and the answer is `{state: 'completed', token, user, recovery, farcaster:
 *   {message, signature}}` with the session cookie — the user of that fid (`socialProvider:
 *   'farcaster'`), created on its first login, so the same fid is the same user and wallet on
 *   every site of the project. The session records the site and the custody address. The first
 *   login records the custody address the wallet belongs to; a later login signed by another
 *   custody (the fid was transferred or recovered) still signs in, but a new device gets no
 *   recovery share (`GET /auth/v1/shares`) and is listed as refused, so the user's devices show
 *   it. The login is used up. 400 `INVALID_RESULT` for an unknown, used, expired or other-device
 *   login; 400 `INVALID_FARCASTER_SIGN_IN` (with `reason`) for a refused message.
 *
 * @example
 * authFarcasterRoutes(app, ctx, createFarcasterClient(config))
 */
export function authFarcasterRoutes(
  app: Hono<AppEnv>,
  ctx: AuthContext,
  farcaster: FarcasterClient | null,
): void {
  const { db } = ctx
  const relayFailed = (cause: unknown) => {
    ctx.onError(cause)
    return new ApiError('FARCASTER_UNAVAILABLE', { cause })
  }

  app.use('/auth/v1/farcaster/*', ...ctx.guard, limitBody(4 * 1024))

  app.post('/auth/v1/farcaster/start', async (c) => {
    const { deviceId, nonce, site } = parseInput(FarcasterStartBody, await readJson(c.req.raw))
    const project = c.var.project
    const socials = resolveRemoteFeatures(project.features).socials
    if (!farcaster || socials === false || !socials.includes('farcaster'))
      throw new ApiError('FEATURE_DISABLED')
    // Only a site the project allows can be named: a login started for another site (a phishing
    // page's) cannot pass for this project's, and the approver sees which site asks.
    if (!isOriginAllowed(site, project.origins)) throw new ApiError('ORIGIN_NOT_ALLOWED')
    ctx.cleanup()
    const expiresAt = Date.now() + farcaster.config.loginTtlMs
    let channel: Awaited<ReturnType<FarcasterClient['openChannel']>>
    try {
      channel = await farcaster.openChannel({
        nonce,
        site,
        requestId: portholeRequestId({ projectId: project.id, projectName: project.name }),
        expiresAt,
      })
    } catch (cause) {
      throw relayFailed(cause)
    }
    const loginId = randomToken()
    await db.execute(
      `INSERT INTO auth_farcaster_logins
         (login_hash, project_id, device_id, nonce, channel_token, expires_at, site)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [hashToken(loginId), project.id, deviceId, nonce, channel.channelToken, expiresAt, site],
    )
    return c.json({ url: channel.url, loginId })
  })

  app.post('/auth/v1/farcaster/status', async (c) => {
    const { loginId, deviceId } = parseInput(FarcasterStatusBody, await readJson(c.req.raw))
    const project = c.var.project
    if (!farcaster) throw new ApiError('FEATURE_DISABLED')
    const loginHash = hashToken(loginId)
    const [row] = await db.query<LoginRow>(
      `SELECT project_id, device_id, nonce, channel_token, expires_at, site
       FROM auth_farcaster_logins WHERE login_hash = ?`,
      [loginHash],
    )
    if (
      !row?.site ||
      row.project_id !== project.id ||
      row.device_id !== deviceId ||
      Number(row.expires_at) <= Date.now()
    )
      throw new ApiError('INVALID_RESULT')
    const useUp = () =>
      db.execute('DELETE FROM auth_farcaster_logins WHERE login_hash = ?', [loginHash])
    let status: Awaited<ReturnType<FarcasterClient['status']>>
    try {
      status = await farcaster.status(row.channel_token)
    } catch (cause) {
      throw relayFailed(cause)
    }
    if (status.state === 'pending') return c.json({ state: 'pending' })
    if (status.state === 'expired') {
      await useUp()
      throw new ApiError('INVALID_RESULT')
    }
    let verified: VerifyFarcasterSignInReturnType
    try {
      verified = await verifyFarcasterSignIn({
        message: status.message,
        signature: status.signature,
        domain: new URL(row.site).host,
        uri: `${row.site}/`,
        nonce: row.nonce,
        projectId: project.id,
        chainId: farcaster.config.chainId,
        custodyOf: farcaster.custodyOf,
      })
    } catch (error) {
      if (!(error instanceof FarcasterSignInError)) throw error
      if (error.reason === 'unavailable') throw relayFailed(error)
      // A refused answer ends the login: the channel will not be answered again.
      await useUp()
      throw new ApiError('INVALID_FARCASTER_SIGN_IN', {
        details: error.message,
        fields: { reason: error.reason },
      })
    }
    // Used up first, whatever follows: a completed login works once.
    const { rowsAffected } = await useUp()
    if (rowsAffected === 0) throw new ApiError('INVALID_RESULT')
    const { user, isNew } = await ensureSocialUser(db, project.id, 'farcaster', {
      sub: String(verified.fid),
      email: null,
      name: status.displayName,
      username: status.username,
    })
    const custody = verified.custody.toLowerCase()
    // The wallet belongs to the custody address of its first sign-in (users of before this was
    // recorded: of their first sign-in since).
    if (user.farcaster_custody === null)
      await db.execute(
        'UPDATE auth_users SET farcaster_custody = ? WHERE id = ? AND farcaster_custody IS NULL',
        [custody, user.id],
      )
    else if (user.farcaster_custody !== custody && !(await findDevice(db, user.id, deviceId)))
      // Another custody key on a device the wallet does not know: it gets no wallet
      // (`GET /auth/v1/shares`), and the user's devices are told.
      await recordDevice(db, {
        projectId: project.id,
        userId: user.id,
        deviceId,
        kind: 'custody-refused',
        site: row.site,
        label: describeUserAgent(c.req.header('user-agent')),
        ip: clientIp(c, ctx.trustProxy),
        custody,
      })
    const token = await createSession(db, {
      projectId: project.id,
      userId: user.id,
      deviceId,
      site: row.site,
      farcasterCustody: custody,
    })
    setSessionCookie(c, token)
    return c.json({
      state: 'completed',
      token,
      user: toAuthUser(user, isNew),
      recovery: recoveryPolicy(project),
      farcaster: { message: status.message, signature: status.signature },
    })
  })
}
