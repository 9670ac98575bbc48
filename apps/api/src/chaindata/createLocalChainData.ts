/**
 * The blockchain data service answered by this API itself: history and NFTs from the index the
 * indexer fills, balances read from each chain's RPC, prices from a {@link PriceSource}.
 */
import type { BalanceEntry, FungiblePriceResponse } from '@porthole/shared'
import { getKnownNetwork } from '@porthole/shared'
import { getAddress } from 'viem'
import type { DbExecutor } from '../db/Db.js'
import type { SharedStore } from '../fleet/sharedStore.js'
import {
  type BalanceToken,
  type ChainBalances,
  chainBalancesCodec,
  createTtlCache,
  readChainBalances,
} from './balances.js'
import { bitcoinBalanceEntry, createBitcoinBalances, isBitcoinChain } from './bitcoin.js'
import { type ChainData, ChainUnavailableError } from './ChainData.js'
import type { ChainDataConfig } from './config.js'
import { type AssetInfo, formatQuantity, queryHistory } from './history.js'
import { readTokens, type TokenRow } from './indexStore.js'
import { queryNfts } from './nfts.js'
import type { PriceSource } from './prices.js'
import { createRpc, type Rpc } from './rpc.js'
import {
  createSolanaBalances,
  isSolanaChain,
  SOLANA_NATIVE_CURRENCY,
  solanaBalanceEntries,
} from './solana.js'
import { readTokenMetadata } from './tokenMetadata.js'

/**
 * The address wallets use for a chain's native token in CAIP-10 ids (`0xeeee…eeee`).
 *
 * @example
 * `eip155:1:${NATIVE_TOKEN_ADDRESS}` // the CAIP-10 id of ether in price requests
 */
export const NATIVE_TOKEN_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** Options of {@link createLocalChainData}. */
export type CreateLocalChainDataParameters = {
  db: DbExecutor
  config: ChainDataConfig
  prices: PriceSource
  /** The API's public URL (token icons are served from it). */
  publicUrl: string
  /** Whether the API has an icon for a token symbol (lower case). */
  hasIcon(symbol: string): boolean
  /** RPC timeout; default 10 000 ms. */
  rpcTimeoutMs?: number
  /**
   * Where balances are shared between replicas (Redis in a fleet); default none: this process's
   * own cache only.
   */
  sharedBalances?: SharedStore | undefined
}

/**
 * A {@link ChainData} over this API's index and the chains' RPC.
 *
 * @example
 * const chainData = createLocalChainData({ db, config: config.chainData, prices, publicUrl, hasIcon: () => true })
 * await chainData.supportedChains() // { http: ['eip155:31337', 'eip155:31338'], ws: [] }
 */
