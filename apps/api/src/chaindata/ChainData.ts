/**
 * The blockchain data service behind the `/v1` data endpoints (spec §7). Two implementations:
 * `createLocalChainData` answers from this API's own index and chain RPC; `createHttpChainData`
 * forwards to an external data provider with the same endpoints (a hosted deployment on
 * mainnets). Both answer in the shapes of `@porthole/shared`'s `blockchainApi.ts`.
 */
import type {
  BalanceResponse,
  FungiblePriceResponse,
  HistoryResponse,
  IdentityResponse,
  NftsResponse,
  SupportedChainsResponse,
} from '@porthole/shared'

/** What every call knows about its caller: added to image URLs the API serves itself. */
export type CallerContext = {
  /** `?projectId=…&st=…&sv=…` (with the `?`), appended to the API's own image URLs. */
  imageQuery: string
}

/** Input of {@link ChainData.balances}. */
export type BalancesParameters = CallerContext & {
  /**
   * Lower-case 0x address; on `bip122` chains a Bitcoin address (bech32 in lower case); on
   * `solana` chains a base58 address (case kept).
   */
  address: string
  /** CAIP-2 ids to read (already checked against the supported chains). */
  chainIds: readonly string[]
  /** Lower-case ISO currency (`usd`). */
  currency: string
  /** Read the chain now instead of a recent cached answer. */
  forceUpdate: boolean
}

/** Input of {@link ChainData.history}. */
export type HistoryParameters = CallerContext & {
  /** Lower-case 0x address. */
  address: string
  chainIds: readonly string[]
  /** The `next` of the previous page. */
  cursor: string | undefined
  /** Page size (≤ 100). */
  limit: number
}

/** Input of {@link ChainData.nfts}. */
export type NftsParameters = HistoryParameters

/** Input of {@link ChainData.fungiblePrices}. */
export type FungiblePricesParameters = CallerContext & {
  currency: string
  /** CAIP-10 ids; the native token is `<caip2>:0xeeee…eeee`. */
  addresses: readonly string[]
}

/** The data service the `/v1` routes call. */
export type ChainData = {
  /**
   * The CAIP-2 networks answered for.
   *
   * @example
   * await chainData.supportedChains() // { http: ['eip155:31337', 'eip155:31338'], ws: [] }
   */
  supportedChains(): Promise<SupportedChainsResponse>
  /**
   * Balances of `address` on `chainIds`: the native token and every ERC-20 held.
   *
   * @example
   * await chainData.balances({ address, chainIds: ['eip155:31337'], currency: 'usd', forceUpdate: false, imageQuery })
   */
  balances(parameters: BalancesParameters): Promise<BalanceResponse>
  /**
   * One page of `address`'s transactions on `chainIds`, newest first.
   *
   * @example
   * const { data, next } = await chainData.history({ address, chainIds, cursor: undefined, limit: 50, imageQuery })
   */
  history(parameters: HistoryParameters): Promise<HistoryResponse>
  /**
   * One page of the ERC-721 tokens `address` holds on `chainIds`.
   *
   * @example
   * const { data } = await chainData.nfts({ address, chainIds, cursor: undefined, limit: 50, imageQuery })
   */
  nfts(parameters: NftsParameters): Promise<NftsResponse>
  /**
   * Name, symbol, icon and price of each fungible asset, in request order; assets that cannot
   * be identified are left out.
   *
   * @example
   * await chainData.fungiblePrices({ currency: 'usd', addresses: ['eip155:31337:0x5FbD…'], imageQuery })
   */
  fungiblePrices(parameters: FungiblePricesParameters): Promise<FungiblePriceResponse>
}

/** The name and avatar of an address. */
export type IdentityResolver = (address: string) => Promise<IdentityResponse>

/**
 * Thrown by a {@link ChainData} when a chain's RPC or the external provider cannot answer.
 *
 * @example
 * if (error instanceof ChainUnavailableError) // answer 503 CHAIN_UNAVAILABLE
 */
export class ChainUnavailableError extends Error {
  override name = 'ChainUnavailableError' as const
}
