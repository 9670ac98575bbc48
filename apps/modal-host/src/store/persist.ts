/**
 * What the modal keeps across visits (spec §3 "Local storage keeps"): recent wallets (max 2),
 * every connection that has not been disconnected, the disconnected ones Connected wallets still
 * lists, the active connector per namespace, the active namespace and network, and
 * disconnected connector ids. zustand's `persist` writes it
 * (`partialize`, `version`, `migrate`); the storage is the frame's localStorage, or the host
 * page's through the SDK when the frame has none.
 */
import type { ChainNamespace } from '@porthole/shared'
import type { PersistOptions, StateStorage } from 'zustand/middleware'
import { createJSONStorage } from 'zustand/middleware'
import type { LiveConnection, ModalState, SiwxSession, WalletEntry } from './types.js'

export const STORAGE_KEY = 'porthole:modal'
export const STORAGE_VERSION = 2
export const MAX_RECENT_WALLETS = 2
const MAX_CONNECTIONS = 20

/** The persisted slice. */
export type Persisted = {
  recentWallets: WalletEntry[]
  connections: LiveConnection[]
  activeConnectorIds: Partial<Record<ChainNamespace, string>>
  activeNamespace: ChainNamespace
  activeNetworkId: string | null
  disconnectedConnectorIds: string[]
  /** Disconnected connections Connected wallets lists (each reopens its login flow). */
  recentConnections: LiveConnection[]
  /** Wallet sign-ins: kept across reloads (their tokens are checked with the API then). */
  siwxSessions: SiwxSession[]
}

const EMPTY: Persisted = {
  recentWallets: [],
  connections: [],
  activeConnectorIds: {},
  activeNamespace: 'eip155',
  activeNetworkId: null,
  disconnectedConnectorIds: [],
  recentConnections: [],
  siwxSessions: [],
}

/**
 * The slice to store: live connections and those still waiting to be re-synced (a reload in
 * the middle of a restore loses neither).
 */
export function partialize(state: ModalState): Persisted {
  const live = state.connections
  const pending = state.savedConnections.filter(
    (saved) => !live.some((c) => sameConnection(c, saved)),
  )
  return {
    recentWallets: state.recentWallets,
    connections: [...live, ...pending].slice(0, MAX_CONNECTIONS),
    activeConnectorIds: state.activeConnectorIds,
    activeNamespace: state.activeNamespace,
    activeNetworkId: state.activeNetworkId,
    disconnectedConnectorIds: state.disconnectedConnectorIds,
    recentConnections: state.recentConnections.slice(0, MAX_CONNECTIONS),
    siwxSessions: state.siwxSessions,
  }
}

/** True when both are the same connector's connection in the same namespace (ids case-insensitive). */
export function sameConnection(
  a: Pick<LiveConnection, 'connector' | 'namespace'>,
  b: Pick<LiveConnection, 'connector' | 'namespace'>,
): boolean {
  return (
    a.namespace === b.namespace && a.connector.id.toLowerCase() === b.connector.id.toLowerCase()
  )
}

type V1 = {
  recentWallets?: unknown
  connectors?: Record<string, LiveConnection['connector'] | undefined>
  status?: Record<string, string | undefined>
  activeNetworkId?: unknown
  disconnectedConnectorIds?: unknown
}

/**
 * Brings an older stored shape up to the current version; unknown shapes start over. Version
 * 1 kept one connector per namespace and no address: it becomes a saved connection whose
 * account the wallet names again at restore.
 */
export function migrate(stored: unknown, version: number): Persisted {
  if (!stored || typeof stored !== 'object') return { ...EMPTY }
  if (version === 1) {
    const v1 = stored as V1
    const connector = v1.connectors?.eip155
    const connected = connector && v1.status?.eip155 === 'connected'
    const activeNetworkId = typeof v1.activeNetworkId === 'string' ? v1.activeNetworkId : null
    return clean({
      ...EMPTY,
      recentWallets: v1.recentWallets as WalletEntry[],
      disconnectedConnectorIds: v1.disconnectedConnectorIds as string[],
      activeNetworkId,
      connections: connected
        ? [{ connector, namespace: 'eip155', address: '', caipNetworkId: activeNetworkId ?? '' }]
        : [],
      activeConnectorIds: connected ? { eip155: connector.id } : {},
    })
  }
  if (version === STORAGE_VERSION) return clean({ ...EMPTY, ...(stored as Partial<Persisted>) })
  return { ...EMPTY }
}

/** The stored connections that have a connection's shape, at most {@link MAX_CONNECTIONS}. */
function connectionList(value: unknown): LiveConnection[] {
  if (!Array.isArray(value)) return []
  return (value as LiveConnection[])
    .filter(
      (c) =>
        !!c &&
        typeof c.connector?.id === 'string' &&
        typeof c.connector.type === 'string' &&
        typeof c.namespace === 'string' &&
        typeof c.address === 'string',
    )
    .slice(0, MAX_CONNECTIONS)
}

