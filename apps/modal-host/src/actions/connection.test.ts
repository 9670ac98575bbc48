import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { Connector, ConnectorAccount, ConnectorRequest } from '../connectors/types.js'

// The edges are faked: balances (a chain read) and the modal's navigation. The connection
// rules — several connections, the active one per namespace, restore, events, requests — run
// for real against the real store.
vi.mock('./balance.js', () => ({ refresh: vi.fn(async () => {}) }))
vi.mock('./modal.js', () => ({ close: vi.fn(), prepare: vi.fn() }))
const Modal = await import('./modal.js')

const Connection = await import('./connection.js')
const Waiters = await import('./waiters.js')
const { store, initialState } = await import('../store/store.js')
const { partialize, merge } = await import('../store/persist.js')
const { MULTI_WALLET_NOT_ENABLED } = await import('../rules/multiWallet.js')

/** The project's multi-wallet switch as the merged features carry it. */
function multiWallet(on: boolean) {
  store.setState((s) => ({
    config: { ...s.config, features: { ...s.config.features, multiWallet: on } },
  }))
}

const EVM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const EVM_2 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SOL = 'solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P'
const SOL_ADDRESS = '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys'

/** A connector over a fake wallet: it grants `accounts` and records every request. */
function fakeConnector(
  id: string,
  accounts: ConnectorAccount[],
  type: 'ANNOUNCED' | 'WALLET_CONNECT' | 'AUTH' = 'ANNOUNCED',
) {
  const requests: ConnectorRequest[] = []
  const connector: Connector = {
    info: { id, type, name: id },
    namespaces: [...new Set(accounts.map((a) => a.namespace))],
    connect: async () => accounts,
    getAccounts: async () => accounts,
    request: async (request) => {
      requests.push(request)
      return `${id}:${request.method}`
    },
    disconnect: vi.fn(async () => {}),
  }
  return { connector, requests }
}

const evmWallet = (id = 'io.metamask', address = EVM) =>
  fakeConnector(id, [{ namespace: 'eip155', address, caipNetworkId: 'eip155:31337' }])
const solanaWallet = (id = 'solana:Dev') =>
  fakeConnector(id, [{ namespace: 'solana', address: SOL_ADDRESS, caipNetworkId: SOL }])

beforeEach(() => {
  store.setState(initialState(), true)
})
afterEach(() => {
  Waiters.rejectAll(new Error('test over'))
})

describe('one setConnected path, several connections', () => {
  test('an EVM and a Solana wallet connect side by side; the last connected is active', () => {
    Connection.setConnected(evmWallet().connector, [], { silent: false })
    expect(store.getState().connections).toEqual([]) // no account granted: nothing recorded
    const evm = evmWallet()
    Connection.setConnected(
      evm.connector,
      [{ namespace: 'eip155', address: EVM.toLowerCase(), caipNetworkId: 'eip155:31337' }],
      { silent: false },
    )
    const sol = solanaWallet()
    Connection.setConnected(
      sol.connector,
      [{ namespace: 'solana', address: SOL_ADDRESS, caipNetworkId: SOL }],
      { silent: false },
    )
    const state = store.getState()
    expect(state.connections.map((c) => c.namespace)).toEqual(['eip155', 'solana'])
    // EVM addresses are checksummed; Solana addresses kept as given.
    expect(state.connections[0]?.address).toBe(EVM)
    expect(state.activeNamespace).toBe('solana')
    expect(state.connection).toMatchObject({ status: 'connected', address: SOL_ADDRESS })
    expect(state.activeNetworkId).toBe(SOL)
    expect(Connection.connectResult()).toEqual({
      address: SOL_ADDRESS,
      caipAddress: `${SOL}:${SOL_ADDRESS}`,
      caipNetworkId: SOL,
      chainId: 'DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P',
    })
    expect(Connection.connectResult('eip155')?.address).toBe(EVM)
  })

  test('multi-wallet on: two wallets in one namespace, the new one is active, selecting switches back', () => {
    multiWallet(true)
    const a = evmWallet('io.metamask', EVM)
    const b = evmWallet('com.rabby', EVM_2)
    Connection.setConnected(
      a.connector,
      [{ namespace: 'eip155', address: EVM, caipNetworkId: 'eip155:31337' }],
      { silent: false },
    )
    Connection.setConnected(
      b.connector,
      [{ namespace: 'eip155', address: EVM_2, caipNetworkId: 'eip155:31338' }],
      { silent: false },
    )
    expect(store.getState().connection.address).toBe(EVM_2)
    Connection.selectConnection('IO.METAMASK', 'eip155') // ids compare case-insensitively
    expect(store.getState().connection.address).toBe(EVM)
    expect(store.getState().activeNetworkId).toBe('eip155:31337')
  })

  test('a connector connecting again replaces its connection instead of adding one', () => {
    const a = evmWallet()
    const account = { namespace: 'eip155' as const, address: EVM, caipNetworkId: 'eip155:31337' }
    Connection.setConnected(a.connector, [account], { silent: false })
    Connection.setConnected(a.connector, [{ ...account, caipNetworkId: 'eip155:31338' }], {
      silent: false,
    })
    expect(store.getState().connections).toHaveLength(1)
    expect(store.getState().connections[0]?.caipNetworkId).toBe('eip155:31338')
  })

  test('connect({ namespace }) waits for that namespace only', async () => {
    let settled: unknown
    void Waiters.wait('solana').then((r) => {
      settled = r
    })
    const evm = evmWallet()
    Connection.setConnected(evm.connector, await evm.connector.getAccounts(), { silent: false })
    await Promise.resolve()
    expect(settled).toBeUndefined()
    const sol = solanaWallet()
    Connection.setConnected(sol.connector, await sol.connector.getAccounts(), { silent: false })
    await vi.waitFor(() => expect(settled).toMatchObject({ caipNetworkId: SOL }))
  })
})

