/**
 * The social login providers the dev OpenID provider stands in for, and the one confidential
 * client each of them registers for the Porthole API.
 */

/**
 * The social providers, in the order the modal lists them.
 *
 * @example
 * for (const provider of SOCIAL_PROVIDERS) console.log(oidc.issuer(provider))
 */
export const SOCIAL_PROVIDERS = ['google', 'github', 'apple', 'facebook', 'x', 'discord'] as const

/**
 * A social login provider.
 *
 * @example
 * const provider: SocialProvider = 'discord'
 */
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number]

/**
 * How each provider is named on the login page.
 *
 * @example
 * PROVIDER_NAMES.github // 'GitHub'
 */
export const PROVIDER_NAMES: Record<SocialProvider, string> = {
  google: 'Google',
  github: 'GitHub',
  apple: 'Apple',
  facebook: 'Facebook',
  x: 'X',
  discord: 'Discord',
}

/**
 * Whether `value` names a social provider.
 *
 * @example
 * isSocialProvider('github') // true
 * isSocialProvider('myspace') // false
 */
export function isSocialProvider(value: string): value is SocialProvider {
  return (SOCIAL_PROVIDERS as readonly string[]).includes(value)
}

/**
 * The `client_id` registered at a provider's dev issuer: `porthole-<provider>`.
 *
 * @example
 * clientIdOf('google') // 'porthole-google'
 */
export function clientIdOf<provider extends SocialProvider>(
  provider: provider,
): `porthole-${provider}` {
  return `porthole-${provider}`
}

/**
 * The `client_secret` registered at a provider's dev issuer: `porthole-<provider>-secret`.
 *
 * @example
 * clientSecretOf('discord') // 'porthole-discord-secret'
 */
export function clientSecretOf<provider extends SocialProvider>(
  provider: provider,
): `porthole-${provider}-secret` {
  return `porthole-${provider}-secret`
}

/**
 * The credentials of one provider's client (its issuer depends on where the server runs).
 *
 * @example
 * const { clientId, clientSecret }: SocialClientCredentials = SOCIAL_CLIENTS.x
 */
export type SocialClientCredentials = {
  clientId: string
  clientSecret: string
}

/**
 * The client id and secret of every provider, fixed so the API's development configuration
 * can name them without starting the server.
 *
 * @example
 * SOCIAL_CLIENTS.github // { clientId: 'porthole-github', clientSecret: 'porthole-github-secret' }
 */
export const SOCIAL_CLIENTS: Readonly<Record<SocialProvider, SocialClientCredentials>> =
  Object.freeze(
    Object.fromEntries(
      SOCIAL_PROVIDERS.map((provider) => [
        provider,
        Object.freeze({ clientId: clientIdOf(provider), clientSecret: clientSecretOf(provider) }),
      ]),
    ) as Record<SocialProvider, SocialClientCredentials>,
  )

/**
 * The token endpoint authentication the clients are registered with: HTTP Basic, as the
 * API's openid-client configuration sends it (`ClientSecretBasic`). oidc-provider takes the
 * secret in the body (`client_secret_post`) as well.
 *
 * @example
 * client.discovery(new URL(issuer), clientId, undefined, client.ClientSecretBasic(clientSecret))
 */
export const TOKEN_ENDPOINT_AUTH_METHOD = 'client_secret_basic'

/**
 * The scopes every client may request.
 *
 * @example
 * client.buildAuthorizationUrl(config, { scope: SOCIAL_SCOPES.join(' '), ... })
 */
export const SOCIAL_SCOPES = ['openid', 'email', 'profile'] as const
