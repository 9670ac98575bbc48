import { afterEach, describe, expect, test, vi } from 'vitest'
import {
  addRecent,
  merge,
  migrate,
  partialize,
  STORAGE_KEY,
  STORAGE_VERSION,
  storedConnectionOf,
} from './persist.js'
import { initialState } from './store.js'
import type { LiveConnection, WalletEntry } from './types.js'

const w = (id: string): WalletEntry => ({ id, name: id, image: '' })
const evm: LiveConnection = {
  connector: { id: 'io.metamask', type: 'ANNOUNCED', name: 'MetaMask', rdns: 'io.metamask' },
  namespace: 'eip155',
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  caipNetworkId: 'eip155:31337',
}
const sol: LiveConnection = {
  connector: { id: 'solana:Dev', type: 'ANNOUNCED', name: 'Dev' },
  namespace: 'solana',
  address: '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys',
  caipNetworkId: 'solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P',
}

describe('persisted slice', () => {
  test('recent wallets keep at most two, newest first, without duplicates', () => {
    let list: WalletEntry[] = []
    for (const id of ['a', 'b', 'a', 'c']) list = addRecent(list, w(id))
    expect(list.map((x) => x.id)).toEqual(['c', 'a'])
  })

  test('the live injected provider is not stored', () => {
    const [stored] = addRecent([], {
      ...w('a'),
      injected: { uuid: 'u', name: 'A', icon: '', rdns: 'a' },
    })
    expect(stored).not.toHaveProperty('injected')
  })

  test('unknown versions and garbage start over', () => {
    expect(migrate({ recentWallets: [w('a')] }, 0).recentWallets).toEqual([])
    expect(migrate('garbage', STORAGE_VERSION).connections).toEqual([])
    expect(
      migrate({ recentWallets: [w('a'), w('b'), w('c')] }, STORAGE_VERSION).recentWallets,
    ).toHaveLength(2)
  })

  test('damaged connections are dropped, sound ones kept', () => {
    const stored = { connections: [evm, { connector: null }, 'x', { ...sol, address: 7 }] }
    expect(migrate(stored, STORAGE_VERSION).connections).toEqual([evm])
  })

  test('version 1 (one EVM connector, no address) becomes a saved connection to re-sync', () => {
    const v1 = {
      version: 1,
      recentWallets: [w('a')],
      connectors: { eip155: evm.connector },
      status: { eip155: 'connected' },
      activeNamespace: 'eip155',
      activeNetworkId: 'eip155:31337',
      disconnectedConnectorIds: ['walletConnect'],
    }
    const migrated = migrate(v1, 1)
    expect(migrated.connections).toEqual([
      { connector: evm.connector, namespace: 'eip155', address: '', caipNetworkId: 'eip155:31337' },
    ])
    expect(migrated.activeConnectorIds).toEqual({ eip155: 'io.metamask' })
    expect(migrated.disconnectedConnectorIds).toEqual(['walletConnect'])
    expect(migrate({ ...v1, status: { eip155: 'disconnected' } }, 1).connections).toEqual([])
  })

  test('every live connection is stored, and saved ones still waiting for their restore', () => {
    const state = { ...initialState(), connections: [evm], savedConnections: [evm, sol] }
    expect(partialize(state).connections).toEqual([evm, sol])
  })

  test('stored connections come back as saved (to re-sync), not as live', () => {
    const stored = partialize({ ...initialState(), connections: [evm, sol] })
    const merged = merge(stored, initialState())
    expect(merged.connections).toEqual([])
    expect(merged.savedConnections).toEqual([evm, sol])
  })
})

describe('the last visit read before hydration (storedConnectionOf)', () => {
  const embedded: LiveConnection = {
    connector: { id: 'AUTH', type: 'AUTH', name: 'Email' },
    namespace: 'eip155',
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    caipNetworkId: 'eip155:31337',
  }
  const stored = (state: unknown) => {
    const items = new Map<string, string>([[STORAGE_KEY, JSON.stringify(state)]])
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => items.set(key, value),
      removeItem: (key: string) => items.delete(key),
    })
  }
  afterEach(() => vi.unstubAllGlobals())

  test('an embedded connection of the last visit is found; another kind, a disconnected one or none is not', () => {
    stored({ state: { connections: [evm, embedded] }, version: STORAGE_VERSION })
    expect(storedConnectionOf('AUTH')).toBe(true)
    stored({ state: { connections: [evm] }, version: STORAGE_VERSION })
    expect(storedConnectionOf('AUTH')).toBe(false)
    stored({
      state: { connections: [embedded], disconnectedConnectorIds: ['auth'] },
      version: STORAGE_VERSION,
    })
    expect(storedConnectionOf('AUTH')).toBe(false)
    stored(null)
    expect(storedConnectionOf('AUTH')).toBe(false)
  })

  test('damaged or hand-written storage is read as nothing', () => {
    for (const state of [
      'garbage',
      { state: { connections: [{ connector: { type: 'AUTH' } }] }, version: STORAGE_VERSION },
      { state: { connections: 'AUTH' }, version: STORAGE_VERSION },
      { state: { connections: [embedded] }, version: 99 },
    ]) {
      stored(state)
      expect(storedConnectionOf('AUTH')).toBe(false)
    }
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('SecurityError')
      },
    })
    expect(storedConnectionOf('AUTH')).toBe(false)
  })
})
