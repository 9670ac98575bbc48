/**
 * Switching networks (spec §2 "Network-switch view choice", §4): the view choice, the wallet
 * call (`wallet_switchEthereumChain`, and on 4902 `wallet_addEthereumChain` with the spec's
 * fields), and a failed switch sending the modal back one view.
 */
import { BaseError, InvalidParamsError, type NetworkInput } from '@porthole/protocol'
import { type ChainNamespace, type Network, resolveNetwork } from '@porthole/shared'
import { ALERTS } from '../rules/alerts.js'
import { networkSwitchView } from '../rules/networkSwitchView.js'
import { initialSendState } from '../store/sendState.js'
import { store } from '../store/store.js'
import { raiseAlert } from './alerts.js'
import { track } from './analytics.js'
import * as Balance from './balance.js'
import * as Connection from './connection.js'
import * as Modal from './modal.js'

/**
 * Refuses a namespace the host configured no network of: spec §8's 'Chain adapter not found'
 * (-32602). (AppKit has one adapter per namespace; here a namespace is there when `networks`
 * names one of its networks.) `connect({ namespace })` and `solana_requestAccounts` /
 * `eth_requestAccounts` meet it before the modal opens.
 *
 * @example
 * requireNamespace('solana') // throws with `networks: ['eip155:1']`
 */
export function requireNamespace(namespace: ChainNamespace): void {
  if (!store.getState().config.networks.some((n) => n.chainNamespace === namespace))
    throw new InvalidParamsError('Chain adapter not found', { details: namespace })
}

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

/** The wallet call of the active connection's connector (none for connectors without one). */
async function switchWallet(network: Network): Promise<void> {
  const active = Connection.activeConnection()
  const connector = active && Connection.getConnector(active.connector.id)
  if (!connector) throw new BaseError('No connector found for connection')
  await connector.switchNetwork?.(network)
}

/**
 * Makes `network` the active one (connected or not) and remembers it; the active connection
 * follows it; the send state resets (spec §4) and SWITCH_NETWORK is tracked (spec §7).
 */
function activate(network: Network): void {
  const active = Connection.activeConnection()
  const same = active?.namespace === network.chainNamespace
  Connection.commit((s) => ({
    activeNetworkId: network.caipNetworkId,
    send: initialSendState,
    connections: s.connections.map((c) =>
      same && c === active ? { ...c, caipNetworkId: network.caipNetworkId } : c,
    ),
    ...(s.connections.length === 0 ? { activeNamespace: network.chainNamespace } : {}),
  }))
  track('SWITCH_NETWORK', { network: network.caipNetworkId })
  void Balance.refresh({ force: true })
}

/**
 * Moves the modal to another namespace that has a live connection (its active one), so the
 * dapp's state names that account.
 */
function enterNamespace(namespace: ChainNamespace): boolean {
  const target = Connection.activeConnection(store.getState(), namespace)
  if (!target) return false
  Connection.selectConnection(target.connector.id, namespace)
  return true
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
  if (network.chainNamespace !== store.getState().activeNamespace)
    enterNamespace(network.chainNamespace)
  const { connection } = store.getState()
  if (connection.status === 'connected' && connection.caipNetworkId !== network.caipNetworkId) {
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
  let network: Network
  try {
    network = findNetwork(input)
  } catch (error) {
    // Spec §8: a switch to a network the dapp did not configure shows 'Network Not Found'.
    raiseAlert(ALERTS.networkNotFound)
    throw error
  }
  const { connection, connections, activeNetworkId, open } = store.getState()
  const isConnected = connection.status === 'connected'
  const choice = networkSwitchView({
    targetId: network.caipNetworkId,
    targetNamespace: network.chainNamespace,
    activeId: activeNetworkId,
    requireConfirmation: options.requireConfirmation ?? false,
    authConnectorActive: connection.connector?.type === 'AUTH',
    authNamespaces: connections.some(
      (c) => c.connector.type === 'AUTH' && c.namespace === network.chainNamespace,
    )
      ? ['eip155', 'solana']
      : ['eip155'],
    connected: isConnected,
    accountNamespaces: [...new Set(connections.map((c) => c.namespace))],
  })
  if (choice === 'none') return
  if (choice === 'confirm') {
    if (!open) store.setState({ open: true, history: [{ view: 'Account' }] })
    return Modal.push({ view: 'SwitchNetwork', network, confirm: true })
  }
  if (choice === 'SwitchActiveChain') {
    if (!open) store.setState({ open: true, history: [{ view: 'Account' }] })
    // Connect then lists the target namespace's wallets; the new account becomes active.
    store.setState({ connectNamespace: network.chainNamespace })
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
