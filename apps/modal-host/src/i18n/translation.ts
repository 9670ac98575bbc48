/**
 * The shape of a locale's chunk (`locales/*.ts`): every catalogue's keys, translated, except the
 * spec's error strings, which are part of the API contract and stay English in every locale.
 */
import type { accountTabs } from './accountTabs.js'
import type { accountTypes } from './accountTypes.js'
import type { devices } from './devices.js'
import type { en } from './en.js'
import type { farcaster } from './farcaster.js'
import type { names } from './names.js'
import type { smartSessions } from './smartSessions.js'
import type { trade } from './trade.js'
import type { walletConnect } from './walletConnect.js'

/**
 * Keys whose English text is one of the spec's error strings (§5, §8): callers and tests match
 * them exactly, so no locale translates them (the look-up falls back to English).
 */
export const UNTRANSLATED = [
  'connectionRejected',
  'failedToConnect',
  'projectIdNotConfigured',
  'tokenBalanceUnavailable',
  'failedToFetchTransactions',
  'invalidAppConfiguration',
  'unsupportedChain',
  'errorResolvingName',
  'somethingWentWrong',
  'sendAmountAndReceiverRequired',
  'sendTokenRequired',
  'popupClosed',
  'errorRegisteringName',
  'errorFetchingNameSuggestions',
  'farcasterFailed',
] as const

/** A key of {@link UNTRANSLATED}. */
export type UntranslatedKey = (typeof UNTRANSLATED)[number]

/** A catalogue's translations: each of its keys but the untranslated ones. */
export type Translated<T> = { readonly [K in Exclude<keyof T, UntranslatedKey>]: string }

/** What a locale's chunk exports by default: its translations, by catalogue. */
export type Translation = {
  main: Translated<typeof en>
  trade: Translated<typeof trade>
  accountTabs: Translated<typeof accountTabs>
  names: Translated<typeof names>
  walletConnect: Translated<typeof walletConnect>
  farcaster: Translated<typeof farcaster>
  devices: Translated<typeof devices>
  accountTypes: Translated<typeof accountTypes>
  smartSessions: Translated<typeof smartSessions>
}
