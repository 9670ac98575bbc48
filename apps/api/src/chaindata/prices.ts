/**
 * Token prices. The API asks a {@link PriceSource}; the default is a fixed table (the devnet
 * tokens: ETH 3000 USD, pUSD 1, PRT 0.25), configured with `PORTHOLE_PRICES`. A hosted
 * deployment can put a market-data client behind the same interface.
 */

/** An asset to price: the native token of `chainId` (`address` undefined) or a token. */
export type PriceAsset = {
  /** CAIP-2 id. */
  chainId: string
  /** Token contract, any case; undefined for the native token. */
  address?: string | undefined
}

/** Where prices come from. */
export type PriceSource = {
  /** Currencies the source quotes in, lower case (`['usd']`). */
  readonly currencies: readonly string[]
  /**
   * The price of each asset in `currency`, in order; `undefined` when unknown.
   *
   * @example
   * const [eth] = await source.prices([{ chainId: 'eip155:31337' }], 'usd') // 3000
   */
  prices(assets: readonly PriceAsset[], currency: string): Promise<(number | undefined)[]>
}

/**
 * The table key of an asset: `<caip2>:native` for the native token, else the token's CAIP-10
 * id, lower case.
 *
 * @example
 * priceKey({ chainId: 'eip155:1', address: '0xA0b8…' }) // 'eip155:1:0xa0b8…'
 */
export function priceKey(asset: PriceAsset): string {
  return `${asset.chainId}:${asset.address ? asset.address.toLowerCase() : 'native'}`.toLowerCase()
}

/**
 * A price source answering from a fixed table of USD prices keyed by {@link priceKey}.
 *
 * @example
 * const source = createFixedPriceSource({ 'eip155:31337:native': 3000 })
 * await source.prices([{ chainId: 'eip155:31337' }], 'usd') // [3000]
 */
export function createFixedPriceSource(table: Readonly<Record<string, number>>): PriceSource {
  const prices = new Map(Object.entries(table).map(([key, value]) => [key.toLowerCase(), value]))
  return {
    currencies: ['usd'],
    async prices(assets, currency) {
      if (currency.toLowerCase() !== 'usd') return assets.map(() => undefined)
      return assets.map((asset) => prices.get(priceKey(asset)))
    },
  }
}
