/**
 * `@porthole/onramp`: a local on-ramp provider (a card/bank checkout stand-in that pays out the
 * devnets' pUSD or ETH from its treasury) and a test buyer for its checkout, for development
 * and tests.
 */
export {
  type CreateOnrampProviderAppParameters,
  createOnrampProviderApp,
  ONRAMP_DEFAULTS,
} from './app.js'
export {
  CHECKOUT_CSP,
  CHECKOUT_TEXT,
  TEST_CARD_DECLINED,
  TEST_CARD_OK,
} from './checkoutPage.js'
export {
  checkOffer,
  formatCents,
  NATIVE_ADDRESS,
  NETWORKS,
  type NetworkId,
  onrampOptions,
  PAYMENT_CURRENCIES,
  PAYMENT_METHODS,
  type PaymentMethod,
  PROVIDER_FEE_PERMILLE,
  type PricedQuote,
  PURCHASE_CURRENCIES,
  priceQuote,
  QuoteError,
  quoteJson,
} from './offering.js'
export type { Order, OrderStatus } from './orders.js'
export { type CreatePayoutParameters, createPayout, PayoutError } from './payout.js'
export {
  ONRAMP_ENV,
  OnrampProviderPortInUseError,
  type StartOnrampProviderParameters,
  type StartOnrampProviderReturnType,
  startOnrampProvider,
} from './startOnrampProvider.js'
export {
  type PayCheckoutParameters,
  type PayCheckoutReturnType,
  payCheckout,
} from './testClient.js'
