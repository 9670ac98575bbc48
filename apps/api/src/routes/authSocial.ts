import type { Context, Hono } from 'hono'
import type { AuthContext } from '../auth/AuthContext.js'
import { SocialExchangeBody, SocialStartBody } from '../auth/schemas.js'
import { createSession, setSessionCookie } from '../auth/sessions.js'
import { authorizationRequest, exchangeCode } from '../auth/social.js'
import { hashToken, randomToken } from '../auth/tokens.js'
import { ensureSocialUser, getUser, toAuthUser } from '../auth/users.js'
import { type AuthSocialProvider, AuthSocialProvider as Provider } from '../config.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { limitBody } from '../http/limitBody.js'
import { parseInput, readJson } from '../http/parseInput.js'
import { recoveryPolicy, resolveRemoteFeatures } from '../projects/features.js'

/** An authorization request (state, nonce, PKCE verifier) is kept 10 minutes. */
export const SOCIAL_STATE_TTL_MS = 10 * 60 * 1000
/** A social result code works once, within 2 minutes. */
export const SOCIAL_RESULT_TTL_MS = 2 * 60 * 1000

/**
 * Social login through OpenID Connect (providers google, github, apple, facebook, x, discord):
 * - `POST /auth/v1/social/start {provider, deviceId, nonce}` → `{uri}`, the authorization URL for
 *   the popup, with the wallet frame's nonce (the thumbprint of a key only it holds). 403 `FEATURE_DISABLED` when the project does not offer the provider, 502
 *   `SOCIAL_PROVIDER_UNAVAILABLE` when its discovery fails.
 * - `GET /auth/v1/social/callback?code&state` (the popup, no projectId: it comes from the stored
 *   state) → 302 to `<wallet>/social-callback.html?result=<code>`, or `?error=<code>&error_description=…`;
 *   `<wallet>` is the project's custom wallet origin when the start came from it, else ours.
 * - `POST /auth/v1/social/exchange {result, deviceId}` → `{token, user, recovery, idToken}` and
 *   the session cookie (the ID token lets the frame prove the login to the recovery service);
 *   400 `INVALID_RESULT` for an unknown, used, expired or other-device result.
 *
 * @example
 * authSocialRoutes(app, ctx)
 */
