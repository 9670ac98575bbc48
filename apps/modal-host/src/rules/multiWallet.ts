/**
 * Multi-wallet (spec §1, §9 "Remote features: multiWallet off"; §4 "Switching connections"):
 * which namespaces a wallet may connect in, and what choosing a connection of Connected wallets
 * does.
 *
 * With the project's `multiWallet` switch off, each namespace holds one wallet: a wallet
 * connects in the namespaces no other wallet holds (an EVM and a Solana wallet side by side stay
 * possible, as AppKit's multichain mode allows), and a wallet whose namespaces are all held by
 * others is refused with 'Multi-wallet support is not enabled…' before it is asked. With it on,
 * several wallets may share a namespace and the user picks the active one.
 */
import type { ConnectorInfo, LoginProvider } from '@porthole/protocol'
import type { ChainNamespace } from '@porthole/shared'
import type { Screen, WalletEntry } from '../store/types.js'

/** The spec's error (§8) when a second wallet would join a namespace and the switch is off. */
export const MULTI_WALLET_NOT_ENABLED =
  "Multi-wallet support is not enabled. Please enable it in your project's remote features (multiWallet)."

/** The spec's error (§8) for a connection whose status is none of connected, active, disconnected. */
export const INVALID_CONNECTION_STATUS = 'Invalid connection status'

/** A connection as these rules read it. */
type Held = { connector: Pick<ConnectorInfo, 'id'>; namespace: ChainNamespace }

/** Parameters of {@link allowedNamespaces}. */
export type AllowedNamespacesParameters = {
  /** The resolved `multiWallet` switch. */
  multiWallet: boolean
  /** Every live connection. */
  connections: readonly Held[]
  /** The wallet about to connect. */
  connectorId: string
  /** The namespaces it would connect in. */
  namespaces: readonly ChainNamespace[]
}

/**
 * The namespaces of `namespaces` the wallet may connect in: all of them with multi-wallet on;
 * with it off, those no other wallet holds (the same wallet may always reconnect).
 *
 * @example
 * allowedNamespaces({ multiWallet: false, connections: [{ connector: { id: 'a' }, namespace: 'eip155' }], connectorId: 'b', namespaces: ['eip155', 'solana'] })
 * // ['solana']
 */
export function allowedNamespaces(parameters: AllowedNamespacesParameters): ChainNamespace[] {
  const { multiWallet, connections, connectorId, namespaces } = parameters
  if (multiWallet) return [...namespaces]
  const id = connectorId.toLowerCase()
  return namespaces.filter(
    (ns) => !connections.some((c) => c.namespace === ns && c.connector.id.toLowerCase() !== id),
  )
}

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
