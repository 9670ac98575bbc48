/**
 * viem chain definitions for Porthole's local devnets.
 */
import { defineChain } from 'viem'

/** Chain id of the main local devnet (port 8545). */
export const DEVNET_CHAIN_ID = 31337

/** Chain id of the second local devnet (port 8546), the network to switch to. */
export const DEVNET_B_CHAIN_ID = 31338

/** Options of {@link devnetChain}. */
export type DevnetChainParameters = { chainId: number; rpcUrl: string }

/**
 * A viem chain for a devnet: 18-decimal ETH, the given RPC URL.
 *
 * @example
 * createWalletClient({ chain: devnetChain({ chainId: 31337, rpcUrl }), transport: http() })
 */
export function devnetChain({ chainId, rpcUrl }: DevnetChainParameters) {
  return defineChain({
    id: chainId,
    name: `Porthole Devnet ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    testnet: true,
  })
}
