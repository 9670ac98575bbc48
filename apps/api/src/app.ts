import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { Redis } from 'ioredis'
import { type ImageAssets, loadImageAssets } from './assets/loadImageAssets.js'
import type { AuthContext } from './auth/AuthContext.js'
import { createCleanup } from './auth/cleanupExpired.js'
import { farcasterClientOf } from './auth/farcaster.js'
import { type AuthKeys, loadAuthKeys } from './auth/keys.js'
import { createMailer, type Mailer } from './auth/mailer.js'
import { createSocialClients } from './auth/social.js'
import type { ChainData, IdentityResolver } from './chaindata/ChainData.js'
import { createHttpChainData } from './chaindata/createHttpChainData.js'
import { createLocalChainData } from './chaindata/createLocalChainData.js'
import { createFixedPriceSource, type PriceSource } from './chaindata/prices.js'
import { type ApiConfigOverrides, resolveConfig } from './config.js'
import { resolveSwapConfig } from './convert/config.js'
import { createSwapProvider } from './convert/createSwapProvider.js'
import { convertRoutes } from './convert/routes.js'
import type { SwapProvider } from './convert/SwapProvider.js'
import type { Db } from './db/Db.js'
import { isDatabaseUnavailable } from './db/isDatabaseUnavailable.js'
import { ApiError } from './errors.js'
import { type Logger, silentLogger } from './fleet/logger.js'
import type { ApiMetrics } from './fleet/metrics.js'
import { redisStore } from './fleet/sharedStore.js'
import type { AppEnv } from './http/AppEnv.js'
import { compressJson } from './http/compress.js'
import { cors } from './http/cors.js'
import { observe } from './http/observe.js'
import { rateLimit } from './http/rateLimit.js'
import { requireProject } from './http/requireProject.js'
import { requireSession } from './http/requireSession.js'
import { resolveNameSuffix } from './names/config.js'
import { createSmartAccountAddressReader } from './names/registrant.js'
import { nameIdentity, nameRoutes } from './names/routes.js'
import { createSignatureVerifier } from './names/verifyRegistration.js'
import { onrampProviderOf } from './onramp/config.js'
import type { OnrampProvider } from './onramp/OnrampProvider.js'
import { onrampRoutes } from './onramp/routes.js'
import { createPaymasterRpc } from './paymaster/paymasterRpc.js'
import { createDomainCache } from './projects/createDomainCache.js'
import { createProjectCache } from './projects/createProjectCache.js'
import { customDomainCors } from './projects/customDomainCors.js'
import { analyticsRoutes } from './routes/analytics.js'
import { authAccountRoutes } from './routes/authAccount.js'
import { authEmailRoutes } from './routes/authEmail.js'
import { authFarcasterRoutes } from './routes/authFarcaster.js'
import { authSocialRoutes } from './routes/authSocial.js'
import { chainDataRoutes } from './routes/chainData.js'
import { FRAME_CHECK_PATH, framePolicyRoutes } from './routes/framePolicy.js'
import { healthRoutes } from './routes/health.js'
import { imageRoutes } from './routes/images.js'
import { nftMetadataRoutes } from './routes/nftMetadata.js'
import { projectConfigRoutes } from './routes/projectConfig.js'
import { rpcRoutes } from './routes/rpc.js'
import { walletRoutes } from './routes/wallets.js'
import { createSessionReader } from './sessions/readSessions.js'
import { sessionRoutes } from './sessions/routes.js'
import { siwxRoutes } from './siwx/routes.js'

/** Options for {@link createApp}. */
export type CreateAppParameters = {
  db: Db
  /** Configuration; unset fields come from {@link resolveConfig} (defaults and environment). */
  config?: ApiConfigOverrides
  /** Preloaded images (default: read from `config.assetsDir`). */
  assets?: ImageAssets
  /** Sends login mail (default: SMTP to `config.auth.smtpUrl`). */
  mailer?: Mailer
  /**
   * The blockchain data service (default: an external provider when `chainData.externalUrl` is
   * set, else this API's index and chain RPC).
   */
  chainData?: ChainData
  /** Prices (default: the fixed table `config.chainData.prices`). */
  prices?: PriceSource
  /** Names and avatars of `/v1/identity` (default: the name registry's primary names). */
  identity?: IdentityResolver
  /** The name registry's suffix (default: `PORTHOLE_NAME_SUFFIX`, else `.porthole.id`). */
  nameSuffix?: string
  /**
   * The on-ramp provider of `/v1/onramp` (default: the provider of `config.onramp`, else of
   * `PORTHOLE_ONRAMP_URL`…, the local test checkout unless production; see `onramp/config.ts`).
   */
  onramp?: OnrampProvider | null
  /**
   * The swap service of `/v1/convert` (default: `PORTHOLE_SWAP_PROVIDER_URL`'s provider when
   * set, else the local quoter over each swap network's Uniswap V2 router; see `convert/config.ts`).
   */
  swap?: SwapProvider
  /** A replica's shared parts and instruments (default: none, silent: one process alone). */
  fleet?: AppFleet
}

