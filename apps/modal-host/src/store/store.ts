/**
 * The modal's one zustand store. Actions live in `../actions/`, one per file, and call
 * `store.setState`; components read with `useModal(selector)`. The persisted slice goes
 * through zustand's `persist` (`./persist.ts`), hydrated once the handshake has chosen where
 * it lives (`store.persist.rehydrate()`).
 */
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import { initialTransactionListState } from './activityState.js'
import { DEFAULT_CONFIG } from './defaults.js'
import { persistOptions } from './persist.js'
import { initialSendState } from './sendState.js'
import type { ModalState } from './types.js'

/** The state a fresh modal starts from (the persisted slice arrives with hydration). */
export function initialState(): ModalState {
  return {
    ready: false,
    open: false,
    loading: false,
    shake: false,
    history: [{ view: 'Connect' }],
    toast: null,
    alert: null,
    config: DEFAULT_CONFIG,
    injected: [],
    connection: { status: 'disconnected', connector: null, address: null, caipNetworkId: null },
    connections: [],
    savedConnections: [],
    recentConnections: [],
    returnToProfileWallets: false,
    activeConnectorIds: {},
    activeNamespace: 'eip155',
    connectNamespace: null,
    siwxSessions: [],
    activeNetworkId: null,
    balance: null,
    recentWallets: [],
    disconnectedConnectorIds: [],
    catalogue: { status: 'idle', wallets: [], count: 0, page: 0, featured: [] },
    authUser: null,
    lastEmailLoginAt: null,
    walletConnectUri: null,
    legalAccepted: false,
    accountTab: 'tokens',
    identities: {},
    tokens: { cache: {}, lastFailure: null, loading: false },
    nfts: { key: null, entries: [], next: null, loading: false, failed: false },
    activity: { ...initialTransactionListState, account: null },
    send: initialSendState,
  }
}

/** The store. */
export const store = create<ModalState>()(persist(() => initialState(), persistOptions))

/** Selects from the store in a component. */
export const useModal = store

/** Puts the store back to its initial state (tests, and the next handshake). */
export function reset(): void {
  store.setState(initialState(), true)
}
