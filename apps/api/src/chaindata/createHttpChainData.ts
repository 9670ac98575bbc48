/**
 * A {@link ChainData} that forwards to an external data provider speaking the same `/v1`
 * endpoints (for a hosted deployment on mainnets: a hosted blockchain API, or a separate
 * Porthole API fleet with its own indexer). Answers are validated against the shared schemas;
 * anything else is a `ChainUnavailableError` (503 to the caller).
 */

import {
  BalanceResponse,
  FungiblePriceResponse,
  HistoryResponse,
  NftsResponse,
  SupportedChainsResponse,
} from '@porthole/shared'
import { z } from 'zod'
import { providerFetch } from '../http/providerFetch.js'
import { type ChainData, ChainUnavailableError } from './ChainData.js'

/** Options of {@link createHttpChainData}. */
export type CreateHttpChainDataParameters = {
  /**
   * The provider's base URL; its query parameters (such as the provider's own `projectId`)
   * are sent with every call and replace the caller's.
   */
  url: string
  /** Per call; default 10 000 ms. */
  timeoutMs?: number
  /** How long the supported chains are reused; default 60 000 ms. */
  chainsTtlMs?: number
  /** Default the global `fetch`. */
  fetch?: typeof fetch
}

/**
 * A data service backed by an external provider.
 *
 * @example
 * const chainData = createHttpChainData({ url: 'https://data.example.com?projectId=abc' })
 * await chainData.history({ address, chainIds: ['eip155:1'], cursor: undefined, limit: 50, imageQuery: '' })
 */
export function createHttpChainData({
  url,
  timeoutMs = 10_000,
  chainsTtlMs = 60_000,
  fetch: fetchFn = fetch,
}: CreateHttpChainDataParameters): ChainData {
  const fetchFrom = providerFetch({ url, timeoutMs, fetch: fetchFn })
  // The provider's own project id also goes into POST bodies that carry one.
  const fixed = new URLSearchParams(new URL(url).search)
  let chains: { at: number; value: Promise<SupportedChainsResponse> } | undefined

  const call = async <Schema extends z.core.$ZodType>(
    schema: Schema,
    path: string,
    query: Record<string, string | undefined>,
    body?: unknown,
  ): Promise<z.output<Schema>> => {
    let response: Response
    try {
      response = await fetchFrom(path, query, body)
    } catch (error) {
      throw new ChainUnavailableError(`data provider: ${(error as Error).message}`, {
        cause: error,
      })
    }
    if (!response.ok)
      throw new ChainUnavailableError(`data provider: HTTP status code: ${response.status}`)
    const parsed = z.safeParse(schema, await response.json().catch(() => undefined))
    if (!parsed.success)
      throw new ChainUnavailableError(`data provider: unexpected answer to ${path}`)
    return parsed.data
  }
  const chainParam = (chainIds: readonly string[]) =>
    chainIds.length === 1 ? chainIds[0] : undefined

  return {
    supportedChains() {
      if (!chains || Date.now() - chains.at >= chainsTtlMs) {
        const value = call(SupportedChainsResponse, '/v1/supported-chains', {})
        chains = { at: Date.now(), value }
        value.catch(() => {
          chains = undefined
        })
      }
      return chains.value
    },
    balances: ({ address, chainIds, currency, forceUpdate }) =>
      call(BalanceResponse, `/v1/account/${address}/balance`, {
        currency,
        chainId: chainParam(chainIds),
        ...(forceUpdate ? { forceUpdate: 'true' } : {}),
      }),
    // `limit` is Porthole's own parameter; a provider that does not know it pages as it likes.
    history: ({ address, chainIds, cursor, limit }) =>
      call(HistoryResponse, `/v1/account/${address}/history`, {
        chainId: chainParam(chainIds),
        cursor,
        limit: String(limit),
      }),
    nfts: ({ address, chainIds, cursor, limit }) =>
      call(NftsResponse, `/v1/account/${address}/nfts`, {
        chainId: chainParam(chainIds),
        cursor,
        limit: String(limit),
      }),
    fungiblePrices: ({ currency, addresses }) =>
      call(
        FungiblePriceResponse,
        '/v1/fungible/price',
        {},
        { projectId: fixed.get('projectId') ?? undefined, currency, addresses },
      ),
  }
}