/** What an API replica shares with the others, and how it reports. */
export type AppFleet = {
  /** Redis shared by the fleet: rate limits and balance caches live there. */
  redis?: Redis | undefined
  metrics?: ApiMetrics | undefined
  log?: Logger | undefined
  /** `PORTHOLE_METRICS_TOKEN` (see `routes/health.ts`). */
  metricsToken?: string | undefined
  /** True once draining after SIGTERM (`/readyz` answers 503). */
  draining?: () => boolean
}

/**
 * Builds the API as a Hono app (no listening socket; see `startApi`). Routes:
 * - `GET /health` → `{ ok: true }` (no project needed); `GET /healthz`, `GET /readyz` and
 *   `GET /metrics` for load balancers and Prometheus (see `routes/health.ts`);
 * - `GET /projects/v1/origins`, `GET /appkit/v1/config`, `GET /getAnalyticsConfig`;
 * - `GET /getWallets`, the four image endpoints, `POST /e`, `POST /v1` (chain RPC);
 * - the blockchain data service (`/v1/supported-chains`, `/v1/identity/…`, `/v1/account/…`,
 *   `/v1/fungible/price`; see `routes/chainData.ts`) and the devnet NFT metadata (`/nft/v1/…`,
 *   open to any caller);
 * - the name registry (`/v1/profile/account`, `/v1/profile/reverse/…`,
 *   `/v1/profile/suggestions/…`; see `names/routes.ts`);
 * - smart sessions (`/v1/sessions/{address}`, `…/revoke`; see `sessions/routes.ts`);
 * - the on-ramp (`/v1/onramp/options`, `/v1/onramp/quote`, `/v1/onramp/orders/…`,
 *   `/v1/generators/onrampurl`; see `onramp/routes.ts`);
 * - swaps (`/v1/convert/tokens`, `quotes`, `build-transaction`, `allowance`, `build-approve`,
 *   `gas-price`; see `convert/routes.ts`);
 * - `GET /projects/v1/frame-policy`, `GET /projects/v1/frame-check` (for nginx; they answer
 *   for any projectId, and frame-check is readable by any origin);
 * - embedded-wallet auth under `/auth/v1` (e-mail code, device approval, social login,
 *   sessions, key shares, recovery tickets, e-mail change; see `routes/auth*.ts`).
 * All but `/health` are rate limited; all but these, `/auth/v1/social/callback` and
 * `/auth/v1/jwks.json` need a valid `?projectId`. Errors are `{ code, message, … }`. JSON
 * answers of 1 KiB or more are compressed (brotli 5 or gzip, per `Accept-Encoding`).
 *
 * Auth keys that are not configured are generated into `config.auth.keyDir` when first needed;
 * configured ones are checked here (an invalid one throws `InvalidConfigError`).
 *
 * @example
 * const app = createApp({ db, config: { rateLimit: false } })
 * const response = await app.request('/health') // 200 { ok: true }
 */
