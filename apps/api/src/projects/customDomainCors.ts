import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../http/AppEnv.js'
import { cors } from '../http/cors.js'
import type { DomainCache } from './createDomainCache.js'

/** Options of {@link customDomainCors}. */
export type CustomDomainCorsParameters = {
  /** Projects' custom domains. */
  domains: DomainCache
  /** Porthole's own frame origins (exact), answered by `base`. */
  frameOrigins: readonly string[]
  /** The CORS of Porthole's own frame origins (`cors(frameOrigins, credentialOrigins)`). */
  base: MiddlewareHandler<AppEnv>
  /**
   * The list the session checks read (`requireSession`, `assertCredentialOrigin`): Porthole's
   * credential origins, to which this middleware adds a custom wallet origin while it is
   * registered (and from which it drops one that no longer is) before the request goes on.
   */
  credentialOrigins: string[]
}

/**
 * CORS for Porthole's frame origins plus every project's custom frame origins (issue 18): a
 * request whose `Origin` is a registered custom modal origin, for the project that registered it
 * (its `projectId` query parameter), gets the frame CORS of that exact origin, and a custom wallet origin also `Access-Control-Allow-Credentials` (the wallet frame
 * sends its session cookie) and a place in `credentialOrigins`. Any other origin is answered by
 * `base` (refused preflights, no `Access-Control-*` headers). Exact origins, never `*`.
 *
 * @example
 * const credentialOrigins = [...config.credentialOrigins]
 * app.use('*', customDomainCors({
 *   domains, frameOrigins: config.frameOrigins, credentialOrigins,
 *   base: cors(config.frameOrigins, config.credentialOrigins),
 * }))
 */
export function customDomainCors(
  parameters: CustomDomainCorsParameters,
): MiddlewareHandler<AppEnv> {
  const { domains, base, credentialOrigins } = parameters
  const own = new Set(parameters.frameOrigins)
  const ownCredentials = new Set(credentialOrigins)
  return async (c, next) => {
    const origin = c.req.header('origin')
    if (origin === undefined || own.has(origin) || origin === 'null') return base(c, next)
    // The database away: custom origins get no CORS for now (fail closed), the rest goes on.
    const found = await domains.byOrigin(origin).catch(() => undefined)
    const wallet = found?.kind === 'wallet'
    if (!ownCredentials.has(origin)) {
      const at = credentialOrigins.indexOf(origin)
      if (wallet && at < 0) credentialOrigins.push(origin)
      if (!wallet && at >= 0) credentialOrigins.splice(at, 1)
    }
    // Only for the project that registered the origin: another project's requests from it get
    // no CORS (a dapp's domain reads its own project's answers, never a stranger's).
    if (!found || c.req.query('projectId') !== found.domain.projectId) return base(c, next)
    return cors([origin], wallet ? [origin] : [])(c, next)
  }
}
