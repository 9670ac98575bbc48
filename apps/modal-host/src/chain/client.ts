/**
 * The modal's chain client per network: the API's RPC proxy first, then the network's own RPC
 * URLs the modal's CSP lets it reach (`rpcOrigins` of the runtime configuration), ranked.
 */
import type { Network } from '@porthole/shared'
import { type Client, parseUnits } from 'viem'
import { getBalance, waitForTransactionReceipt } from 'viem/actions'
import { runtime } from '../runtime.js'
import { store } from '../store/store.js'
import { getChainClient } from './transport.js'

/**
 * The cached client of a configured network.
 *
 * @example
 * const balance = await getBalance(chainClient(network), { address })
 */
export function chainClient(network: Network): Client {
  return getChainClient({
    network,
    apiUrl: runtime.apiUrl,
    projectId: store.getState().config.projectId,
    rpcOrigins: runtime.rpcOrigins,
  })
}

/** The chain reads the modal makes, imported one by one (the `viem/actions` index is large). */
export { getBalance, parseUnits, waitForTransactionReceipt }
