/**
 * Spec §4 "Switching connections": what choosing a connection of Connected wallets does. Its own
 * module: only Connected wallets (a lazy view) needs it.
 */
import type { ConnectorInfo, LoginProvider } from '@porthole/protocol'
import type { Screen, WalletEntry } from '../store/types.js'

/** The spec's error (§8) for a connection whose status is none of connected, active, disconnected. */
export const INVALID_CONNECTION_STATUS = 'Invalid connection status'

/** A connection's status in Connected wallets (spec §3 "Connection"). */
export type ConnectionStatusName = 'connected' | 'active' | 'disconnected'

/** What choosing a connection of Connected wallets does ({@link switchAction}). */
export type SwitchAction =
  /** Make the live connection the active one. */
  | { kind: 'select' }
  /** Reopen its login flow on this screen, then come back to Connected wallets. */
  | { kind: 'reopen'; screen: Screen }
  /** Reopen its social login (the popup opens in the same click), then come back. */
  | { kind: 'social'; provider: LoginProvider }

/** Parameters of {@link switchAction}. */
export type SwitchActionParameters = {
  connector: Pick<ConnectorInfo, 'id' | 'type' | 'name'>
  status: string
  /** The wallets the lists show now (an installed wallet carries `injected`). */
  wallets: readonly WalletEntry[]
  /** The login providers by the name the modal shows for them ('Google', 'Farcaster', …). */
  socialNames: Readonly<Record<string, LoginProvider>>
}

/**
 * Spec §4 "Switching connections": a connected or active connection is selected; a disconnected
 * one reopens the matching login flow (e-mail, social, WalletConnect, the installed wallet —
 * Connect when that wallet is no longer installed); any other status throws 'Invalid connection
 * status'.
 *
 * @example
 * switchAction({ connector: { id: 'AUTH', type: 'AUTH', name: 'Email' }, status: 'disconnected', wallets: [], socialNames: {} })
 * // { kind: 'reopen', screen: { view: 'EmailLogin' } }
 */
export function switchAction(parameters: SwitchActionParameters): SwitchAction {
  const { connector, status, wallets, socialNames } = parameters
  if (status === 'connected' || status === 'active') return { kind: 'select' }
  if (status !== 'disconnected') throw new Error(INVALID_CONNECTION_STATUS)
  if (connector.type === 'AUTH') {
    const provider = Object.hasOwn(socialNames, connector.name)
      ? socialNames[connector.name]
      : undefined
    return provider
      ? { kind: 'social', provider }
      : { kind: 'reopen', screen: { view: 'EmailLogin' } }
  }
  if (connector.type === 'WALLET_CONNECT')
    return { kind: 'reopen', screen: { view: 'ConnectingWalletConnect' } }
  const id = connector.id.toLowerCase()
  const wallet = wallets.find(
    (w) =>
      !!w.injected &&
      (w.id.toLowerCase() === id ||
        w.rdns?.toLowerCase() === id ||
        w.injected.rdns?.toLowerCase() === id),
  )
  return {
    kind: 'reopen',
    screen: wallet ? { view: 'ConnectingExternal', wallet } : { view: 'Connect' },
  }
}
