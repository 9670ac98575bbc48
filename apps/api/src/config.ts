import { fileURLToPath } from 'node:url'
import { endpoints, SOLANA_LOCALNET_CAIP } from '@porthole/shared'
import { z } from 'zod'
import { DEFAULT_ASSETS_DIR } from './assets/loadImageAssets.js'
import type { FarcasterConfig } from './auth/farcaster.js'
import { CaipNetworkId } from './catalogue/catalogue.js'
import { defaultEsploraUpstreams } from './chaindata/bitcoin.js'
import { type ChainDataConfig, resolveChainDataConfig } from './chaindata/config.js'
import type { OnrampConfig } from './onramp/config.js'
import { type PaymasterConfig, resolvePaymasterConfig } from './paymaster/config.js'
import { NEGATIVE_CACHE_MS } from './projects/createProjectCache.js'

/** The social providers of the embedded-wallet login (spec §5). */
export const AuthSocialProvider = z.enum(['google', 'github', 'apple', 'facebook', 'x', 'discord'])
/** A social provider of the embedded-wallet login. */
export type AuthSocialProvider = z.infer<typeof AuthSocialProvider>

/** The OpenID Connect client of one social provider. */
export type SocialProviderConfig = { issuer: string; clientId: string; clientSecret: string }

/** Embedded-wallet auth (`/auth/v1`) configuration. */
export type AuthConfig = {
  /** SMTP server for login mail: `smtp://[user:pass@]host:port` (STARTTLS when offered) or `smtps://` (TLS). */
  smtpUrl: string
  /** The `From` of login mail. */
  mailFrom: string
  /** OpenID Connect client per social provider; a provider left out is not offered. */
  social: Readonly<Partial<Record<AuthSocialProvider, SocialProviderConfig>>>
  /** Where the share key is generated when not given (a mode 0600 file). */
  keyDir: string
  /** AES-256 key of the auth shares at rest, base64 of 32 bytes; else `<keyDir>/api-share.key`. */
  shareKey: string | undefined
  /** Extra limit on requests that send mail, per client IP and project, or `false`. */
  mailRateLimit: RateLimitConfig | false
}

/** Token bucket per client IP and project: `ratePerSecond` refill, `burst` capacity. */
export type RateLimitConfig = { ratePerSecond: number; burst: number }

/** Everything {@link createApp} needs besides the database. */
export type ApiConfig = {
  /** Absolute base URL of this API, used to build `image_url`s. */
  publicUrl: string
  /** Origins allowed by CORS (exact match): the modal and wallet frames. */
  frameOrigins: readonly string[]
  /** Origin of the modal app, which may frame the wallet (`/projects/v1/frame-policy`). */
  modalOrigin: string
  /** Chain RPC upstream per CAIP-2 network id. */
  upstreams: Readonly<Record<string, string>>
  /**
   * ERC-4337 bundler per CAIP-2 network id: the RPC proxy sends user-operation methods there
   * (a chain without one sends them to its RPC upstream).
   */
  bundlers: Readonly<Record<string, string>>
  /** The verifying paymaster of the RPC proxy's `pm_*` methods (`paymaster/config.ts`). */
  paymaster: PaymasterConfig
  /** Request rate limit, or `false` for none. */
  rateLimit: RateLimitConfig | false
  /** How long a project lookup is reused (≤ 1000 ms keeps CLI changes visible within 1 s). */
  projectCacheMs: number
  /**
   * How long an id that names no project is answered without a query (a project created in
   * that time is refused until it passes); default 10 s.
   */
  projectNegativeCacheMs: number
  /** Chain RPC upstream timeout (spec §9: RPC timeout 10 s). */
  rpcTimeoutMs: number
  /**
   * How many proxies we run in front of the API that append to `X-Forwarded-For` (0: none; the
   * client is the socket's peer). The client is that many entries from the right.
   */
  trustProxy: number
  /** Directory holding `wallets/`, `networks/`, `currencies/`, `tokens/` images. */
  assetsDir: string
  /** Called with unexpected errors (answered as 500 Server Error). */
  onError: (error: unknown) => void
  /** URL of the embedded-wallet app; social login lands on its `/social-callback.html`. */
  walletUrl: string
  /**
   * Origins whose cross-origin requests may carry credentials (the session cookie): by default
   * the wallet's. Each must also be in `frameOrigins`.
   */
  credentialOrigins: readonly string[]
  /** Embedded-wallet auth. */
  auth: AuthConfig
  /** Blockchain data service (indexed chains, prices, spam list, caches; see `chaindata/config.ts`). */
  chainData: ChainDataConfig
  /**
   * Farcaster login (relay, IdRegistry); null: not offered. Left out, `createApp` reads it from
   * the environment (`resolveFarcasterConfig` in `auth/farcaster.ts`).
   */
  farcaster?: FarcasterConfig | null
  /**
   * The on-ramp provider (URL, API key, public key, id and name); null: none (options and quotes
   * answer the spec's fallback). Left out, `createApp` reads it from the environment
   * (`PORTHOLE_ONRAMP_URL`, default the local provider http://127.0.0.1:4900, and
   * `PORTHOLE_ONRAMP_API_KEY`…: `resolveOnrampConfig` in `onramp/config.ts`).
   */
  onramp?: OnrampConfig | null
  /**
   * `PORTHOLE_ENV=production`: no devnet upstreams or local social providers are filled in, and
   * `startApi` refuses to start on any development default (`productionProblems`).
   */
  production: boolean
}

