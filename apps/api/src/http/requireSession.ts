import type { Context, MiddlewareHandler } from 'hono'
import { findSession, sessionToken } from '../auth/sessions.js'
import type { DbExecutor } from '../db/Db.js'
import { ApiError } from '../errors.js'
import type { AppEnv } from './AppEnv.js'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Requires a live session of the request's project (after `requireProject`): the token from
 * `Authorization: Bearer` or the `porthole_session` cookie; else 401 `UNAUTHENTICATED`. A
 * cookie-authenticated write from a browser origin outside `credentialOrigins` is refused with
 * 403 `ORIGIN_NOT_ALLOWED` (cross-site request forgery). Sets `c.var.session`.
 *
 * @example
 * app.get('/auth/v1/me', ...guard, requireSession(db, { credentialOrigins }), handler)
 */
export function requireSession(
  db: DbExecutor,
  { credentialOrigins }: { credentialOrigins: readonly string[] },
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const credential = sessionToken(c)
    if (!credential) throw new ApiError('UNAUTHENTICATED')
    assertCredentialOrigin(c, credential.via, credentialOrigins)
    const session = await findSession(db, c.var.project.id, credential.token)
    if (!session) throw new ApiError('UNAUTHENTICATED')
    c.set('session', session)
    await next()
  }
}

/**
 * Refuses (403 `ORIGIN_NOT_ALLOWED`) a write that carries the session cookie from a browser origin
 * outside `credentialOrigins`: another site cannot make the user's browser act with its session.
 *
 * @example
 * assertCredentialOrigin(c, 'cookie', ['http://wallet.localhost:4200'])
 */
export function assertCredentialOrigin(
  c: Context<AppEnv>,
  via: 'bearer' | 'cookie',
  credentialOrigins: readonly string[],
): void {
  if (via !== 'cookie' || SAFE_METHODS.has(c.req.method)) return
  const origin = c.req.header('origin')
  if (origin !== undefined && !credentialOrigins.includes(origin))
    throw new ApiError('ORIGIN_NOT_ALLOWED')
}
