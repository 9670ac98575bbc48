/**
 * The caches of spec §9 ("Balance and native balance cache: 30 s. ens and identity cache:
 * 5 min. Balance retry gap: 30 s") and §5 ("Token balance refresh is retried only 30 s after the
 * last failure") as pure functions over plain records, so the store can keep (and persist, spec
 * §3 "Local storage keeps") them as they are. The clock is always a parameter.
 */

/** How long each kind of entry stays fresh, in milliseconds. */
export const CACHE_DURATIONS = {
  balance: 30_000,
  nativeBalance: 30_000,
  identity: 5 * 60_000,
} as const

/** A kind of cached entry. */
export type CacheKind = keyof typeof CACHE_DURATIONS

/** The gap after a failed balance fetch before the next try. */
export const BALANCE_RETRY_MS = 30_000

/** A cached value and when it was stored (ms since the epoch). */
export type CacheEntry<value> = { value: value; timestamp: number }

/** Entries by key. */
export type Cache<value> = Readonly<Record<string, CacheEntry<value>>>

/** Parameters of {@link cacheKey}. */
export type CacheKeyParameters = { caipNetworkId: string; address: string }

/**
 * The key of an account's entry on a network: CAIP-10, with EVM addresses lower-cased (they
 * are case-insensitive; Solana's are not).
 *
 * @example
 * cacheKey({ caipNetworkId: 'eip155:1', address: '0xF39F…' }) // 'eip155:1:0xf39f…'
 */
export function cacheKey(parameters: CacheKeyParameters): string {
  const { caipNetworkId, address } = parameters
  return `${caipNetworkId}:${caipNetworkId.startsWith('eip155:') ? address.toLowerCase() : address}`
}

/** Parameters of {@link isFresh}. */
export type IsFreshParameters = {
  entry: CacheEntry<unknown> | undefined
  kind: CacheKind
  now: number
}

/**
 * Whether an entry is younger than its kind's duration. An entry stamped in the future (a
 * clock that moved back) is not trusted.
 *
 * @example
 * isFresh({ entry: { value: 1, timestamp: 0 }, kind: 'balance', now: 29_999 }) // true
 */
export function isFresh(parameters: IsFreshParameters): boolean {
  const { entry, kind, now } = parameters
  if (!entry || entry.timestamp > now) return false
  return now - entry.timestamp < CACHE_DURATIONS[kind]
}

/** Parameters of {@link readCache}. */
export type ReadCacheParameters<value> = {
  cache: Cache<value>
  key: string
  kind: CacheKind
  now: number
}

/**
 * The cached value when it is fresh, else `undefined`.
 *
 * @example
 * readCache({ cache: state.identityCache, key, kind: 'identity', now: Date.now() })
 */
export function readCache<value>(parameters: ReadCacheParameters<value>): value | undefined {
  const entry = parameters.cache[parameters.key]
  return isFresh({ entry, kind: parameters.kind, now: parameters.now }) ? entry?.value : undefined
}

/** Parameters of {@link writeCache}. */
export type WriteCacheParameters<value> = {
  cache: Cache<value>
  key: string
  value: value
  kind: CacheKind
  now: number
}

/**
 * A new cache with the value stored under `key` and the entries that have expired dropped
 * (so a persisted cache does not grow without end). The given cache is not modified.
 *
 * @example
 * const identityCache = writeCache({ cache, key, value: identity, kind: 'identity', now: Date.now() })
 */
export function writeCache<value>(parameters: WriteCacheParameters<value>): Cache<value> {
  const { cache, key, value, kind, now } = parameters
  const out: Record<string, CacheEntry<value>> = {}
  for (const [k, entry] of Object.entries(cache)) if (isFresh({ entry, kind, now })) out[k] = entry
  out[key] = { value, timestamp: now }
  return out
}

/** Parameters of {@link canRetry}. */
export type CanRetryParameters = { lastFailure: number | null; now: number }

/**
 * Whether a balance fetch may be tried again: never failed, or failed at least 30 s ago.
 *
 * @example
 * canRetry({ lastFailure: 0, now: 29_999 }) // false
 */
export function canRetry(parameters: CanRetryParameters): boolean {
  const { lastFailure, now } = parameters
  return lastFailure === null || lastFailure > now || now - lastFailure >= BALANCE_RETRY_MS
}

/** Parameters of {@link balanceFetchDecision}. */
export type BalanceFetchDecisionParameters<value> = {
  entry: CacheEntry<value> | undefined
  kind?: 'balance' | 'nativeBalance' | undefined
  /** When the last fetch failed, or `null`. */
  lastFailure: number | null
  /** Skip the cache (the API's `forceUpdate`, e.g. after a send). */
  forceUpdate?: boolean | undefined
  now: number
}

/** Use the cached value, fetch, or wait until `retryAt` (keep showing 'Token Balance Unavailable'). */
export type BalanceFetchDecisionReturnType<value> =
  | { action: 'cache'; value: value }
  | { action: 'fetch' }
  | { action: 'wait'; retryAt: number }

/**
 * What a balance refresh should do: a fresh entry is used (unless forced); within 30 s of a
 * failure nothing is fetched, even when forced; otherwise fetch.
 *
 * @example
 * const decision = balanceFetchDecision({ entry, lastFailure: tokens.lastFailure, now: Date.now() })
 * if (decision.action === 'fetch') await getBalances(address, { chainId })
 */
export function balanceFetchDecision<value>(
  parameters: BalanceFetchDecisionParameters<value>,
): BalanceFetchDecisionReturnType<value> {
  const { entry, kind = 'balance', lastFailure, forceUpdate = false, now } = parameters
  if (!forceUpdate && entry && isFresh({ entry, kind, now }))
    return { action: 'cache', value: entry.value }
  if (!canRetry({ lastFailure, now }))
    return { action: 'wait', retryAt: (lastFailure as number) + BALANCE_RETRY_MS }
  return { action: 'fetch' }
}
