/**
 * The Tokens tab's balances (spec §4, §5, §9): from the wallet's own asset discovery when it
 * reports support (`wallet_getAssets`, every answer validated), otherwise from the blockchain
 * data service. Cached 30 s per account and network; a failure (or a network the service does
 * not cover) shows 'Token Balance Unavailable' and the next try waits 30 s from it.
 */
import type { BalanceEntry, Network } from '@porthole/shared'
import { toHexChainId } from '@porthole/shared'
import { getBalances, getSupportedChains } from '../api/blockchain.js'
import { t } from '../i18n/en.js'
import { balanceFetchDecision, cacheKey, writeCache } from '../rules/caches.js'
import {
  getAssetsRequest,
  supportsAssetDiscovery,
  validateWalletAssets,
  walletAssetsToBalances,
} from '../rules/tokens.js'
import { store } from '../store/store.js'
import { reportError } from './analytics.js'
import { connectorRequest } from './connection.js'
import * as Modal from './modal.js'

/** The clock, replaceable in tests. */
export const clock = { now: () => Date.now() }

/** The networks the data service covers, asked once per page. */
let supported: Promise<string[]> | undefined
function supportedChains(): Promise<string[]> {
  supported ??= getSupportedChains().then(({ http }) => http)
  supported.catch(() => {
    supported = undefined
  })
  return supported
}

/** Capabilities per connected account, asked once per connection. */
const capabilities = new Map<string, Promise<unknown>>()

/** The wallet's own balances for the network, or undefined (no support, or an invalid answer). */
async function walletBalances(
  network: Network,
  address: string,
): Promise<BalanceEntry[] | undefined> {
  const { connector } = store.getState().connection
  const id = `${connector?.type}:${connector?.id}:${address}`
  let answer = capabilities.get(id)
  if (!answer) {
    answer = connectorRequest('wallet_getCapabilities', [address]).catch(() => undefined)
    capabilities.set(id, answer)
  }
  if (!supportsAssetDiscovery(await answer, toHexChainId(network.id))) return undefined
  const request = getAssetsRequest({ account: address, chainIds: [network.caipNetworkId] })
  const assets = validateWalletAssets(
    await connectorRequest(request.method, request.params).catch(() => undefined),
  )
  if (!assets) return undefined
  return walletAssetsToBalances(assets).filter((entry) => entry.chainId === network.caipNetworkId)
}

let inFlight: { key: string; done: Promise<void> } | undefined

/**
 * The balances of the connected account on the active network, from the cache when fresh.
 * `force` skips the cache (after a send), never the 30 s gap after a failure.
 *
 * @example
 * await refreshTokens()
 */
export async function refreshTokens(options: { force?: boolean } = {}): Promise<void> {
  const { connection, config, tokens } = store.getState()
  const address = connection.address
  const caipNetworkId = connection.caipNetworkId
  if (connection.status !== 'connected' || !address || !caipNetworkId) return
  const key = cacheKey({ caipNetworkId, address })
  const decision = balanceFetchDecision({
    entry: tokens.cache[key],
    lastFailure: tokens.lastFailure,
    forceUpdate: options.force,
    now: clock.now(),
  })
  if (decision.action !== 'fetch') return
  // Only the configured networks; the wallet's own asset discovery is EVM's (EIP-7811).
  const network = config.networks.find((n) => n.caipNetworkId === caipNetworkId)
  if (!network) return unavailable(undefined)
  if (inFlight?.key === key) return inFlight.done
  store.setState((s) => ({ tokens: { ...s.tokens, loading: true } }))
  const done = (async () => {
    try {
      let entries =
        network.chainNamespace === 'eip155' ? await walletBalances(network, address) : undefined
      if (!entries) {
        if (!(await supportedChains()).includes(network.caipNetworkId))
          throw new Error(`The data service does not cover ${network.caipNetworkId}`)
        entries = (
          await getBalances(address, { chainId: network.caipNetworkId, forceUpdate: options.force })
        ).balances
      }
      const value = entries
      store.setState((s) => ({
        tokens: {
          cache: writeCache({
            cache: s.tokens.cache,
            key,
            value,
            kind: 'balance',
            now: clock.now(),
          }),
          lastFailure: null,
          loading: false,
        },
      }))
    } catch (error) {
      store.setState((s) => ({ tokens: { ...s.tokens, loading: false } }))
      unavailable(error)
    } finally {
      if (inFlight?.key === key) inFlight = undefined
    }
  })()
  inFlight = { key, done }
  return done
}

/** 'Token Balance Unavailable' (spec §8); the next fetch waits 30 s. */
function unavailable(error: unknown): void {
  store.setState((s) => ({ tokens: { ...s.tokens, lastFailure: clock.now() } }))
  Modal.showToast(t('tokenBalanceUnavailable'), 'error')
  if (error) reportError(error, { category: 'API_ERROR' })
}

/**
 * Forgets what was learned about the data service and the wallet (on disconnect: the next
 * wallet may answer capabilities differently).
 *
 * @example
 * forgetTokenSources()
 */
export function forgetTokenSources(): void {
  supported = undefined
  capabilities.clear()
}

// This module loads with the views that show balances; from then on a disconnect forgets.
store.subscribe((state, previous) => {
  if (previous.connection.status === 'connected' && state.connection.status !== 'connected')
    forgetTokenSources()
})

/**
 * The cached balances of the connected account on the active network (fresh or not), or
 * undefined when there are none.
 *
 * @example
 * const entries = currentTokens(store.getState())
 */
export function currentTokens(
  state: ReturnType<typeof store.getState>,
): BalanceEntry[] | undefined {
  const { connection, tokens } = state
  if (!connection.address || !connection.caipNetworkId) return undefined
  return tokens.cache[
    cacheKey({ caipNetworkId: connection.caipNetworkId, address: connection.address })
  ]?.value
}
