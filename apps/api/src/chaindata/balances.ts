/**
 * Balances read from the chain: the native balance and each token's `balanceOf` in one
 * JSON-RPC batch, with a short per-(chain, address) cache that also merges concurrent reads.
 */
import { encodeFunctionData, erc20Abi, type Hex, hexToBigInt, isHex } from 'viem'
import type { SharedStore } from '../fleet/sharedStore.js'
import type { Rpc } from './rpc.js'
import { unwrap } from './rpc.js'

/** A token whose balance is read. */
export type BalanceToken = { address: string; name: string; symbol: string; decimals: number }

/** Raw balances of one account on one chain. */
export type ChainBalances = {
  native: bigint
  /** Base units per token (same order as asked); tokens whose call failed are left out. */
  tokens: { token: BalanceToken; amount: bigint }[]
}

/**
 * Reads `address`'s native balance and `tokens` balances in one JSON-RPC batch. Throws
 * `RpcError` when the node cannot answer the native balance.
 *
 * @example
 * const { native, tokens } = await readChainBalances(rpc, '0xf39f…', [pusd, prt])
 */
export async function readChainBalances(
  rpc: Rpc,
  address: string,
  tokens: readonly BalanceToken[],
): Promise<ChainBalances> {
  const data = encodeFunctionData({
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address as Hex],
  })
  const results = await rpc.batch([
    { method: 'eth_getBalance', params: [address, 'latest'] },
    ...tokens.map((token) => ({
      method: 'eth_call',
      params: [{ to: token.address, data }, 'latest'],
    })),
  ])
  const native = hexToBigInt(unwrap(results[0], 'eth_getBalance') as Hex)
  const out: ChainBalances['tokens'] = []
  tokens.forEach((token, i) => {
    const result = results[i + 1]
    if (!result?.ok || typeof result.result !== 'string' || !isHex(result.result)) return
    if (result.result.length !== 66) return
    out.push({ token, amount: hexToBigInt(result.result as Hex) })
  })
  return { native, tokens: out }
}

/** A cache of recent answers per key, merging concurrent loads of one key. */
export type TtlCache<T> = {
  /**
   * The cached value of `key` if younger than the TTL (and not `force`), else `load()`'s.
   * A failed load is not cached.
   *
   * @example
   * const balances = await cache.get(`${chainId}|${address}`, () => readChainBalances(…), false)
   */
  get(key: string, load: () => Promise<T>, force: boolean): Promise<T>
  /**
   * Forgets `key` here and in the shared store.
   *
   * @example
   * await cache.delete('0xabc')
   */
  delete(key: string): Promise<void>
}

/** The shared layer of a {@link TtlCache}: a store all replicas see and how values become text. */
export type SharedTtlCacheLayer<T> = {
  store: SharedStore
  encode: (value: T) => string
  decode: (text: string) => T
  /**
   * How long this process reuses a value before asking the store again (default 250 ms, at most
   * the TTL): a forced refresh on one replica reaches the others within it.
   */
  localTtlMs?: number
}

/**
 * A bounded TTL cache (oldest entries dropped past `maxEntries`). With `shared`, a miss here
 * asks the shared store (Redis) before loading, and a load is written there for the other
 * replicas; the store failing counts as a miss.
 *
 * @example
 * const cache = createTtlCache<ChainBalances>({ ttlMs: 5000 })
 */
export function createTtlCache<T>({
  ttlMs,
  maxEntries = 10_000,
  now = Date.now,
  shared,
}: {
  ttlMs: number
  maxEntries?: number
  now?: () => number
  shared?: SharedTtlCacheLayer<T> | undefined
}): TtlCache<T> {
  const entries = new Map<string, { at: number; value: Promise<T> }>()
  const localTtlMs = shared ? Math.min(ttlMs, shared.localTtlMs ?? 250) : ttlMs
  const fetchShared = async (key: string, load: () => Promise<T>, force: boolean) => {
    if (!shared) return load()
    if (!force) {
      const hit = await shared.store.get(key).catch(() => null)
      if (hit !== null) {
        try {
          return shared.decode(hit)
        } catch {
          // A value this version cannot read (written by another release): load afresh.
        }
      }
    }
    const value = await load()
    shared.store.set(key, shared.encode(value), ttlMs).catch(() => undefined)
    return value
  }
  return {
    get(key, load, force) {
      const entry = entries.get(key)
      if (entry && !force && now() - entry.at < localTtlMs) return entry.value
      const value = fetchShared(key, load, force)
      const fresh = { at: now(), value }
      entries.delete(key)
      entries.set(key, fresh)
      value.catch(() => {
        if (entries.get(key) === fresh) entries.delete(key)
      })
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!)
      return value
    },
    async delete(key) {
      entries.delete(key)
      await shared?.store.delete(key).catch(() => undefined)
    },
  }
}

/**
 * {@link ChainBalances} as JSON text (amounts as decimal strings) and back, for a shared cache.
 *
 * @example
 * decodeChainBalances(encodeChainBalances(balances)) // deep-equal to balances
 */
export const chainBalancesCodec = {
  encode: (value: ChainBalances): string =>
    JSON.stringify({
      native: value.native.toString(),
      tokens: value.tokens.map(({ token, amount }) => ({ token, amount: amount.toString() })),
    }),
  decode: (text: string): ChainBalances => {
    const raw = JSON.parse(text) as {
      native: string
      tokens: { token: BalanceToken; amount: string }[]
    }
    return {
      native: BigInt(raw.native),
      tokens: raw.tokens.map(({ token, amount }) => ({ token, amount: BigInt(amount) })),
    }
  },
}
