/**
 * Default addresses of the local stack (DESIGN §6) and the environment variables that
 * override them. Every service and test reads its addresses through {@link endpoints}.
 */

/** Default address of each local service. */
export const DEFAULT_ENDPOINTS = {
  demo: 'http://localhost:4000',
  // The wagmi example app (`apps/wagmi-example`), another host site of the demo project.
  wagmiExample: 'http://localhost:4030',
  modal: 'http://127.0.0.1:4100',
  // A domain, not an IP address: passkeys (WebAuthn) refuse IP addresses as relying parties.
  // Browsers resolve every `*.localhost` name to loopback and treat it as a secure context.
  wallet: 'http://wallet.localhost:4200',
  api: 'http://127.0.0.1:4300',
  relay: 'ws://127.0.0.1:4400',
  mail: 'http://127.0.0.1:4500',
  smtp: 'smtp://127.0.0.1:2525',
  oidc: 'http://127.0.0.1:4600',
  recovery: 'http://127.0.0.1:4700',
  // The Farcaster auth relay stand-in (Sign In With Farcaster channels).
  farcaster: 'http://127.0.0.1:4800',
  // The local on-ramp provider (a card/bank checkout stand-in).
  onramp: 'http://127.0.0.1:4900',
  // ERC-4337 bundlers (alto), one per devnet.
  bundler: 'http://127.0.0.1:4350',
  bundlerB: 'http://127.0.0.1:4351',
  devnet: 'http://127.0.0.1:8545',
  devnetB: 'http://127.0.0.1:8546',
  // JSON-RPC over HTTP; subscriptions on the next port (8900), as Solana's tools expect.
  solana: 'http://127.0.0.1:8899',
  // Esplora-style REST of the regtest stand-in.
  bitcoin: 'http://127.0.0.1:18443',
} as const

/** A service of the local stack. */
export type Endpoint = keyof typeof DEFAULT_ENDPOINTS

/** The environment variable that overrides each address. */
export const ENDPOINT_ENV: Record<Endpoint, string> = {
  demo: 'PORTHOLE_DEMO_URL',
  wagmiExample: 'PORTHOLE_WAGMI_EXAMPLE_URL',
  modal: 'PORTHOLE_MODAL_URL',
  wallet: 'PORTHOLE_WALLET_URL',
  api: 'PORTHOLE_API_URL',
  relay: 'PORTHOLE_RELAY_URL',
  mail: 'PORTHOLE_MAIL_URL',
  smtp: 'PORTHOLE_SMTP_URL',
  oidc: 'PORTHOLE_OIDC_URL',
  recovery: 'PORTHOLE_RECOVERY_URL',
  farcaster: 'PORTHOLE_FARCASTER_URL',
  onramp: 'PORTHOLE_ONRAMP_URL',
  bundler: 'PORTHOLE_BUNDLER_URL',
  bundlerB: 'PORTHOLE_BUNDLER_B_URL',
  devnet: 'PORTHOLE_DEVNET_RPC',
  devnetB: 'PORTHOLE_DEVNET_B_RPC',
  solana: 'PORTHOLE_SOLANA_RPC',
  bitcoin: 'PORTHOLE_BITCOIN_URL',
}

/**
 * Resolves every address from `env` (default `process.env`), falling back to the defaults.
 * Trailing slashes are removed.
 *
 * @example
 * const { api } = endpoints() // 'http://127.0.0.1:4300' unless PORTHOLE_API_URL is set
 */
export function endpoints(
  env: Record<string, string | undefined> = (
    globalThis as { process?: { env: Record<string, string | undefined> } }
  ).process?.env ?? {},
): Record<Endpoint, string> {
  const out = {} as Record<Endpoint, string>
  for (const key of Object.keys(DEFAULT_ENDPOINTS) as Endpoint[])
    out[key] = (env[ENDPOINT_ENV[key]] || DEFAULT_ENDPOINTS[key]).replace(/\/+$/, '')
  return out
}

/**
 * The interface a local server for `url` listens on: its host name, except `*.localhost` names
 * (which browsers resolve to loopback themselves, but Node's resolver does not) listen on
 * `127.0.0.1`.
 *
 * @example
 * listenHostOf('http://wallet.localhost:4200') // '127.0.0.1'
 */
export function listenHostOf(url: string): string {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
  return host.endsWith('.localhost') ? '127.0.0.1' : host
}

/**
 * The port an `http://host:port` or `ws://host:port` address listens on.
 *
 * @example
 * portOf('http://127.0.0.1:4300') // 4300
 */
export function portOf(url: string): number {
  const parsed = new URL(url)
  if (parsed.port) return Number(parsed.port)
  return parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? 443 : 80
}

/** The demo project seeded by `npm start`; its allowlist holds the demo origin. */
export const DEMO_PROJECT_ID = 'porthole-demo'
