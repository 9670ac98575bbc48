/**
 * Wallet sign-in (SIWX) routes:
 * - `GET /auth/v1/siwx/nonce` → `{ nonce }`: single use, valid 5 minutes (deleted after).
 * - `POST /auth/v1/siwx/sessions` `{ message, signature, caipNetworkId }` → `{ token, session }`:
 *   the message checked (`verifySignIn.ts`), the nonce used up, the session stored per address
 *   and network; `token` (kept by the modal) reads and revokes it.
 * - `GET /auth/v1/siwx/sessions/current` (`Authorization: Bearer <token>`) → `{ session }`, 404
 *   once revoked or expired; `POST …/current/revoke` revokes it (204).
 * - `POST /auth/v1/siwx/verify` `{ message, signature }` → `{ valid, … }`: for a host's server,
 *   whether that signed message is a live session of the project.
 * Under `/auth/` so answers carrying tokens are never compressed.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Hono, MiddlewareHandler } from 'hono'
import { z } from 'zod'
import type { DbExecutor } from '../db/Db.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { parseInput, readJson } from '../http/parseInput.js'
import { checkSignInMessage, SIWX, verifySignInSignature } from './verifySignIn.js'

const SignIn = z.strictObject({
  message: z.string().min(1).max(8192),
  signature: z.string().min(1).max(2048),
  caipNetworkId: z.string().regex(/^(eip155|solana):[-_a-zA-Z0-9]{1,32}$/),
})
const Verify = z.strictObject({
  message: z.string().min(1).max(8192),
  signature: z.string().min(1).max(2048),
})

type SessionRow = {
  address: string
  caip_network_id: string
  message: string
  signature: string
  expires_at: number | string
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex')
const sessionOf = (row: SessionRow) => ({
  address: row.address,
  caipNetworkId: row.caip_network_id,
  message: row.message,
  signature: row.signature,
  expiresAt: Number(row.expires_at),
})

/** Options of {@link siwxRoutes}. */
export type SiwxRoutesOptions = {
  db: DbExecutor
  /** RPC upstreams by CAIP-2 id (contract accounts are verified on their chain). */
  upstreams: Readonly<Record<string, string>>
  now?: () => number
  /** Deletes expired rows now and then (`createCleanup`'s `maybeRun`); called per nonce. */
  cleanup?: () => void
}

/**
 * Mounts the sign-in routes.
 *
 * @example
 * siwxRoutes(app, guard, { db, upstreams: config.upstreams })
 */
export function siwxRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  { db, upstreams, now = Date.now, cleanup = () => {} }: SiwxRoutesOptions,
): void {
  app.use('/auth/v1/siwx/*', ...guard)

  app.get('/auth/v1/siwx/nonce', async (c) => {
    // Each call stores a row: old ones go, so a stranger's flood stays 5 minutes' worth.
    cleanup()
    const nonce = randomBytes(12).toString('base64url').replace(/[-_]/g, '0')
    await db.execute('INSERT INTO siwx_nonces (nonce, project_id, created_at) VALUES (?, ?, ?)', [
      nonce,
      c.var.project.id,
      now(),
    ])
    return c.json({ nonce })
  })

  app.post('/auth/v1/siwx/sessions', async (c) => {
    const input = parseInput(SignIn, await readJson(c.req.raw))
    const project = c.var.project
    const at = now()
    const checked = checkSignInMessage(input, { origins: project.origins, now: at })
    const valid = await verifySignInSignature(
      checked,
      input.message,
      input.signature,
      upstreams[input.caipNetworkId],
    )
    if (!valid) throw new ApiError('INVALID_SIGN_IN', { details: 'signature: not by the address' })
    // One use, within its life, by this project: the update is the check (no race).
    const used = await db.execute(
      `UPDATE siwx_nonces SET used_at = ?
       WHERE nonce = ? AND project_id = ? AND used_at IS NULL AND created_at > ?`,
      [at, checked.message.nonce, project.id, at - SIWX.nonceTtlMs],
    )
    if (used.rowsAffected !== 1)
      throw new ApiError('INVALID_SIGN_IN', { details: 'nonce: unknown, used or expired' })
    const token = randomBytes(32).toString('base64url')
    await db.execute(
      `INSERT INTO siwx_sessions
        (token_hash, project_id, address, caip_network_id, message, signature, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        hash(token),
        project.id,
        checked.address,
        input.caipNetworkId,
        input.message,
        input.signature,
        at,
        checked.expiresAt,
      ],
    )
    return c.json({
      token,
      session: {
        address: checked.address,
        caipNetworkId: input.caipNetworkId,
        message: input.message,
        signature: input.signature,
        expiresAt: checked.expiresAt,
      },
    })
  })

  const current = async (projectId: string, authorization: string | undefined) => {
    const token = /^Bearer ([A-Za-z0-9_-]{20,100})$/.exec(authorization ?? '')?.[1]
    if (!token) throw new ApiError('UNAUTHENTICATED')
    const [row] = await db.query<SessionRow & { token_hash: string }>(
      `SELECT token_hash, address, caip_network_id, message, signature, expires_at FROM siwx_sessions
       WHERE token_hash = ? AND project_id = ? AND revoked_at IS NULL AND expires_at > ?`,
      [hash(token), projectId, now()],
    )
    if (!row) throw new ApiError('NOT_FOUND')
    return row
  }

  app.get('/auth/v1/siwx/sessions/current', async (c) =>
    c.json({ session: sessionOf(await current(c.var.project.id, c.req.header('authorization'))) }),
  )

  // POST, not DELETE: the frames' CORS allows GET, HEAD, POST and PUT.
  app.post('/auth/v1/siwx/sessions/current/revoke', async (c) => {
    const row = await current(c.var.project.id, c.req.header('authorization'))
    await db.execute('UPDATE siwx_sessions SET revoked_at = ? WHERE token_hash = ?', [
      now(),
      row.token_hash,
    ])
    return c.body(null, 204)
  })

  app.post('/auth/v1/siwx/verify', async (c) => {
    const input = parseInput(Verify, await readJson(c.req.raw))
    const [row] = await db.query<SessionRow>(
      `SELECT address, caip_network_id, message, signature, expires_at FROM siwx_sessions
       WHERE project_id = ? AND signature = ? AND revoked_at IS NULL AND expires_at > ?`,
      [c.var.project.id, input.signature, now()],
    )
    if (!row || row.message !== input.message) return c.json({ valid: false })
    return c.json({ valid: true, ...sessionOf(row) })
  })
}
