import { endpoints } from '@porthole/shared'
import { z } from 'zod'
import { DEFAULT_ASSETS_DIR } from './assets/loadImageAssets.js'
import { CaipNetworkId } from './catalogue/catalogue.js'

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
  /** Request rate limit, or `false` for none. */
  rateLimit: RateLimitConfig | false
  /** How long a project lookup is reused (≤ 1000 ms keeps CLI changes visible within 1 s). */
  projectCacheMs: number
  /** Chain RPC upstream timeout (spec §9: RPC timeout 10 s). */
  rpcTimeoutMs: number
  /** Read the client IP from `X-Forwarded-For` (only behind a trusted proxy). */
  trustProxy: boolean
  /** Directory holding `wallets/`, `networks/`, `currencies/`, `tokens/` images. */
  assetsDir: string
  /** Called with unexpected errors (answered as 500 Server Error). */
  onError: (error: unknown) => void
}

/** Environment variables read by {@link resolveConfig} (besides the `@porthole/shared` endpoints). */
export const CONFIG_ENV = {
  publicUrl: 'PORTHOLE_API_PUBLIC_URL',
  corsOrigins: 'PORTHOLE_API_CORS_ORIGINS',
  upstreams: 'PORTHOLE_RPC_UPSTREAMS',
  ratePerSecond: 'PORTHOLE_RATE_LIMIT_PER_SECOND',
  burst: 'PORTHOLE_RATE_LIMIT_BURST',
  trustProxy: 'PORTHOLE_API_TRUST_PROXY',
} as const

/** The default rate limit: 50 requests per second, bursts of 200, per client IP and project. */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { ratePerSecond: 50, burst: 200 }

/** Thrown for an invalid configuration value. */
export class InvalidConfigError extends Error {
  override name = 'InvalidConfigError' as const
}

const Upstreams = z.record(CaipNetworkId, z.url({ protocol: /^https?$/ }))

/**
 * Builds the API configuration: defaults from `@porthole/shared` `endpoints()` (CORS for the
 * modal and wallet origins, the modal origin of the wallet's frame policy, devnet upstreams for `eip155:31337` and `eip155:31338`), then the
 * environment, then `overrides`. `upstreams` from env and overrides are merged over the defaults.
 *
 * @example
 * const config = resolveConfig({ rateLimit: false })
 * config.upstreams['eip155:31337'] // 'http://127.0.0.1:8545'
 */
export function resolveConfig(
  overrides: Partial<ApiConfig> = {},
  env: Record<string, string | undefined> = process.env,
): ApiConfig {
  const urls = endpoints(env)
  const upstreams: Record<string, string> = {
    'eip155:31337': urls.devnet,
    'eip155:31338': urls.devnetB,
    ...parseUpstreams(env[CONFIG_ENV.upstreams]),
    ...overrides.upstreams,
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
    rpcTimeoutMs: 10_000,
    trustProxy: env[CONFIG_ENV.trustProxy] === '1' || env[CONFIG_ENV.trustProxy] === 'true',
    assetsDir: DEFAULT_ASSETS_DIR,
    onError: (error) => console.error('[api] unexpected error', error),
    ...overrides,
    upstreams,
  }
}

/**
 * Parses `PORTHOLE_RPC_UPSTREAMS`: a JSON object of CAIP-2 id → http(s) URL.
 *
 * @example
 * parseUpstreams('{"eip155:1":"https://eth.example"}') // { 'eip155:1': 'https://eth.example' }
 */
export function parseUpstreams(text: string | undefined): Record<string, string> {
  if (!text) return {}
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw new InvalidConfigError(`${CONFIG_ENV.upstreams} is not JSON`)
  }
  const parsed = Upstreams.safeParse(raw)
  if (!parsed.success)
    throw new InvalidConfigError(
      `${CONFIG_ENV.upstreams} must map CAIP-2 ids to http(s) URLs: ${z.prettifyError(parsed.error)}`,
    )
  return parsed.data
}

function positive(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined
  const number = Number(value)
  if (!Number.isFinite(number) || number <= 0)
    throw new InvalidConfigError(`${name} must be a positive number`)
  return number
}
