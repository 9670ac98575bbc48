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
} as const

/**
 * Looks up a Farcaster view string and fills its `{placeholders}`.
 *
 * @example
 * tf('openFarcaster') // 'Open in Farcaster'
 */
export const tf = catalogue('farcaster', farcaster)
