import type { PriceSource } from '../chaindata/prices.js'
import type { SwapConfig } from './config.js'
import { createHttpSwapProvider } from './createHttpSwapProvider.js'
import { createLocalSwapProvider } from './createLocalSwapProvider.js'
import type { SwapProvider } from './SwapProvider.js'

/** What {@link createSwapProvider} needs besides the swap configuration. */
export type CreateSwapProviderParameters = {
  /** JSON-RPC URL per CAIP-2 id (the API's `upstreams`). */
  upstreams: Readonly<Record<string, string>>
  prices: PriceSource
  publicUrl: string
  /** Whether the API has a token image of this id (lower-case symbol). */
  hasIcon: (id: string) => boolean
  timeoutMs: number
}

/**
 * The configured swap provider: the external one when `config.providerUrl` is set, else the
 * local quoter over `config.chains`' routers.
 *
 * @example
 * const provider = createSwapProvider(resolveSwapConfig(), { upstreams, prices, publicUrl, hasIcon, timeoutMs: 10_000 })
 */
export function createSwapProvider(
  config: SwapConfig,
  { upstreams, prices, publicUrl, hasIcon, timeoutMs }: CreateSwapProviderParameters,
): SwapProvider {
  if (config.providerUrl) return createHttpSwapProvider({ url: config.providerUrl, timeoutMs })
  return createLocalSwapProvider({
    chains: config.chains,
    upstreams,
    prices,
    publicUrl,
    hasIcon,
    timeoutMs,
  })
}
