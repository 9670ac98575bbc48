/**
 * `@porthole/api`: the Porthole API service (wallet provider configuration, analytics, chain RPC
 * proxy, embedded-wallet auth) and its building blocks. Run it with `startApi()` or `npx tsx apps/api/src/main.ts`.
 */
export { type CreateAppParameters, createApp } from './app.js'
export {
  IMAGE_KINDS,
  type ImageAsset,
  type ImageAssets,
  type ImageKind,
  loadImageAssets,
  normaliseImageId,
} from './assets/loadImageAssets.js'
export {
  type AuthKeys,
  decryptShare,
  KEY_FILES,
  loadAuthKeys,
} from './auth/keys.js'
export { createMailer, type Mailer, type MailMessage } from './auth/mailer.js'
export { type AuthUser, toAuthUser } from './auth/users.js'
export {
  loadCatalogue,
  queryWallets,
  type SeedWalletsReturnType,
  seedWallets,
  type Wallet,
} from './catalogue/index.js'
export * from './chaindata/index.js'
export {
  type ApiConfig,
  type ApiConfigOverrides,
  type AuthConfig,
  AuthSocialProvider,
  CONFIG_ENV,
  DEFAULT_MAIL_FROM,
  DEFAULT_RATE_LIMIT,
  InvalidConfigError,
  parseUpstreams,
  type RateLimitConfig,
  resolveConfig,
  type SocialProviderConfig,
  socialFromEnv,
} from './config.js'
export { type Db, defaultDatabaseUrl, openDatabase } from './db/index.js'
export { API_ERRORS, ApiError, type ApiErrorBody, type ApiErrorCode } from './errors.js'
export {
  LOCAL_ONRAMP_PROVIDER,
  ONRAMP_CONFIG_ENV,
  type OnrampConfig,
  resolveOnrampConfig,
} from './onramp/config.js'
export {
  DEFAULT_SPONSORSHIP_VALID_SECONDS,
  InvalidPaymasterConfigError,
  PAYMASTER_CONFIG_ENV,
  type PaymasterConfig,
  resolvePaymasterConfig,
} from './paymaster/config.js'
export {
  createPaymasterRpc,
  PAYMASTER_ERRORS,
  PAYMASTER_GAS,
  type PaymasterRpc,
  type PaymasterRpcResult,
} from './paymaster/paymasterRpc.js'
export {
  DEFAULT_PAYMASTER_POLICY,
  feeCaps,
  maxOperationCharge,
  maxPreVerificationGas,
  type PaymasterPolicy,
} from './paymaster/policy.js'
export {
  DEFAULT_DAILY_CAP,
  DEFAULT_PROJECT_DAILY_BUDGET,
  DEFAULT_PROJECT_DAILY_CAP,
  getSponsorshipRules,
  type SponsorshipRules,
  setSponsorshipRules,
} from './paymaster/sponsorship.js'
export { signSponsorship, verifyingPaymasterHash } from './paymaster/verifyingPaymaster.js'
export {
  ProductionConfigError,
  type ProductionProblemsParameters,
  productionProblems,
} from './production.js'
export * from './projects/index.js'
export { RECOVERY_LOGIN_MAX_AGE_MS } from './routes/authAccount.js'
export {
  ALLOWED_RPC_METHODS,
  ALLOWED_SOLANA_RPC_METHODS,
  allowedMethodsOf,
  BUNDLER_RPC_METHODS,
  PAYMASTER_RPC_METHODS,
  RPC_NOT_ALLOWED,
} from './rpc/allowedMethods.js'
export { type LocalRpcMethod, proxyRpc } from './rpc/proxyRpc.js'
export { RpcMethodError } from './rpc/RpcMethodError.js'
export { type StartApiParameters, type StartApiReturnType, startApi } from './server.js'
