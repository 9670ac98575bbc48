import type { MiddlewareHandler } from 'hono'
import type { ApiConfig } from '../config.js'
import type { Db } from '../db/Db.js'
import type { AppEnv } from '../http/AppEnv.js'
import type { AuthKeys } from './keys.js'
import type { Mailer } from './mailer.js'
import type { SocialClients } from './social.js'

/** What the auth routes share: storage, keys, mail, social clients and middleware. */
export type AuthContext = {
  db: Db
  /** Base URL of this API (links in mail, the social `redirect_uri`, the ticket issuer). */
  publicUrl: string
  /** URL of the wallet app (social login lands on `<walletUrl>/social-callback.html`). */
  walletUrl: string
  /** The auth keys (loaded, or generated into `keyDir`, on first use). */
  keys(): AuthKeys
  mailer: Mailer
  social: SocialClients
  /** Rate limit, then project: for every project-scoped auth route. */
  guard: readonly MiddlewareHandler<AppEnv>[]
  /** Rate limit alone: for routes without a project (social callback, JWKS). */
  limit: MiddlewareHandler<AppEnv>
  /** The extra limit of routes that send mail. */
  mailLimit: MiddlewareHandler<AppEnv>
  /** Requires a session (after the guard). */
  session: MiddlewareHandler<AppEnv>
  /** Origins whose requests may carry the session cookie (the wallet's). */
  credentialOrigins: readonly string[]
  /** Starts an opportunistic cleanup of expired rows. */
  cleanup(): void
  /** How the client IP is read (for the notice mails). */
  trustProxy: ApiConfig['trustProxy']
  /** Reports unexpected and operational errors (mail, social provider). */
  onError(error: unknown): void
}