/** What callers may override: any field, and any part of `auth` and `chainData`. */
export type ApiConfigOverrides = Partial<Omit<ApiConfig, 'auth' | 'chainData'>> & {
  auth?: Partial<AuthConfig>
  chainData?: Partial<ChainDataConfig>
}

/** Environment variables read by {@link resolveConfig} (besides the `@porthole/shared` endpoints). */
export const CONFIG_ENV = {
  publicUrl: 'PORTHOLE_API_PUBLIC_URL',
  corsOrigins: 'PORTHOLE_API_CORS_ORIGINS',
  upstreams: 'PORTHOLE_RPC_UPSTREAMS',
  bundlers: 'PORTHOLE_BUNDLER_UPSTREAMS',
  ratePerSecond: 'PORTHOLE_RATE_LIMIT_PER_SECOND',
  burst: 'PORTHOLE_RATE_LIMIT_BURST',
  trustProxy: 'PORTHOLE_API_TRUST_PROXY',
  production: 'PORTHOLE_ENV',
  mailFrom: 'PORTHOLE_MAIL_FROM',
  shareKey: 'PORTHOLE_SHARE_KEY',
  keyDir: 'PORTHOLE_API_KEY_DIR',
  /** Per provider: `PORTHOLE_SOCIAL_<PROVIDER>_ISSUER`, `_CLIENT_ID`, `_CLIENT_SECRET`. */
  socialPrefix: 'PORTHOLE_SOCIAL_',
} as const

/** The default `From` of login mail. */
export const DEFAULT_MAIL_FROM = 'Porthole <no-reply@porthole.local>'

/** The default limit on mail-sending requests: bursts of 10, then one per 6 s, per IP and project. */
export const DEFAULT_MAIL_RATE_LIMIT: RateLimitConfig = { ratePerSecond: 1 / 6, burst: 10 }

/** `<repo root>/.data`, where generated keys go by default (beside the default database). */
export const DEFAULT_KEY_DIR = fileURLToPath(new URL('../../../.data', import.meta.url))

/** The default rate limit: 50 requests per second, bursts of 200, per client IP and project. */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { ratePerSecond: 50, burst: 200 }

/** Thrown for an invalid configuration value. */
export class InvalidConfigError extends Error {
  override name = 'InvalidConfigError' as const
}

const Upstreams = z.record(CaipNetworkId, z.url({ protocol: /^https?$/ }))

