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

describe('caches kept across visits (spec §3, §9)', () => {
  const ether = {
    name: 'Ether',
    symbol: 'ETH',
    chainId: 'eip155:31337',
    price: 3000,
    iconUrl: '',
    quantity: { decimals: '18', numeric: '1.5' },
  }
  const key = 'eip155:31337:0xf39fd6e51aad88f6f4ce6aa8827279cfffb92266'
  const now = Date.now()

  test('fresh balances, the native balance and identities are stored; stale ones are not', () => {
    const state = {
      ...initialState(),
      tokens: {
        ...initialState().tokens,
        cache: {
          [key]: { value: [ether], timestamp: now - 10_000 },
          'eip155:1:0xold': { value: [ether], timestamp: now - 31_000 },
        },
      },
      balance: {
        key,
        value: 1_500_000_000_000_000_000n,
        symbol: 'ETH',
        decimals: 18,
        fetchedAt: now - 5_000,
        failed: false,
      },
      identities: {
        '0xf39f': { value: { name: 'ada.eth', avatar: null }, timestamp: now - 60_000 },
        '0xold': { value: { name: 'old.eth', avatar: null }, timestamp: now - 301_000 },
      },
    }
    const stored = partialize(state)
    expect(Object.keys(stored.balances ?? {})).toEqual([key])
    expect(stored.nativeBalance).toMatchObject({ key, value: '1500000000000000000' })
    expect(Object.keys(stored.identities ?? {})).toEqual(['0xf39f'])
    // JSON can carry it (no bigint left).
    expect(() => JSON.stringify(stored)).not.toThrow()
    // A failed or aged native balance is not kept.
    expect(
      partialize({ ...state, balance: { ...state.balance, failed: true } }).nativeBalance,
    ).toBeNull()
    expect(
      partialize({ ...state, balance: { ...state.balance, fetchedAt: now - 30_001 } })
        .nativeBalance,
    ).toBeNull()
  })

  test('a reload takes back what is still fresh, of the stored shape only', () => {
    const stored = migrate(
      {
        balances: {
          [key]: { value: [ether], timestamp: now - 10_000 },
          aged: { value: [ether], timestamp: now - 40_000 },
          broken: { value: [{ symbol: 'ETH' }], timestamp: now - 1_000 },
          future: { value: [ether], timestamp: now + 60_000 },
        },
        nativeBalance: {
          key,
          value: '1500000000000000000',
          symbol: 'ETH',
          decimals: 18,
          fetchedAt: now - 5_000,
        },
        identities: {
          '0xf39f': { value: { name: 'ada.eth', avatar: null }, timestamp: now - 60_000 },
          '0xbad': { value: { name: 42, avatar: null }, timestamp: now - 60_000 },
        },
      },
      STORAGE_VERSION,
    )
    const state = merge(stored, initialState())
    expect(Object.keys(state.tokens.cache)).toEqual([key])
    expect(state.balance).toMatchObject({ key, value: 1_500_000_000_000_000_000n, failed: false })
    expect(Object.keys(state.identities)).toEqual(['0xf39f'])
    // A native balance whose value is no integer is dropped.
    const odd = merge(
      { ...stored, nativeBalance: { ...stored.nativeBalance, value: '1e18' } },
      initialState(),
    )
    expect(odd.balance).toBeNull()
  })
})

test("caches in a host page's storage (the frame had none) are not taken: the page could write any balance", async () => {
  vi.resetModules()
  const isolated = await import('./persist.js')
  const { initialState: fresh } = await import('./store.js')
  isolated.keepStateInHost(undefined, () => {})
  const now = Date.now()
  const state = isolated.merge(
    {
      ...isolated.migrate({}, isolated.STORAGE_VERSION),
      nativeBalance: { key: 'k', value: '1000', symbol: 'ETH', decimals: 18, fetchedAt: now },
      identities: { '0xf39f': { value: { name: 'fake.eth', avatar: null }, timestamp: now } },
    },
    fresh(),
  )
  expect(state.balance).toBeNull()
  expect(state.identities).toEqual({})
})
