/**
 * Social login as an OpenID Connect relying party (openid-client): authorization code flow with
 * PKCE (S256), state and nonce; the client authenticates with `client_secret_basic` (the OpenID
 * default); claims from the ID token and userinfo.
 */
import * as client from 'openid-client'
import type { AuthSocialProvider, SocialProviderConfig } from '../config.js'
import type { SocialClaims } from './users.js'

/** Discovery and token requests time out after 10 s. */
const TIMEOUT_SECONDS = 10

/** OpenID client configurations by provider, discovered once per issuer and client. */
export type SocialClients = {
  /** Whether the provider is configured (production leaves unset providers out). */
  has(provider: AuthSocialProvider): boolean
  /** The discovered configuration of a provider (a failed discovery is retried next time). */
  configuration(provider: AuthSocialProvider): Promise<client.Configuration>
}

/**
 * Caches discovery per issuer and client id. `http:` issuers (the local OpenID provider) are
 * allowed; real providers are `https:`.
 *
 * @example
 * const clients = createSocialClients(config.auth.social)
 * const configuration = await clients.configuration('google')
 */
export function createSocialClients(
  providers: Readonly<Partial<Record<AuthSocialProvider, SocialProviderConfig>>>,
): SocialClients {
  const cache = new Map<string, Promise<client.Configuration>>()
  return {
    has: (provider) => providers[provider] !== undefined,
    configuration(provider) {
      const config = providers[provider]
      if (!config) return Promise.reject(new Error(`Social provider ${provider} is not configured`))
      const { issuer, clientId, clientSecret } = config
      const key = `${issuer}\n${clientId}`
      let found = cache.get(key)
      if (!found) {
        found = client.discovery(
          new URL(issuer),
          clientId,
          undefined,
          client.ClientSecretBasic(clientSecret),
          {
            timeout: TIMEOUT_SECONDS,
            ...(issuer.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : {}),
          },
        )
        cache.set(key, found)
        found.catch(() => cache.delete(key))
      }
      return found
    },
  }
}

/** What `/social/start` stores for the callback. */
export type AuthorizationRequest = {
  uri: string
  state: string
  nonce: string
  codeVerifier: string
}

/**
 * Builds the authorization URL (scope `openid email profile`, PKCE S256, state, and the nonce the
 * wallet frame chose).
 *
 * @example
 * const { uri, state, codeVerifier } = await authorizationRequest(configuration, redirectUri, nonce)
 */
export async function authorizationRequest(
  configuration: client.Configuration,
  redirectUri: string,
  nonce: string,
): Promise<AuthorizationRequest> {
  const codeVerifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  })
  return { uri: url.href, state, nonce, codeVerifier }
}

/** The user's claims and the raw ID token. */
export type ExchangeCodeReturnType = SocialClaims & { idToken: string }

/**
 * Exchanges the code of the callback URL and reads the user's claims (ID token, then userinfo
 * where the provider has it); the raw ID token comes back too, for the wallet frame.
 *
 * @example
 * const claims = await exchangeCode(configuration, callbackUrl, { state, nonce, codeVerifier })
 */
export async function exchangeCode(
  configuration: client.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<ExchangeCodeReturnType> {
  const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  })
  const idClaims = tokens.claims()
  if (!idClaims || !tokens.id_token) throw new Error('No ID token')
  let claims: Record<string, unknown> = { ...idClaims }
  if (configuration.serverMetadata().userinfo_endpoint)
    claims = {
      ...claims,
      ...(await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub)),
    }
  const text = (value: unknown, max: number) =>
    typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : null
  const email = text(claims.email, 254)
  return {
    idToken: tokens.id_token,
    sub: idClaims.sub,
    email: email?.toLowerCase() ?? null,
    name: text(claims.name, 200),
    username: text(claims.preferred_username, 200),
  }
}
