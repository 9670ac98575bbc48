/**
 * `@porthole/api`: the Porthole API service (wallet provider configuration, analytics, chain RPC
 * proxy) and its building blocks. Run it with `startApi()` or `npx tsx apps/api/src/main.ts`.
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
  loadCatalogue,
  queryWallets,
  type SeedWalletsReturnType,
  seedWallets,
  type Wallet,
} from './catalogue/index.js'
export {
  type ApiConfig,
  CONFIG_ENV,
  DEFAULT_RATE_LIMIT,
  InvalidConfigError,
  parseUpstreams,
  type RateLimitConfig,
  resolveConfig,
} from './config.js'
export { type Db, defaultDatabaseUrl, openDatabase } from './db/index.js'
export { API_ERRORS, ApiError, type ApiErrorBody, type ApiErrorCode } from './errors.js'
export * from './projects/index.js'
export { ALLOWED_RPC_METHODS, RPC_NOT_ALLOWED } from './rpc/allowedMethods.js'
export { proxyRpc } from './rpc/proxyRpc.js'
export { type StartApiParameters, type StartApiReturnType, startApi } from './server.js'
