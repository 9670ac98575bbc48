/**
 * The swap (`/v1/convert/*`) and on-ramp (`/v1/onramp/*`, `/v1/generators/onrampurl`) answers
 * (spec §7; issue 14 fixes the shapes): one zod schema per endpoint, which the modal parses what
 * it receives with. Token ids are CAIP-10 (the native token is
 * `eip155:<id>:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee`); amounts are base-unit strings.
 * Fields beyond the fixed shapes (price impact, fees) are optional, so a 1inch-style provider
 * that lacks them still parses.
 */
import * as z from 'zod/mini'

/**
 * The address the convert endpoints give the native token of a chain.
 *
 * @example
 * `eip155:31337:${NATIVE_TOKEN_ADDRESS}` // ETH on the devnet
 */
export const NATIVE_TOKEN_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' as const

/** Spec §9: the swap slippage tolerance, in percent. */
export const SWAP_SLIPPAGE = 1

const BaseUnits = z.string().check(z.regex(/^\d+$/))

/** One token of `GET /v1/convert/tokens`. */
export const SwapToken = z.object({
  name: z.string(),
  symbol: z.string(),
  /** CAIP-10. */
  address: z.string(),
  decimals: z.number().check(z.int(), z.minimum(0), z.maximum(36)),
  logoUri: z.nullable(z.optional(z.string())),
})
export type SwapToken = z.infer<typeof SwapToken>

/** `GET /v1/convert/tokens?chainId=`. */
export const ConvertTokensResponse = z.object({ tokens: z.array(SwapToken) })
export type ConvertTokensResponse = z.infer<typeof ConvertTokensResponse>

/** One quote of `GET /v1/convert/quotes`; the optional fields come from Porthole's quoter. */
export const SwapQuote = z.object({
  fromAmount: BaseUnits,
  fromAccount: z.string(),
  toAmount: BaseUnits,
  toAccount: z.string(),
  /** Percent (0.42 is 0.42 %). */
  priceImpact: z.optional(z.number()),
  /** The pool fee, in from-token base units. */
  fee: z.optional(z.object({ amount: BaseUnits, token: z.string() })),
  gas: z.optional(z.string()),
  gasPrice: z.optional(z.string()),
  networkFeeUsd: z.nullable(z.optional(z.number())),
})
export type SwapQuote = z.infer<typeof SwapQuote>

/** `GET /v1/convert/quotes`. */
export const ConvertQuotesResponse = z.object({ quotes: z.array(SwapQuote) })
export type ConvertQuotesResponse = z.infer<typeof ConvertQuotesResponse>

/** `POST /v1/convert/build-transaction`: `to` is the contract to call, `amount` the native value. */
export const ConvertTransactionResponse = z.object({
  tx: z.object({
    from: z.string(),
    to: z.string(),
    data: z.string().check(z.regex(/^0x[0-9a-fA-F]*$/)),
    amount: BaseUnits,
    eip155: z.object({ gas: z.string(), gasPrice: z.string() }),
  }),
})
export type ConvertTransactionResponse = z.infer<typeof ConvertTransactionResponse>

/** `GET /v1/convert/build-approve`. */
export const ConvertApproveResponse = z.object({
  tx: z.object({
    from: z.string(),
    to: z.string(),
    data: z.string().check(z.regex(/^0x[0-9a-fA-F]*$/)),
    value: z.string(),
    eip155: z.object({ gas: z.string(), gasPrice: z.string() }),
  }),
})
export type ConvertApproveResponse = z.infer<typeof ConvertApproveResponse>

/** `GET /v1/convert/allowance`. */
export const ConvertAllowanceResponse = z.object({ allowance: BaseUnits })
export type ConvertAllowanceResponse = z.infer<typeof ConvertAllowanceResponse>

/** `GET /v1/convert/gas-price` (wei). */
export const ConvertGasPriceResponse = z.object({
  standard: z.string(),
  fast: z.string(),
  instant: z.string(),
})
export type ConvertGasPriceResponse = z.infer<typeof ConvertGasPriceResponse>

/** A payment method's limits (spec §3: id, min, max as decimal strings). */
export const OnrampLimit = z.object({ id: z.string(), min: z.string(), max: z.string() })
export type OnrampLimit = z.infer<typeof OnrampLimit>

/** A network a purchase currency arrives on (spec §3). */
export const OnrampNetwork = z.object({
  name: z.string(),
  display_name: z.string(),
  chain_id: z.string(),
  contract_address: z.string(),
})
export type OnrampNetwork = z.infer<typeof OnrampNetwork>

/** A currency that can be bought. */
export const OnrampPurchaseCurrency = z.object({
  id: z.string(),
  name: z.string(),
  symbol: z.string(),
  networks: z.array(OnrampNetwork),
})
export type OnrampPurchaseCurrency = z.infer<typeof OnrampPurchaseCurrency>

/** A currency that pays, with its methods' limits. */
export const OnrampPaymentCurrency = z.object({ id: z.string(), limits: z.array(OnrampLimit) })
export type OnrampPaymentCurrency = z.infer<typeof OnrampPaymentCurrency>

/** `GET /v1/onramp/options`. */
export const OnrampOptionsResponse = z.object({
  paymentCurrencies: z.array(OnrampPaymentCurrency),
  purchaseCurrencies: z.array(OnrampPurchaseCurrency),
  provider: z.optional(z.object({ id: z.string(), name: z.string() })),
  fallback: z.optional(z.boolean()),
})
export type OnrampOptionsResponse = z.infer<typeof OnrampOptionsResponse>

/** `POST /v1/onramp/quote` (spec §3 "Quote"). */
export const OnrampQuoteResponse = z.object({
  networkFee: z.union([z.object({ amount: z.string(), currency: z.string() }), z.string()]),
  paymentSubtotal: z.union([z.object({ amount: z.string(), currency: z.string() }), z.string()]),
  paymentTotal: z.union([z.object({ amount: z.string(), currency: z.string() }), z.string()]),
  purchaseAmount: z.object({ amount: z.string(), currency: z.string() }),
  quoteId: z.string(),
  fallback: z.optional(z.boolean()),
})
export type OnrampQuoteResponse = z.infer<typeof OnrampQuoteResponse>

/** `POST /v1/generators/onrampurl`. */
export const OnrampUrlResponse = z.object({ url: z.string(), orderId: z.optional(z.string()) })
export type OnrampUrlResponse = z.infer<typeof OnrampUrlResponse>

/** `GET /v1/onramp/orders/{orderId}`: where a purchase stands. */
export const OnrampOrderResponse = z.object({
  id: z.string(),
  status: z.enum(['created', 'processing', 'complete', 'failed']),
  txHash: z.nullable(z.optional(z.string())),
})
export type OnrampOrderResponse = z.infer<typeof OnrampOrderResponse>
