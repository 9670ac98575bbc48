/**
 * The on-ramp state (spec §3): providers, the selected one, currencies, amounts, quotes loading
 * and the last error. Kept in the modal's store once the on-ramp views first open; reset
 * restores these defaults (spec §4).
 */
import type {
  OnrampPaymentCurrency,
  OnrampPurchaseCurrency,
  OnrampQuoteResponse,
} from '@porthole/shared'

/** The on-ramp state. */
export type OnrampState = {
  /** Provider ids (spec §5: a list of strings, else empty). */
  providers: string[]
  selectedProvider: string | null
  /** The provider's display name, from its options. */
  providerName: string | null
  error: string | null
  /** The currency bought (id, e.g. 'USDC'). */
  purchaseCurrency: string
  /** The currency paid with (e.g. 'USD'). */
  paymentCurrency: string
  /** The payment method (a limit id: 'card', 'ach_bank_account'). */
  paymentMethod: string
  purchaseCurrencies: OnrampPurchaseCurrency[]
  paymentCurrencies: OnrampPaymentCurrency[]
  /** The options are the fallback table (the provider could not be reached). */
  fallback: boolean
  quotesLoading: boolean
  quote: OnrampQuoteResponse | null
  /** What the quote buys (decimal string). */
  purchaseAmount: string | null
  /** What the user pays, as typed. */
  paymentAmount: string
  /** The checkout of the order being followed, to open it again. */
  checkoutUrl: string | null
}

/**
 * The defaults: USDC paid in USD by card (spec §3), nothing loaded.
 *
 * @example
 * store.setState({ onramp: initialOnrampState })
 */
export const initialOnrampState: OnrampState = {
  providers: [],
  selectedProvider: null,
  providerName: null,
  error: null,
  purchaseCurrency: 'USDC',
  paymentCurrency: 'USD',
  paymentMethod: 'card',
  purchaseCurrencies: [],
  paymentCurrencies: [],
  fallback: false,
  quotesLoading: false,
  quote: null,
  purchaseAmount: null,
  paymentAmount: '',
  checkoutUrl: null,
}