/**
 * Builds the API configuration: defaults from `@porthole/shared` `endpoints()` (CORS for the
 * modal and wallet origins, the modal origin of the wallet's frame policy, devnet upstreams for
 * `eip155:31337` and `eip155:31338` and the local Solana chain's, `endpoints().solana`, for
 * `SOLANA_LOCALNET_CAIP`; the devnets' bundlers, `endpoints().bundler` and `bundlerB`), then the
 * environment, then `overrides`. `upstreams` and `bundlers` (`PORTHOLE_BUNDLER_UPSTREAMS`) from
 * env and overrides are merged over the defaults; `paymaster` comes from
 * `resolvePaymasterConfig` (`PORTHOLE_PAYMASTER_KEY`, `PORTHOLE_PAYMASTERS`). `chainData` comes
 * from `resolveChainDataConfig` (indexed chains read through `upstreams`; Solana balances
 * through the `solana:` upstreams; Bitcoin balances from the local regtest's Esplora API,
 * `endpoints().bitcoin`, unless production).
 *
 * @example
 * const config = resolveConfig({ rateLimit: false })
 * config.upstreams['eip155:31337'] // 'http://127.0.0.1:8545'
 */
export function resolveConfig(
  overrides: ApiConfigOverrides = {},
  env: Record<string, string | undefined> = process.env,
): ApiConfig {
  const urls = endpoints(env)
  const production = overrides.production ?? env[CONFIG_ENV.production] === 'production'
  const upstreams: Record<string, string> = {
    ...(production
      ? {}
      : {
          'eip155:31337': urls.devnet,
          'eip155:31338': urls.devnetB,
          [SOLANA_LOCALNET_CAIP]: urls.solana,
        }),
    ...parseUpstreams(env[CONFIG_ENV.upstreams]),
    ...overrides.upstreams,
  }
  const bundlers: Record<string, string> = {
    ...(production ? {} : { 'eip155:31337': urls.bundler, 'eip155:31338': urls.bundlerB }),
    ...parseUpstreams(env[CONFIG_ENV.bundlers], CONFIG_ENV.bundlers),
    ...overrides.bundlers,
  }
  const cors = env[CONFIG_ENV.corsOrigins]
  const ratePerSecond = env[CONFIG_ENV.ratePerSecond]
  const burst = env[CONFIG_ENV.burst]
  const rateLimit: RateLimitConfig | false =
    ratePerSecond === '0'
      ? false
      : {
          ratePerSecond:
            positive(ratePerSecond, CONFIG_ENV.ratePerSecond) ?? DEFAULT_RATE_LIMIT.ratePerSecond,
          burst: positive(burst, CONFIG_ENV.burst) ?? DEFAULT_RATE_LIMIT.burst,
        }
  const { auth: authOverrides, chainData: chainDataOverrides, ...rest } = overrides
  const walletUrl = rest.walletUrl ?? urls.wallet
  const auth: AuthConfig = {
    smtpUrl: urls.smtp,
    mailFrom: env[CONFIG_ENV.mailFrom] || DEFAULT_MAIL_FROM,
    social: socialFromEnv(urls.oidc, env, { production }),
    keyDir: env[CONFIG_ENV.keyDir] || DEFAULT_KEY_DIR,
    shareKey: env[CONFIG_ENV.shareKey] || undefined,
    mailRateLimit: (rest.rateLimit ?? rateLimit) === false ? false : DEFAULT_MAIL_RATE_LIMIT,
    ...authOverrides,
  }
  return {
    publicUrl: (env[CONFIG_ENV.publicUrl] || urls.api).replace(/\/+$/, ''),
    frameOrigins: cors
      ? cors
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean)
      : [new URL(urls.modal).origin, new URL(urls.wallet).origin],
    modalOrigin: new URL(urls.modal).origin,
    rateLimit,
    projectCacheMs: 1000,
    projectNegativeCacheMs: NEGATIVE_CACHE_MS,
    rpcTimeoutMs: 10_000,
    trustProxy: proxyCount(env[CONFIG_ENV.trustProxy]),
    assetsDir: DEFAULT_ASSETS_DIR,
    onError: (error) => console.error('[api] unexpected error', error),
    credentialOrigins: [new URL(walletUrl).origin],
    paymaster: resolvePaymasterConfig(env, { production }),
    ...rest,
    walletUrl: walletUrl.replace(/\/+$/, ''),
    upstreams,
    bundlers,
    auth,
    chainData: {
      ...resolveChainDataConfig(env, {
        upstreams,
        esplora: defaultEsploraUpstreams(urls.bitcoin, { production }),
      }),
      ...chainDataOverrides,
    },
    production,
  }
}

