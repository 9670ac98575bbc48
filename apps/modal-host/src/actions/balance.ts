/**
 * The connected account's native balance, read from the chain (the API's RPC proxy first, then
 * the network's reachable RPC URLs). Cached 30 s; after a failure it is retried only 30 s
 * later (spec §9).
 */
import type { Network } from '@porthole/shared'
import { BALANCE_RETRY_MS, CACHE_DURATIONS } from '../rules/caches.js'
import { store } from '../store/store.js'

/** The clock, replaceable in tests. */
export const clock = { now: () => Date.now() }

let inFlight: Promise<void> | undefined

/**
 * Refreshes the balance unless a fresh reading (or a recent failure) exists.
 *
 * @example
 * await refresh({ force: true })
 */
export async function refresh(options: { force?: boolean } = {}): Promise<void> {
  const { connection, config, balance } = store.getState()
  const network = config.networks.find((n) => n.caipNetworkId === connection.caipNetworkId)
  if (connection.status !== 'connected' || !connection.address || !network) return
  const key = `${network.caipNetworkId}:${connection.address}`
  const age = balance?.key === key ? clock.now() - balance.fetchedAt : Number.POSITIVE_INFINITY
  if (balance?.key === key && balance.failed && age < BALANCE_RETRY_MS) return
  if (!options.force && age < CACHE_DURATIONS.nativeBalance) return
  if (inFlight) return inFlight
  const { symbol, decimals } = network.nativeCurrency
  inFlight = (async () => {
    try {
      const value =
        network.chainNamespace === 'eip155'
          ? await evmBalance(network, connection.address as `0x${string}`)
          : await nativeFromDataService(network, connection.address as string)
      store.setState({
        balance: {
          key,
          value,
          symbol,
          decimals,
          fetchedAt: clock.now(),
          failed: false,
        },
      })
    } catch {
      store.setState({
        balance: { key, value: null, symbol, decimals, fetchedAt: clock.now(), failed: true },
      })
    } finally {
      inFlight = undefined
    }
  })()
  return inFlight
}

/** EVM: read from the chain. The chain client (viem's transports) loads with the first balance. */
async function evmBalance(network: Network, address: `0x${string}`): Promise<bigint> {
  const { chainClient, getBalance } = await import('../chain/client.js')
  return getBalance(chainClient(network), { address })
}

/** Solana and Bitcoin: the native line of the blockchain data service (the API reads the chain). */
async function nativeFromDataService(network: Network, address: string): Promise<bigint> {
  const [{ getBalances }, { parseUnits }] = await Promise.all([
    import('../api/blockchain.js'),
    // viem's decimal parsing comes with the chain code, not in the modal's first download.
    import('../chain/client.js'),
  ])
  const { balances } = await getBalances(address, { chainId: network.caipNetworkId })
  const native = balances.find((b) => !b.address && b.chainId === network.caipNetworkId)
  if (!native) return 0n
  return parseUnits(native.quantity.numeric, network.nativeCurrency.decimals)
}
