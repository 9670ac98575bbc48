import type { ChainNamespace } from '@porthole/shared'

/** Parameters of {@link networkSwitchView}. */
export type NetworkSwitchViewParameters = {
  targetId: string
  targetNamespace: ChainNamespace
  activeId: string | null
  /** The caller asked for a confirmation step. */
  requireConfirmation: boolean
  /** The embedded (auth) connector is the active connection. */
  authConnectorActive: boolean
  /** Namespaces the auth connector supports (spec §6: eip155 and solana). */
  authNamespaces: readonly ChainNamespace[]
  /** Whether a connection is live at all. */
  connected: boolean
  /** Namespaces the user has an account in. */
  accountNamespaces: readonly ChainNamespace[]
}

/** Which view a network switch shows. */
export type NetworkSwitchView = 'none' | 'confirm' | 'SwitchActiveChain' | 'SwitchNetwork'

/**
 * The network-switch view choice of spec §2: same id does nothing; confirmation when asked
 * or when the auth connector is active and supports the target; connected on one chain with
 * no account on the target's namespace (and a different chain) → SwitchActiveChain; otherwise
 * SwitchNetwork.
 *
 * @example
 * networkSwitchView({ targetId: 'eip155:1', activeId: 'eip155:1', ... }) // 'none'
 */
export function networkSwitchView(parameters: NetworkSwitchViewParameters): NetworkSwitchView {
  const { targetId, targetNamespace, activeId } = parameters
  if (targetId === activeId) return 'none'
  if (parameters.requireConfirmation) return 'confirm'
  if (parameters.authConnectorActive && parameters.authNamespaces.includes(targetNamespace))
    return 'confirm'
  if (parameters.connected && !parameters.accountNamespaces.includes(targetNamespace))
    return 'SwitchActiveChain'
  return 'SwitchNetwork'
}