describe('multi-wallet off (the spec default): one wallet per namespace', () => {
  test("a second EVM wallet is refused with 'Multi-wallet support is not enabled…' (4200) before it is asked; the first stays", async () => {
    const a = evmWallet('io.metamask', EVM)
    Connection.setConnected(a.connector, await a.connector.getAccounts(), { silent: false })
    expect(() => Connection.assertCanConnect('com.rabby', ['eip155'])).toThrow(
      expect.objectContaining({ code: 4200, message: MULTI_WALLET_NOT_ENABLED }),
    )
    // The same wallet again, and a wallet of another namespace, are fine.
    Connection.assertCanConnect('IO.METAMASK', ['eip155'])
    Connection.assertCanConnect('solana:Dev', ['solana'])
    // Past the check (a wallet that connected anyway): refused, its new session ended.
    const b = evmWallet('com.rabby', EVM_2)
    expect(() =>
      Connection.setConnected(
        b.connector,
        [{ namespace: 'eip155', address: EVM_2, caipNetworkId: 'eip155:31337' }],
        { silent: false },
      ),
    ).toThrow(MULTI_WALLET_NOT_ENABLED)
    expect(b.connector.disconnect).toHaveBeenCalled()
    expect(a.connector.disconnect).not.toHaveBeenCalled()
    expect(store.getState().connections.map((c) => c.address)).toEqual([EVM])
    expect(store.getState().connection.address).toBe(EVM)
  })

  test('a WalletConnect wallet granting EVM and Solana keeps only the namespace no other wallet holds', async () => {
    const a = evmWallet('io.metamask', EVM)
    Connection.setConnected(a.connector, await a.connector.getAccounts(), { silent: false })
    const wc = fakeConnector(
      'walletConnect',
      [
        { namespace: 'eip155', address: EVM_2, caipNetworkId: 'eip155:31337' },
        { namespace: 'solana', address: SOL_ADDRESS, caipNetworkId: SOL },
      ],
      'WALLET_CONNECT',
    )
    Connection.setConnected(wc.connector, await wc.connector.getAccounts(), { silent: false })
    expect(
      store.getState().connections.map((c) => [c.connector.id, c.namespace, c.address]),
    ).toEqual([
      ['io.metamask', 'eip155', EVM],
      ['walletConnect', 'solana', SOL_ADDRESS],
    ])
    expect(wc.connector.disconnect).not.toHaveBeenCalled()
  })
})

describe('Connected wallets keeps disconnected connections (spec §4 "Switching connections")', () => {
  test('one disconnected wallet is listed as disconnected; connecting it again takes it off; disconnect() forgets all', async () => {
    multiWallet(true)
    const a = evmWallet('io.metamask', EVM)
    const b = evmWallet('com.rabby', EVM_2)
    Connection.setConnected(a.connector, await a.connector.getAccounts(), { silent: false })
    Connection.setConnected(b.connector, await b.connector.getAccounts(), { silent: false })
    await Connection.disconnect('com.rabby')
    expect(store.getState().recentConnections.map((c) => [c.connector.id, c.address])).toEqual([
      ['com.rabby', EVM_2],
    ])
    // Kept across a reload, as disconnected: not restored.
    const stored = JSON.parse(JSON.stringify(partialize(store.getState())))
    expect(stored.recentConnections).toHaveLength(1)
    expect(merge(stored, initialState()).recentConnections).toHaveLength(1)

    // Reopened from Connected wallets: connected again, and back on Connected wallets.
    store.setState({ returnToProfileWallets: true, open: true })
    vi.mocked(Modal.close).mockClear()
    Connection.setConnected(b.connector, await b.connector.getAccounts(), { silent: false })
    expect(store.getState().recentConnections).toEqual([])
    expect(store.getState().history).toEqual([{ view: 'Account' }, { view: 'ProfileWallets' }])
    expect(store.getState().returnToProfileWallets).toBe(false)
    expect(Modal.close).not.toHaveBeenCalled()

    await Connection.disconnect('com.rabby')
    await Connection.disconnect()
    expect(store.getState().recentConnections).toEqual([])
    expect(partialize(store.getState()).recentConnections).toEqual([])
  })
})

