import type { OpenableView } from '@porthole/protocol'
import type { Screen } from '../store/types.js'

/** Parameters of {@link openingScreen}. */
export type OpeningScreenParameters = {
  requested?: OpenableView | undefined
  connected: boolean
  hasAdapters: boolean
  isMobile: boolean
}

/**
 * The first screen when the modal opens (spec §2 "Opening rules"): a requested view wins;
 * connected → Account; no adapters and no address → AllWallets on mobile,
 * ConnectingWalletConnectBasic on desktop (the QR view, `basic`);
 * otherwise Connect.
 *
 * @example
 * openingScreen({ connected: true, hasAdapters: true, isMobile: false }) // { view: 'Account' }
 */
export function openingScreen(parameters: OpeningScreenParameters): Screen {
  const { requested, connected, hasAdapters, isMobile } = parameters
  if (requested === 'Account' && !connected) return { view: 'Connect' }
  if (requested) return { view: requested }
  if (connected) return { view: 'Account' }
  if (!hasAdapters)
    return isMobile ? { view: 'AllWallets' } : { view: 'ConnectingWalletConnect', basic: true }
  return { view: 'Connect' }
}
