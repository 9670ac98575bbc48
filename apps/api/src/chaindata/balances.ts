/**
 * Balances read from the chain: the native balance and each token's `balanceOf` in one
 * JSON-RPC batch, with a short per-(chain, address) cache that also merges concurrent reads.
 */
import { encodeFunctionData, erc20Abi, type Hex, hexToBigInt, isHex } from 'viem'
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
}

/**
 * A bounded TTL cache (oldest entries dropped past `maxEntries`).
 *
 * @example
 * const cache = createTtlCache<ChainBalances>({ ttlMs: 5000 })
 */
export function createTtlCache<T>({
  ttlMs,
  maxEntries = 10_000,
  now = Date.now,
}: {
  ttlMs: number
  maxEntries?: number
  now?: () => number
}): TtlCache<T> {
  const entries = new Map<string, { at: number; value: Promise<T> }>()
  return {
    get(key, load, force) {
      const entry = entries.get(key)
      if (entry && !force && now() - entry.at < ttlMs) return entry.value
      const value = load()
      const fresh = { at: now(), value }
      entries.delete(key)
      entries.set(key, fresh)
      value.catch(() => {
        if (entries.get(key) === fresh) entries.delete(key)
      })
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!)
      return value
    },
  }
}