/** Drops what does not have the stored shape (a store written by hand, or damaged). */
function clean(value: Persisted): Persisted {
  return {
    ...value,
    recentWallets: Array.isArray(value.recentWallets)
      ? value.recentWallets.slice(0, MAX_RECENT_WALLETS)
      : [],
    disconnectedConnectorIds: Array.isArray(value.disconnectedConnectorIds)
      ? value.disconnectedConnectorIds.filter((id) => typeof id === 'string')
      : [],
    connections: connectionList(value.connections),
    recentConnections: connectionList(value.recentConnections),
    activeConnectorIds:
      value.activeConnectorIds && typeof value.activeConnectorIds === 'object'
        ? value.activeConnectorIds
        : {},
    siwxSessions: Array.isArray(value.siwxSessions)
      ? value.siwxSessions.filter(
          (x) =>
            !!x &&
            ['address', 'caipNetworkId', 'message', 'signature', 'token'].every(
              (k) => typeof (x as Record<string, unknown>)[k] === 'string',
            ),
        )
      : [],
  }
}

/** Puts the stored slice into the state: saved connections wait to be re-synced. */
export function merge(stored: unknown, current: ModalState): ModalState {
  const p = (stored ?? EMPTY) as Persisted
  const saved = p.connections.filter((s) => !current.connections.some((c) => sameConnection(c, s)))
  const waiting =
    current.connection.status === 'disconnected' &&
    saved.some((c) => c.namespace === p.activeNamespace)
  return {
    ...current,
    // Until the restore settles, the dapp sees 'connecting' (spec §4).
    ...(waiting ? { connection: { ...current.connection, status: 'connecting' as const } } : {}),
    recentWallets: p.recentWallets,
    disconnectedConnectorIds: p.disconnectedConnectorIds,
    recentConnections: (p.recentConnections ?? []).filter(
      (r) => !current.connections.some((c) => sameConnection(c, r)),
    ),
    siwxSessions: p.siwxSessions ?? [],
    activeNetworkId: p.activeNetworkId ?? current.activeNetworkId,
    activeNamespace: p.activeNamespace,
    activeConnectorIds: { ...p.activeConnectorIds, ...current.activeConnectorIds },
    savedConnections: saved,
  }
}

let host: { value: string | null; write(value: string): void } | undefined
let hydrated = false
let lastWritten: string | null = null

function frameStorage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

/**
 * The storage `persist` uses: the host page's when {@link keepStateInHost} was called, else the
 * frame's localStorage. Writes wait for the first hydration (the initial empty state never
 * overwrites what is stored) and skip unchanged values (most state changes touch nothing
 * persisted). Version 1 stored the slice bare; it is read as `{ state, version: 1 }`.
 */
const storage: StateStorage = {
  getItem(name) {
    const raw = host ? host.value : (frameStorage()?.getItem(name) ?? null)
    lastWritten = raw
    try {
      const parsed = JSON.parse(raw ?? 'null') as { state?: unknown; version?: unknown } | null
      if (parsed && typeof parsed === 'object' && !('state' in parsed) && parsed.version === 1)
        return JSON.stringify({ state: parsed, version: 1 })
    } catch {
      return null
    }
    return raw
  },
  setItem(name, value) {
    if (!hydrated || value === lastWritten) return
    lastWritten = value
    if (host) {
      host.value = value
      host.write(value)
      return
    }
    try {
      frameStorage()?.setItem(name, value)
    } catch {}
  },
  removeItem(name) {
    if (host) host.value = null
    else frameStorage()?.removeItem(name)
  },
}

/** The `persist` options of the modal's store. */
export const persistOptions: PersistOptions<ModalState, Persisted> = {
  name: STORAGE_KEY,
  version: STORAGE_VERSION,
  storage: createJSONStorage(() => storage),
  partialize,
  migrate: (stored, version) => migrate(stored, version),
  merge: (stored, current) => merge(stored, current),
  skipHydration: true,
  onRehydrateStorage: () => () => {
    hydrated = true
  },
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

/**
 * Whether this frame's own storage holds a connection of connector `type` from the last visit
 * that was not disconnected, read before the store hydrates (the modal starts what restoring it
 * needs early: the embedded wallet's frame). False when the frame has no storage (the slice then
 * lives in the host page and comes with the handshake) or it holds nothing usable.
 *
 * @example
 * storedConnectionOf('AUTH') // true for a returning e-mail user
 */
export function storedConnectionOf(type: string): boolean {
  try {
    const raw = frameStorage()?.getItem(STORAGE_KEY)
    const parsed = JSON.parse(raw ?? 'null') as { state?: unknown; version?: unknown } | null
    if (!parsed || typeof parsed !== 'object') return false
    const { connections, disconnectedConnectorIds } =
      'state' in parsed
        ? migrate(parsed.state, typeof parsed.version === 'number' ? parsed.version : 0)
        : migrate(parsed, 1)
    const gone = new Set(disconnectedConnectorIds.map((id) => id.toLowerCase()))
    return connections.some(
      (c) => c.connector.type === type && !gone.has(c.connector.id.toLowerCase()),
    )
  } catch {
    // Unreadable storage: the restore starts after the handshake, as without this.
    return false
  }
}

/**
 * Keeps the persisted slice in the host page instead: `initial` is what the host stored,
 * `write` sends every change back to it. Call before the store's first hydration.
 *
 * @example
 * keepStateInHost(hello.config.storage, (value) => channel.emit('persist', { value }))
 */
export function keepStateInHost(initial: string | undefined, write: (value: string) => void): void {
  host = { value: initial ?? null, write }
}

/** Adds a wallet to the front of the recent list, keeping at most two, no duplicates. */
export function addRecent(list: WalletEntry[], wallet: WalletEntry): WalletEntry[] {
  const { injected: _injected, ...stored } = wallet
  return [stored, ...list.filter((w) => w.id !== wallet.id)].slice(0, MAX_RECENT_WALLETS)
}
