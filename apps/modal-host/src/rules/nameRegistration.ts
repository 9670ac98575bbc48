/**
 * Who may register a name (spec §6: "Name registration needs the auth connector and an
 * address"; "Names: EVM only"). No imports, so the Account view can ask without loading the
 * name rules.
 */

/** What {@link canRegisterName} looks at. */
export type CanRegisterNameParameters = {
  /** The embedded wallet's user, when the auth connector is connected. */
  authUser: unknown
  address: string | null
  /** The active network (CAIP-2). */
  caipNetworkId: string | null
}

/**
 * Whether the connected account may register a name: an embedded-wallet account (the auth
 * connector) with an address, on an EVM network.
 *
 * @example
 * canRegisterName({ authUser, address, caipNetworkId: 'eip155:31337' }) // true
 */
export function canRegisterName(parameters: CanRegisterNameParameters): boolean {
  const { authUser, address, caipNetworkId } = parameters
  return !!authUser && !!address && !!caipNetworkId?.startsWith('eip155:')
}

/**
 * The EVM chain id of a CAIP-2 network, or null when it is not an EVM one.
 *
 * @example
 * evmChainIdOf('eip155:31337') // 31337
 */
export function evmChainIdOf(caipNetworkId: string | null): number | null {
  const match = /^eip155:(\d+)$/.exec(caipNetworkId ?? '')
  return match ? Number(match[1]) : null
}