export function createApp({
  db,
  config: overrides = {},
  assets,
  mailer,
  chainData,
  prices,
  identity,
  nameSuffix,
  onramp,
  swap,
  fleet = {},
}: CreateAppParameters): Hono<AppEnv> {
  const config = resolveConfig(overrides)
  const log = fleet.log ?? silentLogger
  const projects = createProjectCache(db, {
    ttlMs: config.projectCacheMs,
    negativeTtlMs: config.projectNegativeCacheMs,
  })
  const onLimited = fleet.metrics?.rateLimited
  const limit = rateLimit(config.rateLimit, config.trustProxy, {
    redis: fleet.redis,
    name: 'api',
    onLimited,
    isKnownProject: projects.isKnown,
  })
  const guard = [limit, requireProject(projects)]
  // Projects' custom domains (issue 18): their frame origins get the frames' CORS, and a custom
  // wallet origin its session cookie (credentialOrigins grows and shrinks with the registrations).
  const domains = createDomainCache(db, { ttlMs: config.projectCacheMs })
  const credentialOrigins = [...config.credentialOrigins]
  const frameOriginCors = customDomainCors({
    domains,
    frameOrigins: config.frameOrigins,
    credentialOrigins,
    base: cors(config.frameOrigins, config.credentialOrigins),
  })
  const cleanup = createCleanup(db, { onError: config.onError })
  let keys: AuthKeys | undefined
  const authKeys = () => {
    keys ??= loadAuthKeys(config.auth)
    return keys
  }
  if (config.auth.shareKey !== undefined) authKeys()
  const auth: AuthContext = {
    db,
    publicUrl: config.publicUrl,
    walletUrl: config.walletUrl,
    trustProxy: config.trustProxy,
    keys: authKeys,
    mailer: mailer ?? createMailer({ smtpUrl: config.auth.smtpUrl, from: config.auth.mailFrom }),
    social: createSocialClients(config.auth.social),
    guard,
    limit,
    mailLimit: rateLimit(config.auth.mailRateLimit, config.trustProxy, {
      redis: fleet.redis,
      name: 'mail',
      onLimited,
    }),
    session: requireSession(db, { credentialOrigins }),
    credentialOrigins,
    cleanup: cleanup.maybeRun,
    onError: config.onError,
  }
  const app = new Hono<AppEnv>()

  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json(error.toJSON(), error.status, error.headers)
    if (error instanceof HTTPException && error.status === 413)
      return c.json(new ApiError('PAYLOAD_TOO_LARGE').toJSON(), 413)
    if (isDatabaseUnavailable(error)) {
      log.warn({ reqId: c.get('requestId'), err: error }, 'database unavailable')
      return c.json(new ApiError('SERVICE_UNAVAILABLE').toJSON(), 503, { 'Retry-After': '1' })
    }
    config.onError(error)
    return c.json(new ApiError('SERVER_ERROR').toJSON(), 500)
  })
  app.notFound((c) => c.json(new ApiError('NOT_FOUND').toJSON(), 404))
  app.use('*', observe({ metrics: fleet.metrics, log, draining: fleet.draining }))

  app.use('*', async (c, next) => {
    await next()
    c.res.headers.set('X-Content-Type-Options', 'nosniff')
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store')
    if (!c.res.headers.has('Content-Security-Policy'))
      c.res.headers.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'")
  })
  // Not the auth routes: their answers carry session tokens and key shares beside input the
  // caller chose, and compression would let response sizes hint at them (BREACH).
  const compress = compressJson()
  app.use('*', (c, next) => (c.req.path.startsWith('/auth/') ? next() : compress(c, next)))
  // frame-check is read by host pages on any origin: it sets its own CORS headers.
  app.use('*', (c, next) => (c.req.path === FRAME_CHECK_PATH ? next() : frameOriginCors(c, next)))

  app.get('/health', (c) => c.json({ ok: true }))
  healthRoutes(app, {
    db,
    redis: fleet.redis,
    metrics: fleet.metrics,
    metricsToken: fleet.metricsToken,
    ...(fleet.draining ? { draining: fleet.draining } : {}),
  })
  projectConfigRoutes(app, guard)
  framePolicyRoutes(app, [limit], {
    projects,
    domains,
    modalOrigin: config.modalOrigin,
    walletOrigin: new URL(config.walletUrl).origin,
  })
  walletRoutes(app, guard, { db, publicUrl: config.publicUrl })
  const images = assets ?? loadImageAssets(config.assetsDir)
  imageRoutes(app, guard, images)
  analyticsRoutes(app, guard, { db, limits: config.analytics, onError: config.onError })
  rpcRoutes(app, guard, {
    upstreams: config.upstreams,
    bundlers: config.bundlers,
    paymaster: createPaymasterRpc({
      db,
      config: config.paymaster,
      upstreams: config.upstreams,
      onError: config.onError,
    }),
    timeoutMs: config.rpcTimeoutMs,
  })
  authEmailRoutes(app, auth)
  authSocialRoutes(app, auth)
  authFarcasterRoutes(app, auth, farcasterClientOf(config))
  authAccountRoutes(app, auth)
  siwxRoutes(app, guard, { db, upstreams: config.upstreams, cleanup: cleanup.maybeRun })
  const verifySignature = createSignatureVerifier(config.upstreams, {
    timeoutMs: config.rpcTimeoutMs,
  })
  nameRoutes(app, guard, {
    db,
    suffix: nameSuffix ?? resolveNameSuffix(),
    verify: verifySignature,
    accountOf: createSmartAccountAddressReader(config.upstreams, {
      timeoutMs: config.rpcTimeoutMs,
    }),
  })
  sessionRoutes(app, guard, {
    db,
    reader: createSessionReader(config.upstreams, {
      timeoutMs: Math.min(config.rpcTimeoutMs, 3000),
    }),
    verify: verifySignature,
  })
  onrampRoutes(app, guard, { provider: onramp === undefined ? onrampProviderOf(config) : onramp })
  const priceSource = prices ?? createFixedPriceSource(config.chainData.prices)
  chainDataRoutes(app, guard, {
    chainData:
      chainData ??
      (config.chainData.externalUrl
        ? createHttpChainData({ url: config.chainData.externalUrl, timeoutMs: config.rpcTimeoutMs })
        : createLocalChainData({
            db,
            config: config.chainData,
            prices: priceSource,
            publicUrl: config.publicUrl,
            hasIcon: (symbol) => images.tokens.has(symbol),
            rpcTimeoutMs: config.rpcTimeoutMs,
            sharedBalances: fleet.redis && redisStore(fleet.redis, 'porthole:balance:'),
          })),
    identity: identity ?? nameIdentity(db),
    currencies: priceSource.currencies,
  })
  nftMetadataRoutes(app, [limit], { publicUrl: config.publicUrl })
  const swapConfig = resolveSwapConfig(process.env, { production: config.production })
  convertRoutes(app, guard, {
    networks: swapConfig.networks,
    provider:
      swap ??
      createSwapProvider(swapConfig, {
        upstreams: config.upstreams,
        prices: priceSource,
        publicUrl: config.publicUrl,
        hasIcon: (id) => images.tokens.has(id),
        timeoutMs: config.rpcTimeoutMs,
      }),
  })
  return app
}
