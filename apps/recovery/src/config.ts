/**
 * The service's configuration from the environment, and the production check: with
 * `PORTHOLE_ENV=production` it refuses every local development default (and says which).
 */
import { relative, resolve } from 'node:path'
import {
  DEFAULT_ENDPOINTS,
  endpoints,
  FARCASTER_DEVNET_NETWORK,
  FARCASTER_ID_REGISTRY,
  listenHostOf,
  portOf,
} from '@porthole/shared'
import type { TrustedIssuer } from './idTokens.js'
import { DEFAULT_DATA_DIR, KEY_FILE_NAME, parseHexKey } from './masterKey.js'

/** The social providers whose ID tokens are trusted (the API's list). */
export const SOCIAL_PROVIDERS = ['google', 'github', 'apple', 'facebook', 'x', 'discord'] as const

/** The sender of the service's mail when `PORTHOLE_RECOVERY_MAIL_FROM` is not set. */
export const DEFAULT_MAIL_FROM = 'Porthole <no-reply@porthole.local>'

/** What {@link resolveRecoveryConfig} reads. */
export type RecoveryConfig = {
  publicUrl: string
  port: number
  host: string
  allowedOrigins: string[]
  smtpUrl: string
  mailFrom: string
  issuers: TrustedIssuer[]
  /**
   * The `PORTHOLE_SOCIAL_*` variables left unset for a trusted issuer (it then falls back to the
   * local OpenID provider's issuer or client id).
   */
  socialDefaults: string[]
  /** How many proxies in front append to `X-Forwarded-For` (0: use the socket's peer). */
  trustProxy: number
  dataDir: string
  masterKey?: Uint8Array
  keyFile: string
  production: boolean
  /**
   * Where Farcaster owners are checked: the IdRegistry, its chain and an RPC URL of it (the
   * service's own, never the API); null: Farcaster owners are refused.
   */
  farcaster: { rpcUrl: string; registry: `0x${string}`; chainId: number } | null
  /**
   * The API whose public project allowlist (`GET /projects/v1/origins`) says which sites a
   * project allows (`PORTHOLE_API_URL`): the only thing the service asks the API.
   */
  apiUrl: string
}

/** A configuration value that cannot be used (`message` names the variable). */
export class InvalidConfigError extends Error {
  override name = 'InvalidConfigError' as const
}

/** `PORTHOLE_ENV=production` with local development defaults; `problems` lists each. */
export class ProductionConfigError extends Error {
  override name = 'ProductionConfigError' as const
  constructor(readonly problems: readonly string[]) {
    super(
      `PORTHOLE_ENV=production, but the recovery service would run on development defaults:\n${problems.map((problem) => `- ${problem}`).join('\n')}`,
    )
  }
}

/**
 * Reads the configuration: `PORTHOLE_RECOVERY_URL` (public URL; also the listen address unless
 * `PORTHOLE_RECOVERY_LISTEN` is set), `PORTHOLE_WALLET_URL` and `PORTHOLE_RECOVERY_ALLOWED_ORIGINS`
 * (CORS), `PORTHOLE_RECOVERY_SMTP_URL` (else `PORTHOLE_SMTP_URL`), `PORTHOLE_RECOVERY_MAIL_FROM`,
 * `PORTHOLE_SOCIAL_<PROVIDER>_ISSUER` and `_CLIENT_ID` (the API's variables; never the secret),
 * `PORTHOLE_RECOVERY_TRUST_PROXY`, `PORTHOLE_RECOVERY_DATA_DIR`, `PORTHOLE_RECOVERY_KEY` or
 * `PORTHOLE_RECOVERY_KEY_FILE`, `PORTHOLE_ENV`.
 *
 * In production a provider with neither `_ISSUER` nor `_CLIENT_ID` set is not offered, so its
 * tokens are not trusted (no local default stands in for it).
 *
 * @example
 * const config = resolveRecoveryConfig(process.env)
 */
