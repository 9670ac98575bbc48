/**
 * The Send state (spec §3), apart from the send rules so the modal's first download does not
 * carry them.
 */
import type { BalanceEntry } from '@porthole/shared'

/**
 * The Send state of spec §3 (token, amount, receiver and its profile, loading). The token
 * balances it picks from are the Tokens tab's (one fetch, one 30 s retry gap), and the USD
 * value of the balance is derived from the chosen token, so neither is kept twice here.
 */
export type SendState = {
  token: BalanceEntry | null
  sendTokenAmount: string | null
  receiverAddress: string | null
  receiverProfileImageUrl: string | null
  receiverProfileName: string | null
  loading: boolean
}

/**
 * The Send state before anything is chosen, and after a successful send or a network switch
 * (spec §4: token, amount, receiver, profile and loading are reset).
 *
 * @example
 * store.setState({ send: initialSendState })
 */
export const initialSendState: SendState = {
  token: null,
  sendTokenAmount: null,
  receiverAddress: null,
  receiverProfileImageUrl: null,
  receiverProfileName: null,
  loading: false,
}
