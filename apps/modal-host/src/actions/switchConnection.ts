import * as Injected from '../connectors/injected.js'
import { DEFAULT_SOCIALS, socialName } from '../rules/socials.js'
import { type SwitchAction, switchAction } from '../rules/switchAction.js'
import { store } from '../store/store.js'
import type { LiveConnection, WalletEntry } from '../store/types.js'
import * as Connection from './connection.js'
import * as Modal from './modal.js'

const SOCIAL_NAMES = Object.fromEntries(DEFAULT_SOCIALS.map((p) => [socialName(p), p]))

/**
 * Chooses a connection in Connected wallets (spec §4 "Switching connections"): a live one
 * becomes the active one (and the modal shows Account); a disconnected one reopens its login
 * flow — e-mail, WalletConnect, the installed wallet, or Connect when that wallet is gone — which
 * returns to Connected wallets once connected. A social login's popup must open in the same
 * click, so that action is returned for the view to start. Any other status throws 'Invalid
 * connection status'.
 *
 * @example
 * const action = switchConnection(connection, 'disconnected')
 * if (action.kind === 'social') startSocial(action.provider)
 */
export function switchConnection(connection: LiveConnection, status: string): SwitchAction {
  const wallets: WalletEntry[] = store.getState().injected.map((info) => ({
    id: Injected.connectorInfoFor(info).id,
    name: info.name,
    image: info.icon,
    ...(info.rdns ? { rdns: info.rdns } : {}),
    injected: info,
  }))
  const action = switchAction({
    connector: connection.connector,
    status,
    wallets,
    socialNames: SOCIAL_NAMES,
  })
  if (action.kind === 'select') {
    Connection.selectConnection(connection.connector.id, connection.namespace)
    Modal.replace({ view: 'Account' })
    return action
  }
  store.setState({ returnToProfileWallets: true, connectNamespace: connection.namespace })
  if (action.kind === 'reopen') Modal.push(action.screen)
  return action
}

/**
 * Forgets a disconnected connection: Connected wallets no longer lists it.
 *
 * @example
 * forgetConnection(connection)
 */
export function forgetConnection(connection: LiveConnection): void {
  store.setState((s) => ({
    recentConnections: s.recentConnections.filter(
      (c) =>
        c.namespace !== connection.namespace ||
        c.connector.id.toLowerCase() !== connection.connector.id.toLowerCase(),
    ),
  }))
}
