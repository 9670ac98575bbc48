/**
 * The on-ramp provider behind `/v1/onramp/*` and `/v1/generators/onrampurl`: what it sells
 * (options), what a purchase costs (quote), and orders with a checkout link the buyer opens.
 * `createHttpOnrampProvider` speaks the Porthole provider protocol (the local provider,
 * `@porthole/onramp`, or a real provider behind a gateway that speaks it); another provider is
 * another implementation of this type.
 */

/** An amount of money or tokens: a decimal string and its currency id. */
export type OnrampMoney = { amount: string; currency: string }

/** A payment method's limits (spec §3): decimal strings. */
export type OnrampLimit = { id: string; min: string; max: string }

/** A network a token arrives on (spec §3 fields; `chain_id` is the EVM chain id as a string). */
export type OnrampNetwork = {
  name: string
  display_name: string
  chain_id: string
  contract_address: string
}

/** What a provider sells: payment currencies with per-method limits, tokens with networks. */
export type OnrampOptions = {
  paymentCurrencies: { id: string; limits: OnrampLimit[] }[]
  purchaseCurrencies: { id: string; name: string; symbol: string; networks: OnrampNetwork[] }[]
}

/** A quote request; `network` is CAIP-2, `amount` the fiat total (decimal string). */
export type OnrampQuoteRequest = {
  purchaseCurrency: string
  paymentCurrency: string
  paymentMethod: string
  network: string
  amount: string
}

/** A quote (spec §3 "Quote"), plus the provider's own fee when it names it. */
export type OnrampQuote = {
  networkFee: OnrampMoney
  paymentSubtotal: OnrampMoney
  paymentTotal: OnrampMoney
  purchaseAmount: OnrampMoney
  providerFee?: OnrampMoney | undefined
  quoteId: string
}

/** An order request: a fiat `amount` or a `cryptoAmount`, or neither (chosen at checkout). */
export type OnrampOrderRequest = {
  walletAddress: string
  /** CAIP-2. */
  network: string
  purchaseCurrency: string
  paymentCurrency: string
  paymentMethod?: string | undefined
  amount?: string | undefined
  cryptoAmount?: string | undefined
  /** The buyer as the partner knows them (the link's `externalCustomerId`). */
  partnerUserId: string
  /** Our reference: the project id. */
  reference: string
}

/** Where an order stands. */
export type OnrampOrderStatus = 'created' | 'processing' | 'complete' | 'failed'

/** An order as the provider reports it. */
export type OnrampOrder = {
  id: string
  status: OnrampOrderStatus
  network: string
  walletAddress: string
  purchaseCurrency: string
  purchaseAmount: OnrampMoney | null
  paymentTotal: OnrampMoney | null
  txHash: string | null
  failureReason: string | null
  reference: string | null
}

/** An on-ramp provider. */
export type OnrampProvider = {
  /** Its id in the projects' remote features (`meld`, `coinbase`). */
  id: string
  /** Its name, as the modal shows it. */
  name: string
  /** The partner's public key, carried by checkout links. */
  publicKey: string
  options(): Promise<OnrampOptions>
  quote(request: OnrampQuoteRequest): Promise<OnrampQuote>
  /** Creates an order; `url` is its checkout page (without the spec's query parameters). */
  createOrder(request: OnrampOrderRequest): Promise<{ id: string; url: string }>
  /** An order, or null when the provider does not know it. */
  order(id: string): Promise<OnrampOrder | null>
}

/** The provider could not be reached, or answered something unexpected. */
export class OnrampUnavailableError extends Error {
  override name = 'OnrampUnavailableError' as const
}

/** The provider refused a request (bad input it checks itself); `message` is its reason. */
export class OnrampRefusedError extends Error {
  override name = 'OnrampRefusedError' as const
}
