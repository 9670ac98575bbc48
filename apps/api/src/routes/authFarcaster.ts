import {
  FarcasterSignInError,
  type VerifyFarcasterSignInReturnType,
  verifyFarcasterSignIn,
} from '@porthole/shared'
import type { Hono } from 'hono'
import { z } from 'zod'
import type { AuthContext } from '../auth/AuthContext.js'
import type { FarcasterClient } from '../auth/farcaster.js'
import { DeviceId, Token } from '../auth/schemas.js'
import { createSession, setSessionCookie } from '../auth/sessions.js'
import { hashToken, randomToken } from '../auth/tokens.js'
import { ensureSocialUser, toAuthUser } from '../auth/users.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
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
export const FarcasterStartBody = z.object({ deviceId: DeviceId, nonce: FarcasterNonce })
/** Body of `POST /auth/v1/farcaster/status`. */
export const FarcasterStatusBody = z.object({ loginId: Token, deviceId: DeviceId })

type LoginRow = {
  project_id: string
  device_id: string
  nonce: string
  channel_token: string
  expires_at: number
}

/**
 * Farcaster login for the embedded wallet (Sign In With Farcaster through an auth relay):
 * - `POST /auth/v1/farcaster/start {deviceId, nonce}` → `{url, loginId}`: opens a relay channel
 *   for a message with the frame's nonce, the wallet app's host as domain and its origin as URI,
 *   expiring in 10 minutes; `url` is the `farcaster://connect?…` link (QR code) the user's
 *   Farcaster wallet answers. 403 `FEATURE_DISABLED` when the project does not offer farcaster,
 *   502 `FARCASTER_UNAVAILABLE` when the relay fails.
 * - `POST /auth/v1/farcaster/status {loginId, deviceId}` → `{state: 'pending'}` until the wallet
 *   answers; then the message is checked (domain, URI, nonce, chain, not expired), its signature
 *   (viem) and that the signer is the fid's custody address in the IdRegistry, and the answer is
 *   `{state: 'completed', token, user, recovery, farcaster: {message, signature}}` with the
 *   session cookie — the user of that fid (`socialProvider: 'farcaster'`), created on its first
 *   login, so the same fid is the same user and wallet on every site of the project. The login is
 *   used up. 400 `INVALID_RESULT` for an unknown, used, expired or other-device login; 400
 *   `INVALID_FARCASTER_SIGN_IN` (with `reason`) for a refused message.
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
    const { deviceId, nonce } = parseInput(FarcasterStartBody, await readJson(c.req.raw))
    const socials = resolveRemoteFeatures(c.var.project.features).socials
    if (!farcaster || socials === false || !socials.includes('farcaster'))
      throw new ApiError('FEATURE_DISABLED')
    ctx.cleanup()
    const expiresAt = Date.now() + farcaster.config.loginTtlMs
    let channel: Awaited<ReturnType<FarcasterClient['openChannel']>>
    try {
      channel = await farcaster.openChannel(nonce, expiresAt)
    } catch (cause) {
      throw relayFailed(cause)
    }
    const loginId = randomToken()
    await db.execute(
      `INSERT INTO auth_farcaster_logins
         (login_hash, project_id, device_id, nonce, channel_token, expires_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      [hashToken(loginId), c.var.project.id, deviceId, nonce, channel.channelToken, expiresAt],
    )
    return c.json({ url: channel.url, loginId })
  })

  app.post('/auth/v1/farcaster/status', async (c) => {
    const { loginId, deviceId } = parseInput(FarcasterStatusBody, await readJson(c.req.raw))
    const project = c.var.project
    if (!farcaster) throw new ApiError('FEATURE_DISABLED')
    const loginHash = hashToken(loginId)
    const [row] = await db.query<LoginRow>(
      `SELECT project_id, device_id, nonce, channel_token, expires_at
       FROM auth_farcaster_logins WHERE login_hash = ?`,
      [loginHash],
    )
    if (
      !row ||
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
        domain: farcaster.config.domain,
        uri: farcaster.config.siweUri,
        nonce: row.nonce,
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
    const token = await createSession(db, { projectId: project.id, userId: user.id, deviceId })
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
