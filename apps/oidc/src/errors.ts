import { BaseError } from '@porthole/protocol/lite'

/**
 * Thrown when the dev OpenID provider cannot start: bad options or the address is taken.
 *
 * @example
 * try { await startOidcProvider({ providers: [] }) } catch (error) { error instanceof OidcStartError } // true
 */
export class OidcStartError extends BaseError {
  override name: string = 'OidcStartError'
}

/**
 * Thrown when the port of the dev OpenID provider is already in use.
 *
 * @example
 * const first = await startOidcProvider({ port: 4600 })
 * await startOidcProvider({ port: 4600 }) // throws OidcPortInUseError
 */
export class OidcPortInUseError extends OidcStartError {
  override name = 'OidcPortInUseError' as const
  constructor(host: string, port: number, options: { cause?: unknown } = {}) {
    super(`Cannot start the dev OpenID provider: ${host}:${port} is already in use`, options)
  }
}

/**
 * Thrown when asking for the issuer of a provider that this server does not run.
 *
 * @example
 * const oidc = await startOidcProvider({ providers: ['google'] })
 * oidc.issuer('github') // throws UnknownSocialProviderError
 */
export class UnknownSocialProviderError extends BaseError {
  override name = 'UnknownSocialProviderError' as const
  constructor(provider: string) {
    super(`Unknown social provider: ${provider}`, {
      metaMessages: ['Known providers: google, github, apple, facebook, x, discord.'],
    })
  }
}
