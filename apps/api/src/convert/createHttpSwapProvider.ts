/**
 * A {@link SwapProvider} that forwards to an external provider speaking the same
 * `/v1/convert/*` endpoints (a hosted 1inch-style aggregator, or another Porthole API with its
 * own routers). Answers are validated against the shapes of `SwapProvider.ts`; the provider's own
 * 4xx errors are passed on as 400s with its message, anything else is 503 `SWAP_UNAVAILABLE`.
 */

import type { z } from 'zod'
import { providerFetch } from '../http/providerFetch.js'
import {
  AllowanceResponse,
  BuildApproveResponse,
  BuildTransactionResponse,
  ConvertQuotesResponse,
  ConvertTokensResponse,
  GasPriceResponse,
  type SwapAccount,
  SwapError,
  type SwapErrorCode,
  type SwapProvider,
} from './SwapProvider.js'

/** Options of {@link createHttpSwapProvider}. */
export type CreateHttpSwapProviderParameters = {
  /**
   * The provider's base URL; its query parameters (such as the provider's own `projectId`) are
   * sent with every call and replace the caller's.
   */
  url: string
  /** Per call; default 10 000 ms. */
  timeoutMs?: number
  /** Default the global `fetch`. */
  fetch?: typeof fetch
}

/** Codes of the provider's 400s passed on as they are; others become `INVALID_REQUEST`. */
const PASSED_ON: readonly SwapErrorCode[] = [
  'UNKNOWN_TOKEN',
  'INVALID_AMOUNT',
  'INSUFFICIENT_LIQUIDITY',
  'SWAP_WOULD_FAIL',
]

const caip = (account: SwapAccount) => `${account.chainId}:${account.address}`

/**
 * A swap provider backed by an external service.
 *
 * @example
 * const swap = createHttpSwapProvider({ url: 'https://swap.example.com?projectId=abc' })
 * await swap.gasPrice({ chainId: 'eip155:1' })
 */
export function createHttpSwapProvider({
  url,
  timeoutMs = 10_000,
  fetch: fetchFn = fetch,
}: CreateHttpSwapProviderParameters): SwapProvider {
  const fetchFrom = providerFetch({ url, timeoutMs, fetch: fetchFn })
  // The provider's own project id also goes into POST bodies that carry one.
  const fixed = new URLSearchParams(new URL(url).search)

  const call = async <Schema extends z.ZodType>(
    schema: Schema,
    path: string,
    query: Record<string, string | undefined>,
    body?: unknown,
  ): Promise<z.output<Schema>> => {
    let response: Response
    try {
      response = await fetchFrom(path, query, body)
    } catch (error) {
      throw new SwapError('SWAP_UNAVAILABLE', `swap provider: ${(error as Error).message}`, {
        cause: error,
      })
    }
    const answer = (await response.json().catch(() => undefined)) as unknown
    if (response.status >= 400 && response.status < 500) {
      const { code, message, details } = (answer ?? {}) as Record<string, unknown>
      const text = [message, details].filter((part) => typeof part === 'string').join(': ')
      throw new SwapError(
        PASSED_ON.includes(code as SwapErrorCode) ? (code as SwapErrorCode) : 'INVALID_REQUEST',
        `swap provider: ${text || `HTTP status code: ${response.status}`}`,
      )
    }
    if (!response.ok)
      throw new SwapError('SWAP_UNAVAILABLE', `swap provider: HTTP status code: ${response.status}`)
    const parsed = schema.safeParse(answer)
    if (!parsed.success)
      throw new SwapError('SWAP_UNAVAILABLE', `swap provider: unexpected answer to ${path}`)
    return parsed.data
  }

  return {
    tokens: ({ chainId }) => call(ConvertTokensResponse, '/v1/convert/tokens', { chainId }),
    quotes: ({ from, to, user, amount, gasPrice }) =>
      call(ConvertQuotesResponse, '/v1/convert/quotes', {
        amount: amount.toString(),
        userAddress: caip(user),
        from: caip(from),
        to: caip(to),
        gasPrice: gasPrice?.toString(),
      }),
    buildTransaction: ({ from, to, user, amount, slippage, disableEstimate }) =>
      call(
        BuildTransactionResponse,
        '/v1/convert/build-transaction',
        {},
        {
          ...(fixed.has('projectId') ? { projectId: fixed.get('projectId') } : {}),
          amount: amount.toString(),
          eip155: { slippage },
          from: caip(from),
          to: caip(to),
          userAddress: caip(user),
          disableEstimate,
        },
      ),
    allowance: ({ token, user }) =>
      call(AllowanceResponse, '/v1/convert/allowance', {
        tokenAddress: caip(token),
        userAddress: caip(user),
      }),
    buildApprove: ({ from, to, user, amount }) =>
      call(BuildApproveResponse, '/v1/convert/build-approve', {
        userAddress: caip(user),
        from: caip(from),
        to: to && caip(to),
        amount: amount?.toString(),
      }),
    gasPrice: ({ chainId }) => call(GasPriceResponse, '/v1/convert/gas-price', { chainId }),
  }
}
