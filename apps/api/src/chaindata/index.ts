/**
 * Blockchain data entry (`@porthole/api/chaindata`): the indexer, the data service behind the
 * `/v1` data endpoints (local index or an external provider), prices and configuration.
 */
export {
  type BalancesParameters,
  type CallerContext,
  type ChainData,
  ChainUnavailableError,
  type FungiblePricesParameters,
  type HistoryParameters,
  type IdentityResolver,
  type NftsParameters,
} from './ChainData.js'
export {
  CHAIN_DATA_ENV,
  type ChainDataConfig,
  DEFAULT_BALANCE_CACHE_MS,
  DEFAULT_PRICES,
  DEVNET_CHAIN_IDS,
  DEVNET_SPAM_COLLECTION,
  DEVNET_TOKENS,
  InvalidChainDataConfigError,
  indexerEnabled,
  type KnownToken,
  resolveChainDataConfig,
} from './config.js'
export { type CreateHttpChainDataParameters, createHttpChainData } from './createHttpChainData.js'
export {
  ChainIdMismatchError,
  type CreateIndexerParameters,
  createIndexer,
  type IndexedChain,
  type Indexer,
  type IndexerChainStatus,
} from './createIndexer.js'
export {
  type CreateLocalChainDataParameters,
  createLocalChainData,
  NATIVE_TOKEN_ADDRESS,
} from './createLocalChainData.js'
export {
  type CreateNftMetadataFetcherParameters,
  createNftMetadataFetcher,
  type NftMetadata,
  type NftMetadataFetcher,
} from './nftMetadata.js'
export { createFixedPriceSource, type PriceAsset, type PriceSource, priceKey } from './prices.js'
export { resolveIdentity } from './resolveIdentity.js'
