/**
 * Configuration of the swap endpoints (`/v1/convert/*`): the swap networks (spec §9's twelve
 * chain ids, the devnets, and any chain given a router), the Uniswap V2 router and token list
 * per chain for the local quoter, or an external provider that answers instead.
 */
import { DEVNET_AMM, DEVNET_CHAIN_IDS, DEVNET_TOKENS } from '@porthole/shared/devnet'
import { z } from 'zod'
import { InvalidConfigError } from '../config.js'

/**
 * The spec's swap networks (§9), as CAIP-2 ids.
 *
 * @example
 * SWAP_NETWORKS.includes('eip155:8453') // true
 */
export const SWAP_NETWORKS: readonly string[] = [
  1, 42161, 10, 324, 8453, 56, 137, 100, 43114, 250, 8217, 1313161554,
].map((id) => `eip155:${id}`)

/** A token of a chain's swap list (`logoUri` defaults to the API's token image by symbol). */
export type SwapTokenConfig = {
  address: string
  name: string
  symbol: string
  decimals: number
  logoUri?: string | undefined
}

/** The local quoter's view of one chain: its Uniswap V2 router and what may be traded. */
export type SwapChainConfig = {
  /** Router02 (quotes, swaps; the approvals' spender). */
  router: string
  /** The wrapped native token the router trades ETH through. */
  weth: string
  /** The router's factory; read from the router when left out. */
  factory?: string | undefined
  /** The native token's name, symbol and decimals; default the known network's, else Ether. */
  native?: { name: string; symbol: string; decimals: number } | undefined
  /** ERC-20 tokens offered (after the native token); empty: any token with a pool. */
  tokens: readonly SwapTokenConfig[]
}

/** Everything the swap endpoints need besides RPC upstreams and prices. */
export type SwapConfig = {
  /** CAIP-2 ids answered for; others get 'Network not supported for Swaps'. */
  networks: readonly string[]
  /** The local quoter's chains; a listed network without one answers 503. */
  chains: Readonly<Record<string, SwapChainConfig>>
  /** An external provider answering `/v1/convert/*` instead of the local quoter. */
  providerUrl: string | undefined
}

/**
 * Environment variables of the swap endpoints.
 *
 * @example
 * process.env[SWAP_ENV.routers] // PORTHOLE_SWAP_ROUTERS
 */
export const SWAP_ENV = {
  /** JSON `{ "<caip2>": { router, weth, factory?, native?, tokens? } }`, merged over the defaults. */
  routers: 'PORTHOLE_SWAP_ROUTERS',
  /** Base URL of an external provider speaking `/v1/convert/*` (its query is sent with every call). */
  providerUrl: 'PORTHOLE_SWAP_PROVIDER_URL',
} as const

/**
 * The devnets' AMM (`DEVNET_AMM`, deployed by `@porthole/devnet`) with ETH, pUSD and PRT.
 *
 * @example
 * DEVNET_SWAP_CHAINS['eip155:31337']?.router // '0x9C2E…a52D'
 */
export const DEVNET_SWAP_CHAINS: Readonly<Record<string, SwapChainConfig>> = Object.fromEntries(
  DEVNET_CHAIN_IDS.map((chain) => [
    chain,
    {
      router: DEVNET_AMM.router,
      weth: DEVNET_AMM.weth,
      factory: DEVNET_AMM.factory,
      tokens: DEVNET_TOKENS,
    },
  ]),
)

const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x address')
const RoutersJson = z.record(
  z.string().regex(/^eip155:[1-9]\d{0,15}$/, 'an eip155 CAIP-2 id'),
  z.object({
    router: Address,
    weth: Address,
    factory: Address.optional(),
    native: z
      .object({
        name: z.string().max(100),
        symbol: z.string().max(32),
        decimals: z.number().int().min(0).max(255),
      })
      .optional(),
    tokens: z
      .array(
        z.object({
          address: Address,
          name: z.string().max(100),
          symbol: z.string().max(32),
          decimals: z.number().int().min(0).max(255),
          logoUri: z.url({ protocol: /^https?$/ }).optional(),
        }),
      )
      .max(1000)
      .default([]),
  }),
)

/**
 * The swap configuration from the environment: the local quoter covers the devnets (unless
 * `production`) and every chain of `PORTHOLE_SWAP_ROUTERS`; the swap networks are the spec's
 * twelve, the devnets (unless `production`) and those chains. `PORTHOLE_SWAP_PROVIDER_URL` puts
 * an external provider in place of the local quoter. Throws `InvalidConfigError` on bad values.
 *
 * @example
 * resolveSwapConfig({ PORTHOLE_SWAP_ROUTERS: '{"eip155:8453":{"router":"0x…","weth":"0x…"}}' })
 */
export function resolveSwapConfig(
  env: Record<string, string | undefined> = process.env,
  { production = false }: { production?: boolean } = {},
): SwapConfig {
  const chains: Record<string, SwapChainConfig> = production ? {} : { ...DEVNET_SWAP_CHAINS }
  const text = env[SWAP_ENV.routers]?.trim()
  if (text) {
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch {
      throw new InvalidConfigError(`${SWAP_ENV.routers} is not JSON`)
    }
    const parsed = RoutersJson.safeParse(raw)
    if (!parsed.success)
      throw new InvalidConfigError(
        `${SWAP_ENV.routers} must map CAIP-2 ids to { router, weth, factory?, native?, tokens? }: ${z.prettifyError(parsed.error)}`,
      )
    Object.assign(chains, parsed.data)
  }
  const providerUrl = env[SWAP_ENV.providerUrl]?.trim() || undefined
  if (providerUrl !== undefined && !/^https?:\/\/[^/]/.test(providerUrl))
    throw new InvalidConfigError(`${SWAP_ENV.providerUrl} must be an http(s) URL`)
  const networks = [
    ...new Set([...SWAP_NETWORKS, ...(production ? [] : DEVNET_CHAIN_IDS), ...Object.keys(chains)]),
  ]
  return { networks, chains, providerUrl }
}