export function resolveRecoveryConfig(env: Record<string, string | undefined>): RecoveryConfig {
  const urls = endpoints(env)
  const production = env.PORTHOLE_ENV === 'production'
  const dataDir = resolve(env.PORTHOLE_RECOVERY_DATA_DIR || DEFAULT_DATA_DIR)
  const extra = (env.PORTHOLE_RECOVERY_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
  for (const origin of extra)
    if (!isOrigin(origin))
      throw new InvalidConfigError(
        `PORTHOLE_RECOVERY_ALLOWED_ORIGINS holds ${origin}, not an origin like https://wallet.example`,
      )
  const issuers: TrustedIssuer[] = []
  const socialDefaults: string[] = []
  for (const provider of SOCIAL_PROVIDERS) {
    const prefix = `PORTHOLE_SOCIAL_${provider.toUpperCase()}_`
    const issuer = env[`${prefix}ISSUER`]
    const clientId = env[`${prefix}CLIENT_ID`]
    if (production && !issuer && !clientId) continue
    if (!issuer) socialDefaults.push(`${prefix}ISSUER`)
    if (!clientId) socialDefaults.push(`${prefix}CLIENT_ID`)
    const url = issuer || `${urls.oidc}/${provider}`
    if (!/^https?:\/\/[^/]/.test(url))
      throw new InvalidConfigError(`${prefix}ISSUER must be an http(s) URL, got ${url}`)
    issuers.push({ issuer: url, clientId: clientId || `porthole-${provider}` })
  }
  const listen = env.PORTHOLE_RECOVERY_LISTEN ? listenAddress(env.PORTHOLE_RECOVERY_LISTEN) : null
  const trustProxy = Number(env.PORTHOLE_RECOVERY_TRUST_PROXY || 0)
  if (!Number.isInteger(trustProxy) || trustProxy < 0 || trustProxy > 10)
    throw new InvalidConfigError(
      'PORTHOLE_RECOVERY_TRUST_PROXY must be the number of proxies in front (0 to 10)',
    )
  return {
    publicUrl: urls.recovery,
    port: listen?.port ?? portOf(urls.recovery),
    host: listen?.host ?? listenHostOf(urls.recovery),
    allowedOrigins: [new URL(urls.wallet).origin, ...extra],
    smtpUrl: env.PORTHOLE_RECOVERY_SMTP_URL || urls.smtp,
    mailFrom: env.PORTHOLE_RECOVERY_MAIL_FROM || DEFAULT_MAIL_FROM,
    issuers,
    socialDefaults,
    trustProxy,
    dataDir,
    ...(env.PORTHOLE_RECOVERY_KEY
      ? { masterKey: parseHexKey(env.PORTHOLE_RECOVERY_KEY, 'PORTHOLE_RECOVERY_KEY') }
      : {}),
    keyFile: resolve(env.PORTHOLE_RECOVERY_KEY_FILE || `${dataDir}/${KEY_FILE_NAME}`),
    production,
    farcaster: farcasterFromEnv(env, urls.devnet, production),
    apiUrl: urls.api,
  }
}

/**
 * `PORTHOLE_FARCASTER_RPC` (default the first devnet), `PORTHOLE_FARCASTER_NETWORK` (default
 * `eip155:31337`) and `PORTHOLE_FARCASTER_ID_REGISTRY` (default the devnets' registry); in
 * production all three must be set, else Farcaster owners are refused.
 */
function farcasterFromEnv(
  env: Record<string, string | undefined>,
  devnet: string,
  production: boolean,
): RecoveryConfig['farcaster'] {
  const rpc = env.PORTHOLE_FARCASTER_RPC
  const network = env.PORTHOLE_FARCASTER_NETWORK
  const registry = env.PORTHOLE_FARCASTER_ID_REGISTRY
  if (production && !(rpc && network && registry)) return null
  const chain = /^eip155:([1-9]\d{0,15})$/.exec(network || FARCASTER_DEVNET_NETWORK)
  if (!chain)
    throw new InvalidConfigError('PORTHOLE_FARCASTER_NETWORK must be an eip155 network id')
  if (registry && !/^0x[0-9a-fA-F]{40}$/.test(registry))
    throw new InvalidConfigError('PORTHOLE_FARCASTER_ID_REGISTRY must be a contract address')
  if (rpc && !/^https?:\/\/[^/]/.test(rpc))
    throw new InvalidConfigError(`PORTHOLE_FARCASTER_RPC must be an http(s) URL, got ${rpc}`)
  return {
    rpcUrl: rpc || devnet,
    registry: (registry as `0x${string}` | undefined) ?? FARCASTER_ID_REGISTRY,
    chainId: Number(chain[1]),
  }
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return /^https?:$/.test(url.protocol) && url.origin === value
  } catch {
    return false
  }
}

