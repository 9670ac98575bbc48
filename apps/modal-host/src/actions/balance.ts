/**
 * The connected account's native balance, read from the chain through the API's RPC proxy.
 * Cached 30 s; after a failure it is retried only 30 s later (spec §9).
 */
import { rpcRequest } from '../chain/rpc.js'
import { store } from '../store/store.js'

export const BALANCE_CACHE_MS = 30_000
export const BALANCE_RETRY_MS = 30_000

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
  if (network.chainNamespace !== 'eip155') return
  const key = `${network.caipNetworkId}:${connection.address}`
  const age = balance?.key === key ? clock.now() - balance.fetchedAt : Number.POSITIVE_INFINITY
  if (balance?.key === key && balance.failed && age < BALANCE_RETRY_MS) return
  if (!options.force && age < BALANCE_CACHE_MS) return
  if (inFlight) return inFlight
  const { symbol, decimals } = network.nativeCurrency
  inFlight = (async () => {
    try {
      const hex = await rpcRequest<string>(
        network.caipNetworkId,
        'eth_getBalance',
        [connection.address, 'latest'],
        config.projectId,
      )
      store.setState({
        balance: {
          key,
          value: BigInt(hex),
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
