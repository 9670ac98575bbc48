/**
 * `@porthole/oidc`: a local OpenID provider standing in for the social login providers
 * (Google, GitHub, Apple, Facebook, X, Discord) in development and tests.
 */
export { OidcPortInUseError, OidcStartError, UnknownSocialProviderError } from './errors.ts'
export {
  clientIdOf,
  clientSecretOf,
  isSocialProvider,
  PROVIDER_NAMES,
  SOCIAL_CLIENTS,
  SOCIAL_PROVIDERS,
  SOCIAL_SCOPES,
  type SocialClientCredentials,
  type SocialProvider,
  TOKEN_ENDPOINT_AUTH_METHOD,
} from './providers.ts'
export { signInAtProvider } from './signInAtProvider.ts'
export {
  type OidcClientConfig,
  type StartOidcProviderErrorType,
  type StartOidcProviderParameters,
  type StartOidcProviderReturnType,
  startOidcProvider,
} from './startOidcProvider.ts'
export { subjectOf } from './subject.ts'
