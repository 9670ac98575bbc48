/**
 * The swap view's state: the tokens, the amounts as typed, the last quote and where an approval
 * or swap stands. Kept in the modal's store once the swap views first open.
 */
import type { SwapQuote, SwapToken } from '@porthole/shared'
import type { SwapAsset } from '../rules/swap.js'

/** The swap state. */
export type SwapState = {
  /** The network (CAIP-2) it belongs to; a network switch starts over. */
  caipNetworkId: string | null
  /** The tokens the network swaps (`/v1/convert/tokens`); null until loaded. */
  tokens: SwapToken[] | null
  fromToken: SwapAsset | null
  toToken: SwapAsset | null
  fromAmount: string
  toAmount: string
  /** The side the user typed last (the other one is quoted). */
  edited: 'from' | 'to'
  quote: SwapQuote | null
  quoteLoading: boolean
  /** What the last quote or token list failed with (a new quote clears it). */
  error: string | null
  /**
   * What the last approval or swap failed with. Quotes refreshing in the background leave it:
   * only a change of what is asked (amount, tokens) or the next attempt clears it.
   */
  failure: string | null
  /** The exchange's allowance on the from-token (base units), null when not known. */
  allowance: string | null
  step: 'idle' | 'approving' | 'swapping'
  /** The network's standard gas price in wei (`/v1/convert/gas-price`), null until known. */
  gasPrice: string | null
  /** USD prices by lower-case CAIP-10 token id (`/v1/fungible/price`): the native token's, and tokens not held. */
  prices: Readonly<Record<string, number>>
}

/**
 * The swap state before anything is chosen.
 *
 * @example
 * store.setState({ swap: initialSwapState })
 */
export const initialSwapState: SwapState = {
  caipNetworkId: null,
  tokens: null,
  fromToken: null,
  toToken: null,
  fromAmount: '',
  toAmount: '',
  edited: 'from',
  quote: null,
  quoteLoading: false,
  error: null,
  failure: null,
  allowance: null,
  step: 'idle',
  gasPrice: null,
  prices: {},
}
