/**
 * The WalletConnect QR view's strings: a catalogue of its own, loaded with that view so the
 * modal's first download does not carry them.
 */
import { catalogue } from './en.js'

export const walletConnect = {
  scanWithPhone: 'Scan with your phone',
  scanWithWallet: 'Scan this QR code with {name}',
  copyLink: 'Copy link',
  linkCopied: 'Link copied',
  openInApp: 'Open in app',
} as const

/**
 * Looks up a WalletConnect QR view string and fills its `{placeholders}`.
 *
 * @example
 * tw('scanWithWallet', { name: 'Rainbow' }) // 'Scan this QR code with Rainbow'
 */
export const tw = catalogue('walletConnect', walletConnect)
