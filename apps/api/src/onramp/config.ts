/**
 * Where the on-ramp provider is and who we are to it: its URL, our API key and public key, and
 * the provider's id and name.
 */
import { endpoints } from '@porthole/shared'
import { ONRAMP_LOCAL_KEYS } from '@porthole/shared/devnet'
import { type ApiConfig, InvalidConfigError } from '../config.js'
import { OnrampProvider as OnrampProviderId } from '../projects/features.js'
import { createHttpOnrampProvider } from './createHttpOnrampProvider.js'
import type { OnrampProvider } from './OnrampProvider.js'

/** The on-ramp provider's settings. */
export type OnrampConfig = {
  /** Its base URL (`PORTHOLE_ONRAMP_URL`). */
  url: string
  /** Our secret for its server API. */
  apiKey: string
  /** Our public key, carried by checkout links. */
  publicKey: string
  /** Its id in the projects' remote features and its display name. */
  provider: { id: OnrampProviderId; name: string }
  /** Per provider call; default 5 s. */
  timeoutMs: number
}

/** Environment variables of {@link resolveOnrampConfig} (besides `PORTHOLE_ONRAMP_URL`). */
export const ONRAMP_CONFIG_ENV = {
  apiKey: 'PORTHOLE_ONRAMP_API_KEY',
  publicKey: 'PORTHOLE_ONRAMP_PUBLIC_KEY',
  providerId: 'PORTHOLE_ONRAMP_PROVIDER_ID',
  providerName: 'PORTHOLE_ONRAMP_PROVIDER_NAME',
} as const

/** Id and name of the local provider (it stands in for the spec's default, meld). */
export const LOCAL_ONRAMP_PROVIDER = { id: 'meld', name: 'Porthole test checkout' } as const

/**
 * On-ramp settings from the environment: `PORTHOLE_ONRAMP_URL` (default the local provider,
 * http://127.0.0.1:4900), `PORTHOLE_ONRAMP_API_KEY` and `PORTHOLE_ONRAMP_PUBLIC_KEY` (default
 * the local provider's public development keys), `PORTHOLE_ONRAMP_PROVIDER_ID` (`meld` or
 * `coinbase`, default `meld`) and `PORTHOLE_ONRAMP_PROVIDER_NAME`. In production, null (no
 * provider: options and quotes answer the fallback, orders 503) unless the URL and both keys
 * are set.
 *
 * @example
 * resolveOnrampConfig({}, { production: false }).url // 'http://127.0.0.1:4900'
 */
export function resolveOnrampConfig(
  env: Record<string, string | undefined>,
  { production }: { production: boolean },
): OnrampConfig | null {
  const url = env.PORTHOLE_ONRAMP_URL
  const apiKey = env[ONRAMP_CONFIG_ENV.apiKey]
  const publicKey = env[ONRAMP_CONFIG_ENV.publicKey]
  if (production && !(url && apiKey && publicKey)) return null
  const id = OnrampProviderId.safeParse(env[ONRAMP_CONFIG_ENV.providerId] || 'meld')
  if (!id.success)
    throw new InvalidConfigError(
      `${ONRAMP_CONFIG_ENV.providerId} must be one of ${OnrampProviderId.options.join(', ')}`,
    )
  const base = url || endpoints(env).onramp
  if (!/^https?:\/\//.test(base))
    throw new InvalidConfigError('PORTHOLE_ONRAMP_URL must be an http(s) URL')
  return {
    url: base.replace(/\/+$/, ''),
    apiKey: apiKey || ONRAMP_LOCAL_KEYS.apiKey,
    publicKey: publicKey || ONRAMP_LOCAL_KEYS.publicKey,
    provider: {
      id: id.data,
      name: env[ONRAMP_CONFIG_ENV.providerName] || LOCAL_ONRAMP_PROVIDER.name,
    },
    timeoutMs: 5000,
  }
}

/**
 * The on-ramp provider of an API configuration: `config.onramp` when given (null: none), else
 * {@link resolveOnrampConfig} from `env`.
 *
 * @example
 * onrampRoutes(app, guard, { provider: onrampProviderOf(config) })
 */
export function onrampProviderOf(
  config: Pick<ApiConfig, 'onramp' | 'production'>,
  env: Record<string, string | undefined> = process.env,
): OnrampProvider | null {
  const resolved =
    config.onramp === undefined
      ? resolveOnrampConfig(env, { production: config.production })
      : config.onramp
  return resolved
    ? createHttpOnrampProvider({
        url: resolved.url,
        apiKey: resolved.apiKey,
        publicKey: resolved.publicKey,
        provider: resolved.provider,
        timeoutMs: resolved.timeoutMs,
      })
    : null
}