export function createLocalChainData({
  db,
  config,
  prices,
  publicUrl,
  hasIcon,
  rpcTimeoutMs = 10_000,
  sharedBalances,
}: CreateLocalChainDataParameters): ChainData {
  const rpcs = new Map<string, Rpc>(
    config.chains.map((chain) => [
      chain.chainId,
      createRpc({ url: chain.rpcUrl, timeoutMs: rpcTimeoutMs }),
    ]),
  )
  const spam = new Set(config.spamContracts)
  const isSpam = (chainId: string, contract: string) =>
    spam.has(`${chainId}:${contract}`.toLowerCase())
  const cache = createTtlCache<ChainBalances>({
    ttlMs: config.balanceCacheMs,
    shared: sharedBalances && { store: sharedBalances, ...chainBalancesCodec },
  })
  const bitcoin = createBitcoinBalances({
    esplora: config.esplora,
    cacheMs: config.balanceCacheMs,
    timeoutMs: rpcTimeoutMs,
  })
  const solana = createSolanaBalances({
    solana: config.solana,
    cacheMs: config.balanceCacheMs,
    timeoutMs: rpcTimeoutMs,
  })
  const iconUrl = (symbol: string, imageQuery: string) => {
    const id = symbol.toLowerCase()
    return `${publicUrl}/public/getTokenImage/${encodeURIComponent(hasIcon(id) ? id : 'token')}${imageQuery}`
  }
  const native = (chainId: string) =>
    getKnownNetwork(chainId)?.nativeCurrency ?? { name: 'Ether', symbol: 'ETH', decimals: 18 }
  const known = (chainId: string) =>
    new Map(
      (config.knownTokens[chainId] ?? []).map((token) => [
        token.address.toLowerCase(),
        { ...token, address: token.address.toLowerCase() },
      ]),
    )
  const rpcOf = (chainId: string) => {
    const rpc = rpcs.get(chainId)
    if (!rpc) throw new ChainUnavailableError(`${chainId} is not indexed`)
    return rpc
  }

  /** Known tokens plus every ERC-20 the account ever touched on the chain. */
  const tokensOf = async (chainId: string, address: string): Promise<BalanceToken[]> => {
    const tokens = known(chainId)
    const touched = await db.query<{ token: string }>(
      `SELECT token FROM chain_account_tokens WHERE chain_id = ? AND account = ? AND kind = 'erc20'`,
      [chainId, address],
    )
    const missing = touched.map((row) => row.token).filter((token) => !tokens.has(token))
    for (const [token, row] of await readTokens(db, chainId, missing)) tokens.set(token, row)
    return [...tokens.values()]
  }

  const chainBalances = async (
    chainId: string,
    address: string,
    currency: string,
    forceUpdate: boolean,
    imageQuery: string,
  ): Promise<BalanceEntry[]> => {
    // Bitcoin networks: the BTC balance from their Esplora API (no tokens).
    if (isBitcoinChain(chainId)) {
      const sats = await bitcoin.balance(chainId, address, forceUpdate)
      const [price] = await prices.prices([{ chainId }], currency)
      return [bitcoinBalanceEntry({ chainId, sats, price, iconUrl: iconUrl('BTC', imageQuery) })]
    }
    // Solana networks: SOL and every SPL token the account holds, from their JSON-RPC.
    if (isSolanaChain(chainId)) {
      const balances = await solana.balances(chainId, address, forceUpdate)
      const mints = balances.tokens.filter((t) => t.amount > 0n).map((t) => t.mint)
      const quotes = await prices.prices(
        [{ chainId }, ...mints.map((mint) => ({ chainId, address: mint }))],
        currency,
      )
      return solanaBalanceEntries({
        chainId,
        balances,
        native: getKnownNetwork(chainId)?.nativeCurrency ?? SOLANA_NATIVE_CURRENCY,
        knownTokens: config.knownTokens[chainId] ?? [],
        price: (mint) => quotes[mint === undefined ? 0 : mints.indexOf(mint) + 1],
        iconUrl: (symbol) => iconUrl(symbol, imageQuery),
      })
    }
    const raw = await cache.get(
      `${chainId}|${address}`,
      async () => {
        try {
          return await readChainBalances(rpcOf(chainId), address, await tokensOf(chainId, address))
        } catch (error) {
          throw new ChainUnavailableError(`${chainId}: the chain's RPC did not answer`, {
            cause: error,
          })
        }
      },
      forceUpdate,
    )
    const held = raw.tokens.filter((entry) => entry.amount > 0n)
    const quotes = await prices.prices(
      [{ chainId }, ...held.map((entry) => ({ chainId, address: entry.token.address }))],
      currency,
    )
    const currency_ = native(chainId)
    const entry = (
      info: { name: string; symbol: string; decimals: number },
      amount: bigint,
      price: number | undefined,
      address?: string,
    ): BalanceEntry => {
      const numeric = formatQuantity(amount, info.decimals)
      return {
        name: info.name,
        symbol: info.symbol,
        chainId,
        ...(address ? { address: `${chainId}:${getAddress(address)}` } : {}),
        ...(price === undefined ? {} : { value: Number(numeric) * price }),
        price: price ?? 0,
        quantity: { decimals: String(info.decimals), numeric },
        iconUrl: iconUrl(info.symbol, imageQuery),
      }
    }
    return [
      entry(currency_, raw.native, quotes[0]),
      ...held.map((held_, i) =>
        entry(held_.token, held_.amount, quotes[i + 1], held_.token.address),
      ),
    ]
  }

  return {
    async supportedChains() {
      return {
        http: [
          ...config.chains.map((chain) => chain.chainId),
          ...Object.keys(config.esplora),
          ...Object.keys(config.solana),
        ],
        ws: [],
      }
    },

    async balances({ address, chainIds, currency, forceUpdate, imageQuery }) {
      const results = await Promise.allSettled(
        chainIds.map((chainId) =>
          chainBalances(chainId, address, currency, forceUpdate, imageQuery),
        ),
      )
      const failed = results.filter((result) => result.status === 'rejected')
      // One chain asked, or every chain down: say so; otherwise answer for the chains that work.
      if (failed.length === results.length && failed.length > 0) throw failed[0]!.reason
      return {
        balances: results.flatMap((result) => (result.status === 'fulfilled' ? result.value : [])),
      }
    },

    async history({ address, chainIds, cursor, limit, imageQuery }) {
      return queryHistory(db, {
        account: address,
        chainIds,
        cursor,
        limit,
        assets: async (tokens, nfts) => {
          const assets = [
            ...chainIds.map((chainId) => ({ chainId, address: undefined })),
            ...[...tokens.values()]
              .filter((token) => token.kind === 'erc20')
              .map((token) => ({ chainId: token.chainId, address: token.address })),
          ]
          const quotes = await prices.prices(assets, 'usd')
          const priceOf = new Map(
            assets.map((asset, i) => [`${asset.chainId}|${asset.address ?? ''}`, quotes[i]]),
          )
          return {
            native,
            token: (chainId, token) => tokens.get(`${chainId}|${token}`),
            nft: (chainId, contract, tokenId) => nfts.get(`${chainId}|${contract}|${tokenId}`),
            icon: (symbol) => iconUrl(symbol, imageQuery),
            isSpam,
            price: (chainId, token) => priceOf.get(`${chainId}|${token}`),
          } satisfies AssetInfo
        },
      })
    },

    async nfts({ address, chainIds, cursor, limit }) {
      return queryNfts(db, { owner: address, chainIds, cursor, limit, isSpam })
    },

    async fungiblePrices({ currency, addresses, imageQuery }) {
      const parsed = addresses.map((id) => {
        const [namespace, reference, address] = id.split(':')
        return { chainId: `${namespace}:${reference}`, address: address!.toLowerCase() }
      })
      const found: {
        chainId: string
        address: string | undefined
        info: TokenRow | { name: string; symbol: string }
      }[] = []
      for (const { chainId, address } of parsed) {
        if (address === NATIVE_TOKEN_ADDRESS) {
          found.push({ chainId, address: undefined, info: native(chainId) })
          continue
        }
        const info =
          known(chainId).get(address) ??
          (await readTokens(db, chainId, [address])).get(address) ??
          (
            await readTokenMetadata(rpcOf(chainId), chainId, [{ address, kind: 'erc20' }]).catch(
              () => [],
            )
          )[0]
        if (info?.symbol) found.push({ chainId, address, info })
      }
      const quotes = await prices.prices(
        found.map(({ chainId, address }) => ({ chainId, address })),
        currency,
      )
      const fungibles: FungiblePriceResponse['fungibles'] = found.map(({ info }, i) => ({
        name: info.name,
        symbol: info.symbol,
        iconUrl: iconUrl(info.symbol, imageQuery),
        price: quotes[i] ?? 0,
      }))
      return { fungibles }
    },
  }
}
