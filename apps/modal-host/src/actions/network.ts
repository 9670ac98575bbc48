/**
 * Switching networks (spec §2 "Network-switch view choice", §4): the view choice, the wallet
 * call (`wallet_switchEthereumChain`, and on 4902 `wallet_addEthereumChain` with the spec's
 * fields), and a failed switch sending the modal back one view.
 */
import { BaseError, type NetworkInput } from '@porthole/protocol'
import { type Network, resolveNetwork, toHexChainId } from '@porthole/shared'
import { networkImageUrl } from '../api/client.js'
import { hostRequest } from '../host/bridge.js'
import { networkSwitchView } from '../rules/networkSwitchView.js'
import { savePersisted } from '../store/persist.js'
import { initialSendState } from '../store/sendState.js'
import { store } from '../store/store.js'
import { walletRequest } from '../wallet/frame.js'
import { track } from './analytics.js'
import * as Balance from './balance.js'
import * as Modal from './modal.js'
import { walletConnectRequest } from './walletconnect.js'

/**
 * Finds a configured network by CAIP-2 id, or resolves a network object; 'Network not found'
 * otherwise.
 *
 * @example
 * const network = findNetwork('eip155:8453')
 */
export function findNetwork(input: string | NetworkInput): Network {
  const { networks } = store.getState().config
  const id = typeof input === 'string' ? input : (input.caipNetworkId ?? `eip155:${input.id}`)
  const found = networks.find((n) => n.caipNetworkId === id)
  const network = found ?? (typeof input === 'string' ? undefined : resolveNetwork(input))
  if (!network) throw new BaseError('Network not found', { details: id })
  return network
}

const isUnrecognized = (error: unknown) => {
  const e = error as { code?: number; data?: { originalError?: { code?: number } } }
  return e?.code === 4902 || e?.data?.originalError?.code === 4902
}

/** The wallet call for the connected injected wallet; adds the chain on 4902. */
async function switchWallet(network: Network): Promise<void> {
  const { connection } = store.getState()
  if (connection.connector?.type === 'AUTH') {
    // Spec §4: an auth provider switches chain and reloads the user.
    await walletRequest('switchNetwork', { chainId: Number(network.id) })
    const user = await walletRequest('getUser', {})
    store.setState({ authUser: user })
    return
  }
  const chainId = toHexChainId(network.id)
  if (connection.connector?.type === 'WALLET_CONNECT') {
    // A chain the session approved switches at once; another is asked of the wallet.
    await walletConnectRequest('wallet_switchEthereumChain', [{ chainId }])
    return
  }
  const uuid = connection.connector?.uuid
  if (!uuid) throw new BaseError('No connector found for connection')
  const switchChain = () =>
    hostRequest('injectedRequest', {
      uuid,
      method: 'wallet_switchEthereumChain',
      params: [{ chainId }],
    })
  try {
    await switchChain()
  } catch (error) {
    if (!isUnrecognized(error)) throw error
    const explorer = network.blockExplorers?.default.url
    await hostRequest('injectedRequest', {
      uuid,
      method: 'wallet_addEthereumChain',
      params: [
        {
          chainId,
          chainName: network.name,
          nativeCurrency: network.nativeCurrency,
          rpcUrls: network.rpcUrls.default.http,
          ...(explorer ? { blockExplorerUrls: [explorer] } : {}),
          iconUrls: [network.assets.imageUrl ?? networkImageUrl(network.assets.imageId)],
        },
      ],
    })
    await switchChain()
  }
}

/**
 * Makes `network` the active one (connected or not) and remembers it; the send state resets
 * (spec §4) and SWITCH_NETWORK is tracked (spec §7).
 */
function activate(network: Network): void {
  const { connection } = store.getState()
  store.setState({
    activeNetworkId: network.caipNetworkId,
    send: initialSendState,
    ...(connection.status === 'connected'
      ? { connection: { ...connection, caipNetworkId: network.caipNetworkId } }
      : {}),
  })
  savePersisted((p) => ({ ...p, activeNetworkId: network.caipNetworkId }))
  track('SWITCH_NETWORK', { network: network.caipNetworkId })
  void Balance.refresh({ force: true })
}

/**
 * Performs the switch now (no view choice): the wallet when connected, else just the modal.
 * On success a SwitchNetwork/Networks trail returns to Account; on failure the modal goes back
 * one view and the error propagates.
 *
 * @example
 * await performSwitch(network)
 */
export async function performSwitch(network: Network): Promise<void> {
  const { connection } = store.getState()
  if (connection.status === 'connected') {
    try {
      await switchWallet(network)
    } catch (error) {
      if (store.getState().history.at(-1)?.view === 'SwitchNetwork') Modal.back()
      throw error
    }
  }
  activate(network)
  const { history, open } = store.getState()
  if (
    open &&
    ['SwitchNetwork', 'Networks', 'UnsupportedChain'].includes(history.at(-1)?.view ?? '')
  )
    store.setState({
      history: connection.status === 'connected' ? [{ view: 'Account' }] : [{ view: 'Connect' }],
    })
}

/**
 * Switches to `input` by the spec's view choice: same id does nothing; SwitchActiveChain when
 * the user has no account in the target namespace; a confirmation step when asked; else the
 * SwitchNetwork view (when the modal is open) while the wallet switches.
 *
 * @example
 * await switchNetwork('eip155:31338')
 */
export async function switchNetwork(
  input: string | NetworkInput,
  options: { requireConfirmation?: boolean } = {},
): Promise<void> {
  const network = findNetwork(input)
  const { connection, activeNetworkId, open } = store.getState()
  const isConnected = connection.status === 'connected'
  const choice = networkSwitchView({
    targetId: network.caipNetworkId,
    targetNamespace: network.chainNamespace,
    activeId: activeNetworkId,
    requireConfirmation: options.requireConfirmation ?? false,
    authConnectorActive: connection.connector?.type === 'AUTH',
    authNamespaces: ['eip155', 'solana'],
    connected: isConnected,
    accountNamespaces: isConnected ? ['eip155'] : [],
  })
  if (choice === 'none') return
  if (choice === 'confirm') {
    if (!open) store.setState({ open: true, history: [{ view: 'Account' }] })
    return Modal.push({ view: 'SwitchNetwork', network, confirm: true })
  }
  if (choice === 'SwitchActiveChain') {
    if (!open) store.setState({ open: true, history: [{ view: 'Account' }] })
    return Modal.push({
      view: 'SwitchActiveChain',
      switchToChain: network.chainNamespace,
      navigateTo: 'Connect',
      navigateWithReplace: true,
      network,
    })
  }
  if (open && isConnected) Modal.push({ view: 'SwitchNetwork', network, confirm: false })
  await performSwitch(network)
}
