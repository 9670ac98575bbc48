import type { ChainNamespace, Network } from '@porthole/shared'

/**
 * Namespaces the modal has an adapter for: its own connectors (browser wallets, the embedded
 * wallet) besides WalletConnect. polkadot and cosmos networks are reached over WalletConnect
 * only.
 */
export const ADAPTER_NAMESPACES: readonly ChainNamespace[] = ['eip155', 'solana', 'bip122']

/**
 * Whether the configured networks give the modal any adapter (spec §2 "Opening rules"): a
 * namespace with no configured network has none, so a host whose networks are all polkadot or
 * cosmos has no adapters and opens on WalletConnect alone (ConnectingWalletConnectBasic on
 * desktop, AllWallets on mobile).
 *
 * @example
 * hasAdapters([{ chainNamespace: 'polkadot' }]) // false
 */
export function hasAdapters(networks: readonly Pick<Network, 'chainNamespace'>[]): boolean {
  return networks.some((network) => ADAPTER_NAMESPACES.includes(network.chainNamespace))
}
