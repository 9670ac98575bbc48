/**
 * The swap service behind `/v1/convert/*` (spec §7). Two implementations:
 * `createLocalSwapProvider` quotes and builds calldata over each chain's Uniswap V2 router
 * through this API's RPC upstreams; `createHttpSwapProvider` forwards to an external provider
 * (a 1inch-style aggregator behind these same endpoints). Inputs reach a provider checked: known
 * swap network, one network for every id, a positive amount. Answers are the shapes below.
 */
import { z } from 'zod'

/** A CAIP-10 id of an EVM account or token (`eip155:<chain id>:0x…`). */
const CaipAccount = z.string().regex(/^eip155:\d{1,16}:0x[0-9a-fA-F]{40}$/)
/** An amount or gas figure in base units. */
const Units = z.string().regex(/^\d{1,80}$/)

/**
 * A token of `GET /v1/convert/tokens`: `address` is CAIP-10, the native token
 * `eip155:<id>:0xeeee…eeee`.
 *
 * @example
 * ConvertToken.parse({ name: 'Ether', symbol: 'ETH', address: 'eip155:1:0xeeee…', decimals: 18, logoUri: 'https://…' })
 */
export const ConvertToken = z.object({
  name: z.string(),
  symbol: z.string(),
  address: CaipAccount,
  decimals: z.number().int().min(0).max(255),
  logoUri: z.string(),
})
/** A token of the swap list. */
export type ConvertToken = z.infer<typeof ConvertToken>

/**
 * Answer of `GET /v1/convert/tokens`.
 *
 * @example
 * ConvertTokensResponse.parse(await response.json()).tokens.map((t) => t.symbol) // ['ETH', 'pUSD', 'PRT']
 */
export const ConvertTokensResponse = z.object({ tokens: z.array(ConvertToken) })
/** Answer of `GET /v1/convert/tokens`. */
export type ConvertTokensResponse = z.infer<typeof ConvertTokensResponse>

/**
 * One quote: `fromAccount`/`toAccount` are the tokens' CAIP-10 ids, amounts in base units. The
 * local quoter adds `priceImpact` (percent, spot price against the trade's), `fee` (the pools'
 * fee in from-token units), `gas` and `gasPrice` (wei), `networkFeeUsd` (null when the native
 * token has no price) and `route` (the tokens traded through, CAIP-10); external providers may
 * leave them out.
 *
 * @example
 * ConvertQuote.parse(quote).toAmount // '2988020943'
 */
export const ConvertQuote = z.object({
  fromAmount: Units,
  fromAccount: CaipAccount,
  toAmount: Units,
  toAccount: CaipAccount,
  priceImpact: z.number().optional(),
  fee: z.object({ amount: Units, token: CaipAccount }).optional(),
  gas: Units.optional(),
  gasPrice: Units.optional(),
  networkFeeUsd: z.number().nullable().optional(),
  route: z.array(CaipAccount).optional(),
})
/** One quote. */
export type ConvertQuote = z.infer<typeof ConvertQuote>

/**
 * Answer of `GET /v1/convert/quotes`.
 *
 * @example
 * ConvertQuotesResponse.parse(await response.json()).quotes[0]?.toAmount
 */
export const ConvertQuotesResponse = z.object({ quotes: z.array(ConvertQuote) })
/** Answer of `GET /v1/convert/quotes`. */
export type ConvertQuotesResponse = z.infer<typeof ConvertQuotesResponse>

/** Gas limit and price (wei) of a built transaction. */
const Eip155Gas = z.object({ gas: Units, gasPrice: Units })

/**
 * Answer of `POST /v1/convert/build-transaction`: `from` is the user, `to` the contract to call
 * (CAIP-10), `amount` the native value in wei.
 *
 * @example
 * const { tx } = BuildTransactionResponse.parse(await response.json())
 */
export const BuildTransactionResponse = z.object({
  tx: z.object({
    from: CaipAccount,
    to: CaipAccount,
    data: z.string().regex(/^0x[0-9a-fA-F]*$/),
    amount: Units,
    eip155: Eip155Gas,
  }),
})
/** Answer of `POST /v1/convert/build-transaction`. */
export type BuildTransactionResponse = z.infer<typeof BuildTransactionResponse>

/**
 * Answer of `GET /v1/convert/build-approve`: `to` is the token (CAIP-10), `value` '0'.
 *
 * @example
 * const { tx } = BuildApproveResponse.parse(await response.json())
 */
export const BuildApproveResponse = z.object({
  tx: z.object({
    from: CaipAccount,
    to: CaipAccount,
    data: z.string().regex(/^0x[0-9a-fA-F]*$/),
    value: Units,
    eip155: Eip155Gas,
  }),
})
/** Answer of `GET /v1/convert/build-approve`. */
export type BuildApproveResponse = z.infer<typeof BuildApproveResponse>

/**
 * Answer of `GET /v1/convert/allowance`: what the router may spend, in base units.
 *
 * @example
 * AllowanceResponse.parse({ allowance: '0' })
 */
export const AllowanceResponse = z.object({ allowance: Units })
/** Answer of `GET /v1/convert/allowance`. */
export type AllowanceResponse = z.infer<typeof AllowanceResponse>

