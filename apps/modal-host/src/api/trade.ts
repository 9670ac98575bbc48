/**
 * The swap (`/v1/convert/*`) and on-ramp (`/v1/onramp/*`, `/v1/generators/onrampurl`) calls
 * (spec §7) on the API client bound at handshake; every answer is parsed with its shared schema.
 */
import {
  ConvertAllowanceResponse,
  ConvertApproveResponse,
  ConvertGasPriceResponse,
  ConvertQuotesResponse,
  ConvertTokensResponse,
  ConvertTransactionResponse,
  OnrampOptionsResponse,
  OnrampOrderResponse,
  OnrampQuoteResponse,
  OnrampUrlResponse,
  SWAP_SLIPPAGE,
} from '@porthole/shared'
import { parse } from './blockchain.js'
import { getApiClient } from './client.js'

/**
 * `GET /v1/convert/tokens?chainId=`: the tokens the network swaps.
 *
 * @example
 * const { tokens } = await getSwapTokens('eip155:31337')
 */
export async function getSwapTokens(chainId: string): Promise<ConvertTokensResponse> {
  const path = '/v1/convert/tokens'
  return parse(ConvertTokensResponse, `GET ${path}`, await getApiClient().get(path, { chainId }))
}

/**
 * `GET /v1/convert/gas-price?chainId=`: the network's gas prices in wei (standard, fast, instant).
 *
 * @example
 * const { standard } = await getSwapGasPrice('eip155:31337')
 */
export async function getSwapGasPrice(chainId: string): Promise<ConvertGasPriceResponse> {
  const path = '/v1/convert/gas-price'
  return parse(ConvertGasPriceResponse, `GET ${path}`, await getApiClient().get(path, { chainId }))
}

/**
 * What a quote is asked for: token ids and `userAddress` are CAIP-10, `amount` base units;
 * `gasPrice` (wei, from {@link getSwapGasPrice}) prices the quote's network fee when given.
 */
export type SwapQuoteParameters = {
  from: string
  to: string
  amount: string
  userAddress: string
  gasPrice?: string
}

/**
 * `GET /v1/convert/quotes`.
 *
 * @example
 * const { quotes } = await getSwapQuotes({ from, to, amount: '1000000', userAddress })
 */
export async function getSwapQuotes(
  parameters: SwapQuoteParameters,
): Promise<ConvertQuotesResponse> {
  const path = '/v1/convert/quotes'
  return parse(ConvertQuotesResponse, `GET ${path}`, await getApiClient().get(path, parameters))
}

/**
 * `GET /v1/convert/allowance`: how much of the token the exchange may spend.
 *
 * @example
 * const { allowance } = await getSwapAllowance({ tokenAddress, userAddress })
 */
export async function getSwapAllowance(parameters: {
  tokenAddress: string
  userAddress: string
}): Promise<ConvertAllowanceResponse> {
  const path = '/v1/convert/allowance'
  return parse(ConvertAllowanceResponse, `GET ${path}`, await getApiClient().get(path, parameters))
}

/**
 * `GET /v1/convert/build-approve`: the approval of exactly `amount`.
 *
 * @example
 * const { tx } = await buildSwapApproval({ userAddress, from, to, amount })
 */
export async function buildSwapApproval(
  parameters: SwapQuoteParameters,
): Promise<ConvertApproveResponse> {
  const path = '/v1/convert/build-approve'
  return parse(ConvertApproveResponse, `GET ${path}`, await getApiClient().get(path, parameters))
}

/**
 * `POST /v1/convert/build-transaction` at the spec's slippage tolerance (§9: 1).
 *
 * @example
 * const { tx } = await buildSwapTransaction({ from, to, amount, userAddress })
 */
export async function buildSwapTransaction(
  parameters: SwapQuoteParameters,
): Promise<ConvertTransactionResponse> {
  const path = '/v1/convert/build-transaction'
  const body = { ...parameters, eip155: { slippage: SWAP_SLIPPAGE } }
  return parse(ConvertTransactionResponse, `POST ${path}`, await getApiClient().post(path, body))
}

/**
 * `GET /v1/onramp/options`: currencies, networks and each payment method's limits.
 *
 * @example
 * const { paymentCurrencies } = await getOnrampOptions()
 */
export async function getOnrampOptions(): Promise<OnrampOptionsResponse> {
  const path = '/v1/onramp/options'
  return parse(OnrampOptionsResponse, `GET ${path}`, await getApiClient().get(path))
}

/** What an on-ramp quote is asked for (all strings; `network` is CAIP-2). */
export type OnrampQuoteParameters = {
  purchaseCurrency: string
  paymentCurrency: string
  amount: string
  network: string
}

/**
 * `POST /v1/onramp/quote`.
 *
 * @example
 * const quote = await getOnrampQuote({ purchaseCurrency: 'USDC', paymentCurrency: 'USD', amount: '50', network })
 */
export async function getOnrampQuote(
  parameters: OnrampQuoteParameters,
): Promise<OnrampQuoteResponse> {
  const path = '/v1/onramp/quote'
  return parse(OnrampQuoteResponse, `POST ${path}`, await getApiClient().post(path, parameters))
}

/** What the provider's checkout is opened for (spec §7 `/v1/generators/onrampurl`). */
export type OnrampUrlParameters = {
  destinationWallets: { address: string; blockchains: string[]; assets: string[] }[]
  defaultNetwork: string
  partnerUserId: string
  defaultExperience: 'buy'
  presetCryptoAmount?: string
  presetFiatAmount?: string
  paymentCurrency?: string
  paymentMethod?: string
}

/**
 * `POST /v1/generators/onrampurl`: the checkout's URL and its order.
 *
 * @example
 * const { url, orderId } = await generateOnrampUrl(parameters)
 */
export async function generateOnrampUrl(
  parameters: OnrampUrlParameters,
): Promise<OnrampUrlResponse> {
  const path = '/v1/generators/onrampurl'
  return parse(OnrampUrlResponse, `POST ${path}`, await getApiClient().post(path, parameters))
}

/**
 * `GET /v1/onramp/orders/{orderId}`: where a purchase stands.
 *
 * @example
 * const { status } = await getOnrampOrder(orderId)
 */
export async function getOnrampOrder(orderId: string): Promise<OnrampOrderResponse> {
  const path = `/v1/onramp/orders/${encodeURIComponent(orderId)}`
  return parse(OnrampOrderResponse, `GET ${path}`, await getApiClient().get(path))
}
