/**
 * The smart account's sessions list strings: a catalogue of its own, loaded with that view so
 * the modal's first download does not carry them. When a session ends comes from
 * `Intl.RelativeTimeFormat` in the chosen locale.
 */
import { catalogue } from './en.js'

export const smartSessions = {
  title: 'Sessions',
  none: 'No app holds a session key for this account.',
  revoke: 'Revoke',
  revokeFor: 'Revoke {app}',
  revoking: 'Revoking…',
  revoked: 'Session revoked',
  expires: 'Expires {when}',
  limit: '{spent} of {limit} spent',
  to: 'to {recipient}',
  anyone: 'to any address',
  nftsOne: '{count} NFT',
  nftsOther: '{count} NFTs',
  items: '{count} items',
  unmetered: 'No limit: its functions are not metered',
  loadFailed: 'Sessions could not be loaded',
} as const

/**
 * Looks up a sessions string and fills its `{placeholders}`.
 *
 * @example
 * ts('limit', { spent: '5 pUSD', limit: '20 pUSD' }) // '5 pUSD of 20 pUSD spent'
 */
export const ts = catalogue('smartSessions', smartSessions)
