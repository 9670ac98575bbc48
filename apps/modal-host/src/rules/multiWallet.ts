/**
 * Multi-wallet (spec §1, §9 "Remote features: multiWallet off"): which namespaces a wallet may
 * connect in. What choosing a connection of Connected wallets does is `switchAction.ts` (only
 * that view needs it, so it stays out of the first download).
 *
 * With the project's `multiWallet` switch off, each namespace holds one wallet: a wallet
 * connects in the namespaces no other wallet holds (an EVM and a Solana wallet side by side stay
 * possible, as AppKit's multichain mode allows), and a wallet whose namespaces are all held by
 * others is refused with 'Multi-wallet support is not enabled…' before it is asked. With it on,
 * several wallets may share a namespace and the user picks the active one.
 */
import type { ConnectorInfo } from '@porthole/protocol'
import type { ChainNamespace } from '@porthole/shared'

/** The spec's error (§8) when a second wallet would join a namespace and the switch is off. */
export const MULTI_WALLET_NOT_ENABLED =
  "Multi-wallet support is not enabled. Please enable it in your project's remote features (multiWallet)."

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