/** `host:port`, `[v6]:port` or `:port` (all interfaces). */
function listenAddress(value: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(value.trim())
  const port = Number(match?.[3])
  if (!match || port > 65535)
    throw new InvalidConfigError(
      `PORTHOLE_RECOVERY_LISTEN must be host:port (e.g. 0.0.0.0:4700), got ${value}`,
    )
  return { host: match[1] ?? (match[2] || '0.0.0.0'), port }
}

const loopback = (host: string) =>
  host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host)

/**
 * What in a configuration is a local development default, one line each (empty: fit for
 * production): an http or loopback public URL or wallet origin, SMTP to the mail catcher or
 * without required TLS, the default sender, the local OpenID provider (its issuer or client id,
 * or any http / loopback issuer), the key file inside the repository.
 *
 * @example
 * productionProblems(resolveRecoveryConfig({})) // ['PORTHOLE_RECOVERY_URL is http: …', …]
 */
export function productionProblems(
  config: RecoveryConfig,
  repoRoot = resolve(DEFAULT_DATA_DIR, '..'),
): string[] {
  const problems: string[] = []
  const publicUrl = new URL(config.publicUrl)
  if (publicUrl.protocol !== 'https:' || loopback(publicUrl.hostname))
    problems.push(
      `PORTHOLE_RECOVERY_URL is ${config.publicUrl}: use the service's public https URL`,
    )
  for (const origin of config.allowedOrigins)
    if (!origin.startsWith('https:') || loopback(new URL(origin).hostname))
      problems.push(
        `The wallet origin ${origin} (CORS) is a development default: set PORTHOLE_WALLET_URL (and PORTHOLE_RECOVERY_ALLOWED_ORIGINS) to https origins`,
      )
  if (config.apiUrl === DEFAULT_ENDPOINTS.api)
    problems.push(
      `The project allowlists would be read from ${config.apiUrl}, the local API: set PORTHOLE_API_URL`,
    )
  const smtp = new URL(config.smtpUrl)
  if (loopback(smtp.hostname))
    problems.push(
      `SMTP goes to ${config.smtpUrl}, the local mail catcher: set PORTHOLE_RECOVERY_SMTP_URL`,
    )
  else if (smtp.protocol === 'smtp:' && smtp.searchParams.get('requireTLS') !== 'true')
    problems.push(
      `SMTP ${smtp.host} may fall back to plain text: use smtps:// or smtp://…?requireTLS=true`,
    )
  if (config.mailFrom === DEFAULT_MAIL_FROM)
    problems.push(
      `Mail would come from ${DEFAULT_MAIL_FROM}, the local default: set PORTHOLE_RECOVERY_MAIL_FROM`,
    )
  for (const name of config.socialDefaults)
    problems.push(`${name} is not set: the local OpenID provider's value stands in for it`)
  for (const { issuer } of config.issuers) {
    const url = new URL(issuer)
    if (url.protocol !== 'https:' || loopback(url.hostname))
      problems.push(
        `The identity provider ${issuer} is the local test provider or not https: its ID tokens would open recovery shares`,
      )
  }
  if (config.farcaster) {
    const rpc = new URL(config.farcaster.rpcUrl)
    if (rpc.protocol !== 'https:' || loopback(rpc.hostname))
      problems.push(
        `The Farcaster IdRegistry is read from ${config.farcaster.rpcUrl}, a local devnet or not https: set PORTHOLE_FARCASTER_RPC`,
      )
  }
  if (!config.masterKey && !relative(repoRoot, config.keyFile).startsWith('..'))
    problems.push(
      `The master key file ${config.keyFile} is inside the repository: set PORTHOLE_RECOVERY_KEY or a PORTHOLE_RECOVERY_DATA_DIR of the service's own outside it`,
    )
  return problems
}