describe('requests go to the active connection of their namespace', () => {
  test('eip155 and solana requests reach their own wallets', async () => {
    const evm = evmWallet()
    const sol = solanaWallet()
    Connection.setConnected(evm.connector, await evm.connector.getAccounts(), { silent: false })
    Connection.setConnected(sol.connector, await sol.connector.getAccounts(), { silent: false })
    await expect(
      Connection.connectorRequest('personal_sign', ['0x00', EVM], 'eip155'),
    ).resolves.toBe('io.metamask:personal_sign')
    await expect(
      Connection.connectorRequest(
        'solana_signMessage',
        { message: '1', pubkey: SOL_ADDRESS },
        'solana',
      ),
    ).resolves.toBe('solana:Dev:solana_signMessage')
    expect(sol.requests[0]).toMatchObject({ namespace: 'solana', caipNetworkId: SOL })
    await expect(Connection.connectorRequest('getAccountAddresses', {}, 'bip122')).rejects.toThrow(
      'Not connected',
    )
  })
})

describe('disconnect', () => {
  test('disconnecting the EVM wallet makes the remaining connection active (spec §4)', async () => {
    const evm = evmWallet()
    const sol = solanaWallet()
    Connection.setConnected(sol.connector, await sol.connector.getAccounts(), { silent: false })
    Connection.setConnected(evm.connector, await evm.connector.getAccounts(), { silent: false })
    expect(store.getState().activeNamespace).toBe('eip155')
    await Connection.disconnect('io.metamask')
    expect(evm.connector.disconnect).toHaveBeenCalled()
    const state = store.getState()
    expect(state.connections.map((c) => c.namespace)).toEqual(['solana'])
    expect(state.activeNamespace).toBe('solana')
    expect(state.connection.address).toBe(SOL_ADDRESS)
    expect(state.disconnectedConnectorIds).toEqual(['io.metamask'])
  })

  test('disconnect() ends every connection; nothing is restored afterwards', async () => {
    const evm = evmWallet()
    const sol = solanaWallet()
    Connection.setConnected(evm.connector, await evm.connector.getAccounts(), { silent: false })
    Connection.setConnected(sol.connector, await sol.connector.getAccounts(), { silent: false })
    await Connection.disconnect()
    const state = store.getState()
    expect(state.connections).toEqual([])
    expect(state.connection.status).toBe('disconnected')
    expect(partialize(state).connections).toEqual([])
  })

  test("a wallet side that fails rejects with 'Failed to disconnect', naming the chain; the connections still end (spec §8)", async () => {
    const evm = evmWallet()
    const sol = solanaWallet()
    vi.mocked(evm.connector.disconnect).mockRejectedValueOnce(new Error('relay unreachable'))
    Connection.setConnected(evm.connector, await evm.connector.getAccounts(), { silent: false })
    Connection.setConnected(sol.connector, await sol.connector.getAccounts(), { silent: false })
    const error = await Connection.disconnect().catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: -32603,
      message: 'Failed to disconnect',
      data: {
        cause: {
          code: -32603,
          message: 'Failed to disconnect chains: eip155 (relay unreachable)',
        },
      },
    })
    expect(store.getState().connections).toEqual([])
    expect(partialize(store.getState()).connections).toEqual([])
  })

  test("a wallet side that does not answer in 3 s counts as failed: 'Failed to disconnect'", async () => {
    vi.useFakeTimers()
    try {
      const evm = evmWallet()
      vi.mocked(evm.connector.disconnect).mockReturnValueOnce(new Promise(() => {}))
      Connection.setConnected(evm.connector, await evm.connector.getAccounts(), { silent: false })
      const done = Connection.disconnect('io.metamask').catch((e: unknown) => e)
      await vi.advanceTimersByTimeAsync(Connection.DISCONNECT_WAIT_MS)
      expect(await done).toMatchObject({
        message: 'Failed to disconnect',
        data: { cause: { message: 'Failed to disconnect chains: eip155 (no answer in 3 s)' } },
      })
      expect(store.getState().connections).toEqual([])
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('wallet events', () => {
  test('an account switch, a chain switch, and an empty account list', async () => {
    const evm = evmWallet()
    const sol = solanaWallet()
    Connection.setConnected(sol.connector, await sol.connector.getAccounts(), { silent: false })
    Connection.setConnected(evm.connector, await evm.connector.getAccounts(), { silent: false })
    Connection.onConnectorEvent('io.metamask', {
      event: 'accountsChanged',
      data: [EVM_2.toLowerCase()],
      namespace: 'eip155',
    })
    expect(store.getState().connection.address).toBe(EVM_2)
    Connection.onConnectorEvent('io.metamask', { event: 'chainChanged', data: '0x7a6a' })
    expect(store.getState().connection.caipNetworkId).toBe('eip155:31338')
    expect(store.getState().activeNetworkId).toBe('eip155:31338')
    Connection.onConnectorEvent('io.metamask', {
      event: 'accountsChanged',
      data: [],
      namespace: 'eip155',
    })
    expect(store.getState().connections.map((c) => c.namespace)).toEqual(['solana'])
    // An unknown connector's events change nothing.
    Connection.onConnectorEvent('com.evil', { event: 'disconnect', data: null })
    expect(store.getState().connections).toHaveLength(1)
  })
})

describe('reconnect off (enableReconnect: false)', () => {
  test('a reload starts disconnected, asks no wallet, and lists the saved connections as disconnected', async () => {
    const evm = evmWallet()
    Connection.setConnected(evm.connector, await evm.connector.getAccounts(), { silent: false })
    const stored = JSON.parse(JSON.stringify(partialize(store.getState())))
    store.setState(merge(stored, initialState()), true)
    store.setState((s) => ({ config: { ...s.config, enableReconnect: false } }))
    const restore = vi.fn(async () => evmWallet().connector)
    Connection.registerConnectorKind('ANNOUNCED', { restore })
    await Connection.restoreSession()
    const state = store.getState()
    expect(restore).not.toHaveBeenCalled()
    expect(state.connections).toEqual([])
    expect(state.savedConnections).toEqual([])
    expect(state.connection.status).toBe('disconnected')
    expect(state.recentConnections.map((c) => [c.connector.id, c.address])).toEqual([
      ['io.metamask', EVM],
    ])
    // And the next reload does not bring it back either.
    expect(partialize(state).connections).toEqual([])
  })
})

describe('restore (adapter sync)', () => {
  test('every saved connection comes back; a gone wallet is dropped', async () => {
    const evm = evmWallet()
    const sol = solanaWallet()
    Connection.setConnected(evm.connector, await evm.connector.getAccounts(), { silent: false })
    Connection.setConnected(sol.connector, await sol.connector.getAccounts(), { silent: false })
    Connection.selectConnection('io.metamask', 'eip155')
    const stored = partialize(store.getState())

    // A reload: a fresh store hydrated from what was stored.
    store.setState(merge(JSON.parse(JSON.stringify(stored)), initialState()), true)
    expect(store.getState().connection.status).toBe('connecting')
    const back = evmWallet()
    Connection.registerConnectorKind('ANNOUNCED', {
      restore: async (saved) =>
        saved[0]?.connector.id === 'io.metamask' ? back.connector : undefined,
    })
    await Connection.restoreSession()
    const state = store.getState()
    expect(state.connections.map((c) => c.connector.id)).toEqual(['io.metamask'])
    expect(state.savedConnections).toEqual([])
    expect(state.activeNamespace).toBe('eip155')
    expect(state.connection).toMatchObject({ status: 'connected', address: EVM })
  })

  test('both come back, and the remembered active namespace stays active', async () => {
    const evm = evmWallet()
    const sol = solanaWallet()
    Connection.setConnected(evm.connector, await evm.connector.getAccounts(), { silent: false })
    Connection.setConnected(sol.connector, await sol.connector.getAccounts(), { silent: false })
    Connection.selectConnection('io.metamask', 'eip155')
    const stored = JSON.parse(JSON.stringify(partialize(store.getState())))
    store.setState(merge(stored, initialState()), true)
    Connection.registerConnectorKind('ANNOUNCED', {
      restore: async (saved) =>
        saved[0]?.namespace === 'solana' ? solanaWallet().connector : evmWallet().connector,
    })
    await Connection.restoreSession()
    const state = store.getState()
    expect(state.connections.map((c) => c.namespace).sort()).toEqual(['eip155', 'solana'])
    expect(state.activeNamespace).toBe('eip155')
    expect(state.connection.address).toBe(EVM)
  })
})
