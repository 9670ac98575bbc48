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
   * The cached value of `key` if younger than the TTL (and not `force`), else `load()`'s. A
   * value past half its TTL is still answered while a refresh runs behind it (stale while
   * revalidate), so under steady traffic no request waits for a load. A failed load is not
   * cached.
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
   * How long this process answers a value before asking the store again (default 250 ms, at
   * most the TTL): a forced refresh on one replica reaches the others within it.
   */
  localTtlMs?: number
}

type CacheEntry<T> = {
  /** When the value was loaded (on whichever replica loaded it). */
  at: number
  /** When this process last loaded it or asked the shared store. */
  checked: number
  value: Promise<T>
  settled: boolean
  refreshing: boolean
  /** When a refresh behind an answer last failed. */
  failedAt?: number
}

/**
 * A bounded TTL cache (oldest entries dropped past `maxEntries`). A value is never answered
 * once `ttlMs` old; from half that age the next request still gets it and starts one refresh
 * behind it, so steady traffic never waits for a load (the balance p99 under load was these
 * waits). With `shared`, a value held here is checked against the shared store (Redis) every
 * `localTtlMs` and a miss asks it before loading; values carry the time they were loaded, and a
 * load is written there for the other replicas; the store failing counts as a miss.
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
  const entries = new Map<string, CacheEntry<T>>()
  const refreshAfterMs = ttlMs / 2
  const checkEveryMs = shared ? Math.min(ttlMs, shared.localTtlMs ?? 250) : ttlMs
  /** A failed refresh is not tried again before this long (an upstream down is not hammered). */
  const retryMs = Math.min(1000, refreshAfterMs)
  /** The shared store's value of `key` and when it was loaded, or null (a miss or a failure). */
  const readShared = async (key: string): Promise<{ at: number; value: T } | null> => {
    if (!shared) return null
    const hit = await shared.store.get(key).catch(() => null)
    const bar = hit?.indexOf('|') ?? -1
    if (!hit || bar < 1) return null
    const at = Number(hit.slice(0, bar))
    if (!Number.isFinite(at) || now() - at >= ttlMs) return null
    try {
      return { at, value: shared.decode(hit.slice(bar + 1)) }
    } catch {
      // A value this version cannot read (written by another release): load afresh.
      return null
    }
  }
  const loadAndShare = async (key: string, load: () => Promise<T>) => {
    const at = now()
    const value = await load()
    shared?.store.set(key, `${at}|${shared.encode(value)}`, ttlMs).catch(() => undefined)
    return { at, value }
  }
  const settledEntry = (fresh: { at: number; value: T }, checked: number): CacheEntry<T> => ({
    at: fresh.at,
    checked,
    value: Promise.resolve(fresh.value),
    settled: true,
    refreshing: false,
  })
  const remember = (key: string, entry: CacheEntry<T>) => {
    entries.delete(key)
    entries.set(key, entry)
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!)
  }
  /**
   * Behind an answer: a value another replica loaded recently, else a load. A failure keeps the
   * old value (until its TTL runs out; then a request waits for a load and sees the error).
   */
  const refresh = (key: string, entry: CacheEntry<T>, load: () => Promise<T>) => {
    entry.refreshing = true
    void (async () => {
      const stored = await readShared(key)
      const fresh =
        stored && now() - stored.at < refreshAfterMs ? stored : await loadAndShare(key, load)
      if (entries.get(key) === entry) remember(key, settledEntry(fresh, now()))
    })()
      .catch(() => {
        entry.failedAt = now()
      })
      .finally(() => {
        entry.refreshing = false
      })
  }
  return {
    get(key, load, force) {
      const t = now()
      const entry = entries.get(key)
      if (entry && !force) {
        if (!entry.settled) return entry.value
        if (t - entry.at < ttlMs && t - entry.checked < checkEveryMs) {
          const resting = entry.failedAt !== undefined && t - entry.failedAt < retryMs
          if (t - entry.at >= refreshAfterMs && !entry.refreshing && !resting)
            refresh(key, entry, load)
          return entry.value
        }
      }
      // Waits: for the shared store (a forced refresh elsewhere shows here), else for a load.
      const held = entry && !force && entry.settled && t - entry.at < ttlMs ? entry : undefined
      const loading = (async () => {
        const stored = force ? null : await readShared(key)
        if (held && (!stored || held.at > stored.at))
          return { at: held.at, value: await held.value }
        return stored ?? (await loadAndShare(key, load))
      })()
      const next: CacheEntry<T> = {
        at: t,
        checked: t,
        value: loading.then(({ value }) => value),
        settled: false,
        refreshing: false,
      }
      remember(key, next)
      loading.then(
        ({ at }) => {
          next.at = at
          next.settled = true
          if (now() - at >= refreshAfterMs && entries.get(key) === next) refresh(key, next, load)
        },
        () => {
          if (entries.get(key) === next) entries.delete(key)
        },
      )
      return next.value
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