/**
 * Answer of `GET /v1/convert/gas-price`: three tiers in wei.
 *
 * @example
 * GasPriceResponse.parse({ standard: '1000000000', fast: '1200000000', instant: '1500000000' })
 */
export const GasPriceResponse = z.object({ standard: Units, fast: Units, instant: Units })
/** Answer of `GET /v1/convert/gas-price`. */
export type GasPriceResponse = z.infer<typeof GasPriceResponse>

/** Who asks: appended to the API's own image URLs (`?projectId=…&st=…&sv=…`). */
export type SwapCallerContext = { imageQuery: string }

/** An EVM account or token on a swap network, already parsed. */
export type SwapAccount = {
  /** CAIP-2 id (`eip155:31337`). */
  chainId: string
  /** 0x address as sent (any case); the native token is `0xeeee…eeee`. */
  address: string
}

/** Input of {@link SwapProvider.quotes}. */
export type QuotesParameters = {
  chainId: string
  from: SwapAccount
  to: SwapAccount
  user: SwapAccount
  /** Base units, > 0. */
  amount: bigint
  /** Wei; the chain's gas price when left out. */
  gasPrice: bigint | undefined
}

/** Input of {@link SwapProvider.buildTransaction}. */
export type BuildTransactionParameters = {
  chainId: string
  from: SwapAccount
  to: SwapAccount
  user: SwapAccount
  amount: bigint
  /** Percent, 0 < slippage ≤ 50. */
  slippage: number
  /** Skip `eth_estimateGas` and answer a fixed gas figure. */
  disableEstimate: boolean
}

/** Input of {@link SwapProvider.allowance}. */
export type AllowanceParameters = { chainId: string; token: SwapAccount; user: SwapAccount }

/** Input of {@link SwapProvider.buildApprove}. */
export type BuildApproveParameters = {
  chainId: string
  from: SwapAccount
  to: SwapAccount | undefined
  user: SwapAccount
  /** Exact allowance; unlimited (max uint256) when left out. */
  amount: bigint | undefined
}

/** The swap service the `/v1/convert` routes call. */
export type SwapProvider = {
  /**
   * The tokens one may swap on `chainId`, the native token first.
   *
   * @example
   * await provider.tokens({ chainId: 'eip155:31337', imageQuery: '?projectId=p' })
   */
  tokens(parameters: { chainId: string } & SwapCallerContext): Promise<ConvertTokensResponse>
  /**
   * What `amount` of `from` buys of `to`.
   *
   * @example
   * await provider.quotes({ chainId, from, to, user, amount: 10n ** 18n, gasPrice: undefined })
   */
  quotes(parameters: QuotesParameters): Promise<ConvertQuotesResponse>
  /**
   * The swap transaction for the user to sign: the router call with the minimum output
   * `quote × (1 − slippage %)`, the user as recipient and a deadline 20 minutes ahead.
   *
   * @example
   * await provider.buildTransaction({ chainId, from, to, user, amount, slippage: 1, disableEstimate: false })
   */
  buildTransaction(parameters: BuildTransactionParameters): Promise<BuildTransactionResponse>
  /**
   * What the router may spend of the user's `token` (the native token: max uint256).
   *
   * @example
   * await provider.allowance({ chainId, token, user }) // { allowance: '0' }
   */
  allowance(parameters: AllowanceParameters): Promise<AllowanceResponse>
  /**
   * The `approve(router, amount)` transaction for the from-token.
   *
   * @example
   * await provider.buildApprove({ chainId, from, to, user, amount: undefined })
   */
  buildApprove(parameters: BuildApproveParameters): Promise<BuildApproveResponse>
  /**
   * Gas price tiers on `chainId`.
   *
   * @example
   * await provider.gasPrice({ chainId: 'eip155:31337' })
   */
  gasPrice(parameters: { chainId: string }): Promise<GasPriceResponse>
}

/** Error codes a {@link SwapProvider} throws with (answered with the API error of that code). */
export type SwapErrorCode =
  | 'INVALID_REQUEST'
  | 'UNKNOWN_TOKEN'
  | 'INVALID_AMOUNT'
  | 'INSUFFICIENT_LIQUIDITY'
  | 'SWAP_WOULD_FAIL'
  | 'SWAP_NOT_CONFIGURED'
  | 'SWAP_UNAVAILABLE'

/**
 * Thrown by a {@link SwapProvider}: `code` is the API error to answer with, the message its
 * `details`.
 *
 * @example
 * throw new SwapError('INSUFFICIENT_LIQUIDITY', 'the ETH/pUSD pool holds 1000 ETH')
 */
export class SwapError extends Error {
  override name = 'SwapError' as const
  readonly code: SwapErrorCode
  constructor(code: SwapErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
  }
}

/**
 * The native token's placeholder address (lower case, as in CAIP-10 ids).
 *
 * @example
 * `eip155:1:${NATIVE_TOKEN_ADDRESS}` // ETH on Ethereum
 */
export const NATIVE_TOKEN_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/**
 * Whether an address is the native token's placeholder (any case).
 *
 * @example
 * isNativeToken('0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE') // true
 */
export function isNativeToken(address: string): boolean {
  return address.toLowerCase() === NATIVE_TOKEN_ADDRESS
}
