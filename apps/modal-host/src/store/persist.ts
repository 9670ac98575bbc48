/**
 * What the modal keeps in its origin's localStorage (spec §3 "Local storage keeps"): recent
 * wallets (max 2), the connected connector per namespace, active namespace and network,
 * connection status, and disconnected connector ids. Versioned, with a migration step.
 */
import type { ConnectorInfo } from '@porthole/protocol'
import type { WalletEntry } from './types.js'

export const STORAGE_KEY = 'porthole:modal'
export const STORAGE_VERSION = 1
export const MAX_RECENT_WALLETS = 2

/** The persisted slice. */
export type Persisted = {
  version: number
  recentWallets: WalletEntry[]
  connectors: Partial<Record<string, ConnectorInfo>>
  activeNamespace: string
  activeNetworkId: string | null
  status: Partial<Record<string, 'connected' | 'disconnected'>>
  disconnectedConnectorIds: string[]
}

const EMPTY: Persisted = {
  version: STORAGE_VERSION,
  recentWallets: [],
  connectors: {},
  activeNamespace: 'eip155',
  activeNetworkId: null,
  status: {},
  disconnectedConnectorIds: [],
}

/** Brings an older stored shape up to the current version; unknown shapes start over. */
export function migrate(raw: unknown): Persisted {
  if (!raw || typeof raw !== 'object') return { ...EMPTY }
  const value = raw as Partial<Persisted>
  if (value.version !== STORAGE_VERSION) return { ...EMPTY }
  return {
    ...EMPTY,
    ...value,
    recentWallets: Array.isArray(value.recentWallets)
      ? value.recentWallets.slice(0, MAX_RECENT_WALLETS)
      : [],
    disconnectedConnectorIds: Array.isArray(value.disconnectedConnectorIds)
      ? value.disconnectedConnectorIds.filter((id) => typeof id === 'string')
      : [],
  }
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

/**
 * Whether this frame may use its origin's localStorage. Browsers that block third-party
 * storage (instead of partitioning it) throw on access; the modal then keeps its state in the
 * host page through the SDK (see {@link keepStateInHost}).
 */
export function frameStorageAvailable(): boolean {
  try {
    const s = globalThis.localStorage
    s.setItem(`${STORAGE_KEY}:probe`, '1')
    s.removeItem(`${STORAGE_KEY}:probe`)
    return true
  } catch {
    return false
  }
}

let host: { value: string | null; write(value: string): void } | undefined

/**
 * Keeps the persisted slice in the host page instead: `initial` is what the host stored,
 * `write` sends every change back to it.
 *
 * @example
 * keepStateInHost(hello.config.storage, (value) => channel.emit('persist', { value }))
 */
export function keepStateInHost(initial: string | undefined, write: (value: string) => void): void {
  host = { value: initial ?? null, write }
}

/** Reads the persisted slice (empty when storage is unavailable or corrupt). */
export function loadPersisted(): Persisted {
  try {
    return migrate(JSON.parse((host ? host.value : storage()?.getItem(STORAGE_KEY)) ?? 'null'))
  } catch {
    return { ...EMPTY }
  }
}

/** Updates part of the persisted slice. */
export function savePersisted(update: (current: Persisted) => Persisted): void {
  const text = JSON.stringify({ ...update(loadPersisted()), version: STORAGE_VERSION })
  if (host) {
    host.value = text
    host.write(text)
    return
  }
  try {
    storage()?.setItem(STORAGE_KEY, text)
  } catch {}
}

/** Adds a wallet to the front of the recent list, keeping at most two, no duplicates. */
export function addRecent(list: WalletEntry[], wallet: WalletEntry): WalletEntry[] {
  const { injected: _injected, ...stored } = wallet
  return [stored, ...list.filter((w) => w.id !== wallet.id)].slice(0, MAX_RECENT_WALLETS)
}
