/**
 * The send, receive, swap and on-ramp views' strings: a catalogue of its own, loaded with those
 * views so the modal's first download does not carry them.
 */
import { catalogue } from './en.js'

export const trade = {
  // Send and receive.
  unsupportedChain: 'Unsupported chain',
  errorResolvingName: 'Error resolving name',
  somethingWentWrong: 'Something went wrong',
  sendAmountAndReceiverRequired: 'An amount and receiver address are required',
  sendTokenRequired: 'A token is required',
  sendTokenAddressRequired: 'A token address is required for ERC-20 tokens',
  sendTokenOnOtherNetwork: 'The token is not on the active network',
  sendInvalidTokenDecimals: 'The token has invalid decimals',
  sendInvalidAmount: 'Enter a valid amount',
  sendAmountNotPositive: 'The amount must be greater than 0',
  sendTooManyDecimals: '{symbol} has at most {decimals} decimal places',
  sendInsufficientBalance: 'Insufficient {symbol} balance',
  sendInvalidReceiver: 'Enter a valid address or name',
  sendInvalidChecksum: 'Invalid address checksum',
  sendNameNotFound: 'No address found for {name}',
  amount: 'Amount',
  receiverAddress: 'Receiver address',
  network: 'Network',
  receiverPlaceholder: 'Address (0x…) or name',
  balanceOf: 'Balance: {amount}',
  previewSend: 'Preview send',
  sendTo: 'To',
  sendConfirm: 'Send',
  sendApproveInWallet: 'Approve the transaction in your wallet',
  sendSubmitted: 'Transaction submitted',
  receiveQrLabel: 'QR code of the address',
  receiveHint: 'Send only {namespace} assets to this address',
  receiveNetworks: 'Networks it can receive on',
  receiveNotConnected: 'Connect a wallet to receive',
  // Swap and buy.
  swapFrom: 'You pay',
  swapTo: 'You receive',
  swapSwitch: 'Switch tokens',
  selectToken: 'Select token',
  searchToken: 'Search token',
  popularTokens: 'Popular tokens',
  yourTokens: 'Your tokens',
  allTokens: 'All tokens',
  noTokens: 'No tokens found',
  balance: 'Balance: {amount}',
  max: 'Max',
  enterAmount: 'Enter an amount',
  gettingQuote: 'Getting a quote…',
  reviewSwap: 'Review swap',
  rate: 'Rate',
  priceImpact: 'Price impact',
  highPriceImpact: 'High price impact: you get {impact} less than the market price',
  networkFee: 'Network fee',
  poolFee: 'Pool fee',
  minimumReceived: 'Minimum received',
  slippage: 'Slippage tolerance',
  swapSummary: 'Swap {from} for {to}',
  approveToken: 'Approve {symbol}',
  approveHint: 'First allow the exchange to use your {symbol} (once, for this amount)',
  approveInWallet: 'Approve in your wallet',
  approving: 'Waiting for the approval to be mined…',
  swapping: 'Waiting for the swap to be mined…',
  swapConfirm: 'Swap',
  swapped: 'Swapped {from} for {to}',
  slippageExceeded:
    'The price moved more than the {slippage} slippage tolerance, so nothing was swapped. Get a new quote and try again.',
  swapReverted: 'The swap failed on chain, so nothing was swapped.',
  insufficientLiquidity: 'Not enough liquidity for this amount',
  sameToken: 'Choose two different tokens',
  rejected: 'You declined the request in your wallet',
  insufficientBalance: 'Insufficient {symbol} balance',
  youPay: 'You pay',
  youGet: 'You get',
  purchaseCurrency: 'Token',
  paymentCurrency: 'Currency',
  paymentMethod: 'Payment method',
  card: 'Card',
  ach_bank_account: 'Bank transfer',
  limits: 'Between {min} and {max} {currency}',
  outOfLimits: 'Enter an amount between {min} and {max} {currency}',
  fee: 'Fees',
  total: 'Total',
  continueWith: 'Continue with {provider}',
  providerOffline: '{provider} cannot be reached; showing its usual limits',
  noProviders: 'Buying crypto is not available for this app',
  restrictedRegion: 'Buying crypto is not available in your region',
  unsupportedNetwork: 'Buying crypto is not available on {network}',
  checkoutOpen: 'Complete your purchase in the {provider} window',
  checkoutHint: 'Keep this window open: your tokens show up here when they arrive.',
  processing: 'Payment received; sending your tokens…',
  purchaseComplete: '{amount} {currency} arrived in your wallet',
  purchaseFailed: 'The purchase failed; you were not charged',
  popupClosed: 'Popup closed',
  popupBlocked: 'The browser blocked the checkout window',
  checkoutUrlRefused: 'The provider sent a checkout address that is not a secure web page',
  reopenCheckout: 'Open the checkout again',
  done: 'Done',
} as const

/** A key of {@link trade}. */
export type TradeKey = keyof typeof trade

/**
 * Looks up a send, receive, swap or on-ramp string and fills its `{placeholders}`.
 *
 * @example
 * tt('approveToken', { symbol: 'pUSD' }) // 'Approve pUSD'
 */
export const tt = catalogue('trade', trade)
