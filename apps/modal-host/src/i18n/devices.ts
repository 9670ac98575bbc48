/**
 * The embedded wallet's devices: the list in Account, and the notice of a device that recovered
 * the wallet or signed in with another Farcaster custody address. A catalogue of its own, loaded
 * with that view so the modal's first download does not carry it. When something happened comes
 * from `Intl.RelativeTimeFormat` in the chosen locale.
 */
import { catalogue } from './en.js'

export const devices = {
  title: 'Devices',
  thisDevice: 'This device',
  added: 'Added {when}',
  unknownSite: 'site not known',
  recovered: 'Set up with a new sign-in',
  custodyRefused:
    'Signed in with another Farcaster custody address ({custody}) and was not given your wallet',
  remove: 'Remove',
  removeFor: 'Remove {device} ({site})',
  removing: 'Removing…',
  removed: 'Device removed',
  removeHint:
    'A removed device is signed out and gets your wallet no more. A key it already rebuilt stays with it: if you did not set that device up, move your funds to a new wallet.',
  noticeRecovered: 'Your wallet was set up on a new device: {device}, {site}, {when}.',
  noticeCustody:
    'Someone signed in with another Farcaster custody address ({custody}) on {device}, {site}, {when}, and was not given your wallet.',
  noticeNotYou: 'Not you? Remove that device, and move your funds to a new wallet.',
  review: 'Review devices',
  loadFailed: 'Devices could not be loaded',
} as const

/**
 * Looks up a devices string and fills its `{placeholders}`.
 *
 * @example
 * td('added', { when: '2 minutes ago' }) // 'Added 2 minutes ago'
 */
export const td = catalogue('devices', devices)