export function authSocialRoutes(app: Hono<AppEnv>, ctx: AuthContext): void {
  const { db } = ctx
  const redirectUri = `${ctx.publicUrl}/auth/v1/social/callback`

  app.use('/auth/v1/social/start', ...ctx.guard, limitBody(4 * 1024))
  app.post('/auth/v1/social/start', async (c) => {
    const { provider, deviceId, nonce } = parseInput(SocialStartBody, await readJson(c.req.raw))
    const project = c.var.project
    const socials = resolveRemoteFeatures(project.features).socials
    if (socials === false || !socials.includes(provider) || !ctx.social.has(provider))
      throw new ApiError('FEATURE_DISABLED')
    ctx.cleanup()
    let request: Awaited<ReturnType<typeof authorizationRequest>>
    try {
      request = await authorizationRequest(
        await ctx.social.configuration(provider),
        redirectUri,
        nonce,
      )
    } catch (cause) {
      ctx.onError(cause)
      throw new ApiError('SOCIAL_PROVIDER_UNAVAILABLE', { cause })
    }
    // A wallet frame on the project's own custom domain gets the popup back on that domain
    // (its storage and opener); any other origin, Porthole's wallet. Only origins registered for
    // this project count, so the result never goes to a page the project did not name.
    const origin = c.req.header('origin')
    const [custom] = origin
      ? await db.query<{ wallet_origin: string }>(
          'SELECT wallet_origin FROM project_domains WHERE wallet_origin = ? AND project_id = ?',
          [origin, project.id],
        )
      : []
    await db.execute(
      `INSERT INTO auth_social_states
         (state, project_id, provider, device_id, code_verifier, nonce, expires_at, wallet_origin)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        request.state,
        project.id,
        provider,
        deviceId,
        request.codeVerifier,
        request.nonce,
        Date.now() + SOCIAL_STATE_TTL_MS,
        custom?.wallet_origin ?? null,
      ],
    )
    return c.json({ uri: request.uri })
  })

  app.use('/auth/v1/social/callback', ctx.limit)
  app.get('/auth/v1/social/callback', async (c) => {
    const query = c.req.query()
    const stored = await takeState(ctx, query.state)
    const walletUrl = stored?.wallet_origin ?? ctx.walletUrl
    const fail = (error: string, description: string) =>
      back(c, walletUrl, { error, error_description: description })
    if (query.error)
      return fail(
        /^[a-z_]{1,64}$/.test(query.error) ? query.error : 'server_error',
        (query.error_description ?? query.error).slice(0, 200),
      )
    if (!stored) return fail('invalid_state', 'The sign-in expired or was already used')
    const provider = Provider.safeParse(stored.provider)
    if (!provider.success) return fail('invalid_state', 'Unknown provider')
    try {
      const configuration = await ctx.social.configuration(provider.data)
      const callbackUrl = new URL(redirectUri)
      callbackUrl.search = new URL(c.req.url).search
      const claims = await exchangeCode(configuration, callbackUrl, {
        state: stored.state,
        nonce: stored.nonce,
        codeVerifier: stored.code_verifier,
      })
      const { idToken, ...profile } = claims
      const { user, isNew } = await ensureSocialUser(
        db,
        stored.project_id,
        provider.data satisfies AuthSocialProvider,
        profile,
      )
      const result = randomToken()
      await db.execute(
        `INSERT INTO auth_social_results
           (code_hash, project_id, user_id, device_id, is_new, expires_at, id_token)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [
          hashToken(result),
          stored.project_id,
          user.id,
          stored.device_id,
          isNew ? 1 : 0,
          Date.now() + SOCIAL_RESULT_TTL_MS,
          idToken,
        ],
      )
      return back(c, walletUrl, { result })
    } catch (error) {
      ctx.onError(error)
      return fail('server_error', 'Failed to connect')
    }
  })

  app.use('/auth/v1/social/exchange', ...ctx.guard, limitBody(4 * 1024))
  app.post('/auth/v1/social/exchange', async (c) => {
    const { result, deviceId } = parseInput(SocialExchangeBody, await readJson(c.req.raw))
    const project = c.var.project
    const codeHash = hashToken(result)
    const [row] = await db.query<{
      project_id: string
      user_id: string
      device_id: string
      is_new: number
      expires_at: number
      id_token: string | null
    }>(
      'SELECT project_id, user_id, device_id, is_new, expires_at, id_token FROM auth_social_results WHERE code_hash = ?',
      [codeHash],
    )
    if (!row || row.project_id !== project.id) throw new ApiError('INVALID_RESULT')
    // Used up first, whatever follows: a result code works once.
    const { rowsAffected } = await db.execute(
      'DELETE FROM auth_social_results WHERE code_hash = ?',
      [codeHash],
    )
    if (rowsAffected === 0 || Number(row.expires_at) <= Date.now() || row.device_id !== deviceId)
      throw new ApiError('INVALID_RESULT')
    const token = await createSession(db, {
      projectId: project.id,
      userId: row.user_id,
      deviceId,
    })
    const user = await getUser(db, project.id, row.user_id)
    if (!user) throw new ApiError('INVALID_RESULT')
    setSessionCookie(c, token)
    return c.json({
      token,
      user: toAuthUser(user, Number(row.is_new) === 1),
      recovery: recoveryPolicy(project),
      idToken: row.id_token,
    })
  })
}

type StateRow = {
  state: string
  project_id: string
  provider: string
  device_id: string
  code_verifier: string
  nonce: string
  expires_at: number
  wallet_origin: string | null
}

/** Uses up a live stored authorization request; `undefined` when there is none. */
async function takeState(
  { db }: AuthContext,
  state: string | undefined,
): Promise<StateRow | undefined> {
  if (!state || state.length > 200) return undefined
  const [row] = await db.query<StateRow>(
    `SELECT state, project_id, provider, device_id, code_verifier, nonce, expires_at, wallet_origin
     FROM auth_social_states WHERE state = ?`,
    [state],
  )
  if (!row) return undefined
  const { rowsAffected } = await db.execute('DELETE FROM auth_social_states WHERE state = ?', [
    state,
  ])
  return rowsAffected === 1 && Number(row.expires_at) > Date.now() ? row : undefined
}

/** 302 to the wallet's social callback page (on `walletUrl`) with `params`. */
function back(c: Context<AppEnv>, walletUrl: string, params: Record<string, string>) {
  const url = `${walletUrl}/social-callback.html?${new URLSearchParams(params)}`
  return c.body(null, 302, {
    Location: url,
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  })
}
