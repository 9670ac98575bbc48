/**
 * The Farcaster sign-in view's strings: a catalogue of its own, loaded with that view so the
 * modal's first download does not carry them.
 */
import { catalogue } from './en.js'

export const farcaster = {
  scanWithFarcaster: 'Scan this QR code with your phone’s camera or the Farcaster app',
  farcasterQr: 'QR code to sign in with Farcaster',
  openFarcaster: 'Open in Farcaster',
  waitingForFarcaster: 'Waiting for approval in Farcaster…',
  farcasterFailed: 'Failed to connect to farcaster',
  copyLink: 'Copy link',
  linkCopied: 'Link copied',
  custodyChanged:
    'Your Farcaster account’s custody address changed since this wallet was set up. Sign in once on a device where you used the wallet before to confirm it; then this device can be set up.',
  deviceRemoved: 'This device was removed from your wallet.',
} as const

/**
 * Looks up a Farcaster view string and fills its `{placeholders}`.
 *
 * @example
 * tf('openFarcaster') // 'Open in Farcaster'
 */
export const tf = catalogue('farcaster', farcaster)
