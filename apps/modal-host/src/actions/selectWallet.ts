import type { WalletEntry } from '../store/types.js'
import * as Modal from './modal.js'

/**
 * Opens the connecting view for a wallet: the extension when it is installed in the host page,
 * else a WalletConnect pairing with the wallet's logo on the QR code. Connect and All Wallets
 * share it (here, so the All Wallets chunk does not import the Connect view).
 *
 * @example
 * selectWallet(wallet)
 */
export function selectWallet(wallet: WalletEntry): void {
  if (wallet.injected) Modal.push({ view: 'ConnectingExternal', wallet })
  else Modal.push({ view: 'ConnectingWalletConnect', wallet })
}
