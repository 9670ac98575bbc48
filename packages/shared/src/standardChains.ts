/**
 * Wallet Standard chain names (`solana:mainnet`, `bitcoin:regtest`, …) and the CAIP-2 ids they
 * stand for. Injected Solana and Bitcoin wallets declare the former; Porthole's state uses the
 * latter.
 */
import { BITCOIN_REGTEST_CAIP } from './bitcoinLocal.js'
import { SOLANA_LOCALNET_CAIP } from './solanaLocal.js'

/** Wallet Standard chain → CAIP-2 id. */
export const STANDARD_CHAINS: Readonly<Record<string, string>> = {
  'solana:mainnet': 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  'solana:devnet': 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  'solana:testnet': 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
  'solana:localnet': SOLANA_LOCALNET_CAIP,
  'bitcoin:mainnet': 'bip122:000000000019d6689c085ae165831e93',
  'bitcoin:testnet': 'bip122:000000000933ea01ad0ee984209779ba',
  'bitcoin:regtest': BITCOIN_REGTEST_CAIP,
}

/**
 * The CAIP-2 id of a Wallet Standard chain, if known.
 *
 * @example
 * caipOfStandardChain('solana:mainnet') // 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
 */
export function caipOfStandardChain(chain: string): string | undefined {
  return Object.hasOwn(STANDARD_CHAINS, chain) ? STANDARD_CHAINS[chain] : undefined
}

/**
 * The Wallet Standard chain of a CAIP-2 id, if known.
 *
 * @example
 * standardChainOf('bip122:0f9188f13cb7b2c71f2a335e3a4fc328') // 'bitcoin:regtest'
 */
export function standardChainOf(caipNetworkId: string): string | undefined {
  return Object.keys(STANDARD_CHAINS).find((chain) => STANDARD_CHAINS[chain] === caipNetworkId)
}
