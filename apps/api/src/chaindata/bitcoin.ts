/**
 * Bitcoin balances for the blockchain data service: read from an Esplora REST API
 * (`GET /address/:address`, the API of Blockstream's and mempool.space's explorers, and of the
 * local regtest `@porthole/bitcoin`), one per `bip122` network.
 */
import { type BalanceEntry, BITCOIN_REGTEST_CAIP, BITCOIN_REGTEST_NETWORK } from '@porthole/shared'
import { Address, NETWORK, TEST_NETWORK } from '@scure/btc-signer'
import { z } from 'zod'
import { createTtlCache } from './balances.js'
import { ChainUnavailableError } from './ChainData.js'
import { formatQuantity } from './history.js'

/** Address parameters of the Bitcoin networks whose addresses the API checks, by CAIP-2 id. */
const NETWORKS: Readonly<Record<string, typeof NETWORK>> = {
  [BITCOIN_REGTEST_CAIP]: BITCOIN_REGTEST_NETWORK,
  'bip122:000000000019d6689c085ae165831e93': NETWORK,
  'bip122:000000000933ea01ad0ee984209779ba': TEST_NETWORK,
  'bip122:00000008819873e925422c1ff0f99f7c': TEST_NETWORK,
}

/**
 * True for a Bitcoin network's CAIP-2 id (`bip122:…`).
 *
 * @example
 * isBitcoinChain('bip122:0f9188f13cb7b2c71f2a335e3a4fc328') // true
 */
export function isBitcoinChain(chainId: string): boolean {
  return chainId.startsWith('bip122:')
}

/**
 * The canonical form of a Bitcoin address on `chainId` (bech32 in lower case), or `undefined`
 * when it is not an address of that network. On a `bip122` network the API does not know,
 * any 14–90 letters and digits pass.
 *
 * @example
 * normalizeBitcoinAddress(BITCOIN_REGTEST_CAIP, 'BCRT1QQUV9…') // 'bcrt1qquv9…'
 * normalizeBitcoinAddress(BITCOIN_REGTEST_CAIP, 'bc1q…') // undefined (a mainnet address)
 */
export function normalizeBitcoinAddress(chainId: string, address: string): string | undefined {
  const network = NETWORKS[chainId]
  if (!network) return /^[a-zA-Z0-9]{14,90}$/.test(address) ? address : undefined
  const text = address.toLowerCase().startsWith(`${network.bech32}1`)
    ? address.toLowerCase()
    : address
  try {
    const codec = Address(network)
    return codec.encode(codec.decode(text))
  } catch {
    return undefined
  }
}

/**
 * The Esplora API of each Bitcoin network by default: the local regtest (`endpoints().bitcoin`)
 * in development, none in production.
 *
 * @example
 * defaultEsploraUpstreams('http://127.0.0.1:18443', { production: false }) // { 'bip122:0f9188f1…': 'http://127.0.0.1:18443' }
 */
export function defaultEsploraUpstreams(
  bitcoinUrl: string,
  { production }: { production: boolean },
): Record<string, string> {
  return production ? {} : { [BITCOIN_REGTEST_CAIP]: bitcoinUrl }
}

const Stats = z.object({ funded_txo_sum: z.number(), spent_txo_sum: z.number() })
const EsploraAddress = z.object({ chain_stats: Stats, mempool_stats: Stats })

/**
 * The balance of `address` in satoshis from the Esplora API at `url`: funded minus spent
 * outputs, confirmed and in the mempool. Throws when the API does not answer in that shape.
 *
 * @example
 * await readBitcoinBalance({ url: 'http://127.0.0.1:18443', address: 'bcrt1q…', timeoutMs: 10_000 }) // 100000000n
 */
export async function readBitcoinBalance({
  url,
  address,
  timeoutMs,
}: {
  url: string
  address: string
  timeoutMs: number
}): Promise<bigint> {
  const response = await fetch(
    `${url.replace(/\/+$/, '')}/address/${encodeURIComponent(address)}`,
    {
      signal: AbortSignal.timeout(timeoutMs),
    },
  )
  if (!response.ok) throw new Error(`Esplora answered ${response.status}`)
  const { chain_stats: chain, mempool_stats: mempool } = EsploraAddress.parse(await response.json())
  return (
    BigInt(chain.funded_txo_sum) -
    BigInt(chain.spent_txo_sum) +
    BigInt(mempool.funded_txo_sum) -
    BigInt(mempool.spent_txo_sum)
  )
}

/** Balances of Bitcoin networks, cached like the EVM ones. */
export type BitcoinBalances = {
  /**
   * The balance of `address` on `chainId` in satoshis; throws {@link ChainUnavailableError}
   * when the network has no Esplora API or it does not answer.
   *
   * @example
   * await bitcoin.balance(BITCOIN_REGTEST_CAIP, 'bcrt1q…', false) // 100000000n
   */
  balance(chainId: string, address: string, forceUpdate: boolean): Promise<bigint>
}

/**
 * Reads balances through `esplora` (CAIP-2 id → Esplora base URL), each answer reused for
 * `cacheMs` per (network, address) unless forced.
 *
 * @example
 * const bitcoin = createBitcoinBalances({ esplora: config.esplora, cacheMs: 5000, timeoutMs: 10_000 })
 */
export function createBitcoinBalances({
  esplora,
  cacheMs,
  timeoutMs,
}: {
  esplora: Readonly<Record<string, string>>
  cacheMs: number
  timeoutMs: number
}): BitcoinBalances {
  const cache = createTtlCache<bigint>({ ttlMs: cacheMs })
  return {
    balance(chainId, address, forceUpdate) {
      const url = esplora[chainId]
      if (!url) return Promise.reject(new ChainUnavailableError(`${chainId} has no Esplora API`))
      return cache.get(
        `${chainId}|${address}`,
        async () => {
          try {
            return await readBitcoinBalance({ url, address, timeoutMs })
          } catch (error) {
            throw new ChainUnavailableError(`${chainId}: the Esplora API did not answer`, {
              cause: error,
            })
          }
        },
        forceUpdate,
      )
    },
  }
}

/**
 * The balance line of BTC, in the shape of the EVM native balance: 8 decimals, no token
 * `address`, `value` only when priced.
 *
 * @example
 * bitcoinBalanceEntry({ chainId, sats: 150_000_000n, price: 100_000, iconUrl }) // { symbol: 'BTC', quantity: { decimals: '8', numeric: '1.5' }, value: 150000, … }
 */
export function bitcoinBalanceEntry({
  chainId,
  sats,
  price,
  iconUrl,
}: {
  chainId: string
  sats: bigint
  price: number | undefined
  iconUrl: string
}): BalanceEntry {
  const numeric = formatQuantity(sats, 8)
  return {
    name: 'Bitcoin',
    symbol: 'BTC',
    chainId,
    ...(price === undefined ? {} : { value: Number(numeric) * price }),
    price: price ?? 0,
    quantity: { decimals: '8', numeric },
    iconUrl,
  }
}