/**
 * The OpenID client of each social provider from `PORTHOLE_SOCIAL_<PROVIDER>_ISSUER`,
 * `_CLIENT_ID` and `_CLIENT_SECRET`; defaults `<oidc>/<provider>`, `porthole-<provider>`,
 * `porthole-<provider>-secret` (the local OpenID provider of `npm start`). With `production`, a
 * provider with neither `_ISSUER` nor `_CLIENT_ID` set is left out (not offered) instead.
 *
 * @example
 * socialFromEnv('http://127.0.0.1:4600', {}).github.issuer // 'http://127.0.0.1:4600/github'
 */
export function socialFromEnv(
  oidcUrl: string,
  env: Record<string, string | undefined>,
  { production = false }: { production?: boolean } = {},
): Partial<Record<AuthSocialProvider, SocialProviderConfig>> {
  const out: Partial<Record<AuthSocialProvider, SocialProviderConfig>> = {}
  for (const provider of AuthSocialProvider.options) {
    const prefix = `${CONFIG_ENV.socialPrefix}${provider.toUpperCase()}_`
    if (production && !env[`${prefix}ISSUER`] && !env[`${prefix}CLIENT_ID`]) continue
    const issuer = env[`${prefix}ISSUER`] || `${oidcUrl}/${provider}`
    if (!/^https?:\/\//.test(issuer))
      throw new InvalidConfigError(`${prefix}ISSUER must be an http(s) URL`)
    out[provider] = {
      issuer,
      clientId: env[`${prefix}CLIENT_ID`] || `porthole-${provider}`,
      clientSecret: env[`${prefix}CLIENT_SECRET`] || `porthole-${provider}-secret`,
    }
  }
  return out
}

/**
 * Parses `PORTHOLE_RPC_UPSTREAMS` (or `name`, e.g. `PORTHOLE_BUNDLER_UPSTREAMS`): a JSON object
 * of CAIP-2 id → http(s) URL.
 *
 * @example
 * parseUpstreams('{"eip155:1":"https://eth.example"}') // { 'eip155:1': 'https://eth.example' }
 */
export function parseUpstreams(
  text: string | undefined,
  name: string = CONFIG_ENV.upstreams,
): Record<string, string> {
  if (!text) return {}
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw new InvalidConfigError(`${name} is not JSON`)
  }
  const parsed = Upstreams.safeParse(raw)
  if (!parsed.success)
    throw new InvalidConfigError(
      `${name} must map CAIP-2 ids to http(s) URLs: ${z.prettifyError(parsed.error)}`,
    )
  return parsed.data
}

/** `PORTHOLE_API_TRUST_PROXY`: a count of proxies 0–10 (`true` means one, `false` none). */
function proxyCount(value: string | undefined): number {
  if (value === undefined || value === '' || value === 'false') return 0
  if (value === 'true') return 1
  const count = Number(value)
  if (!Number.isInteger(count) || count < 0 || count > 10)
    throw new InvalidConfigError(
      `${CONFIG_ENV.trustProxy} must be the number of proxies in front that append to X-Forwarded-For (0 to 10)`,
    )
  return count
}

function positive(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined
  const number = Number(value)
  if (!Number.isFinite(number) || number <= 0)
    throw new InvalidConfigError(`${name} must be a positive number`)
  return number
}
