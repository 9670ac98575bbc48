/** Parameters of {@link shouldShowUnsupportedChain}. */
export type UnsupportedChainParameters = {
  connected: boolean
  activeNetworkId: string | null
  supportedNetworkIds: readonly string[]
  enableNetworkSwitch: boolean
  allowUnsupportedChain: boolean
  /** Basic WalletConnect mode (no adapters). */
  basic: boolean
}

/**
 * Spec §2: UnsupportedChain opens when the active network is not in the supported list,
 * network switching is enabled, unsupported chains are not allowed and there is no basic
 * wallet-connect mode.
 *
 * @example
 * shouldShowUnsupportedChain({ connected: true, activeNetworkId: 'eip155:7', supportedNetworkIds: ['eip155:1'], enableNetworkSwitch: true, allowUnsupportedChain: false, basic: false }) // true
 */
export function shouldShowUnsupportedChain(parameters: UnsupportedChainParameters): boolean {
  const { connected, activeNetworkId, supportedNetworkIds } = parameters
  return (
    connected &&
    activeNetworkId !== null &&
    !supportedNetworkIds.includes(activeNetworkId) &&
    parameters.enableNetworkSwitch &&
    !parameters.allowUnsupportedChain &&
    !parameters.basic
  )
}
