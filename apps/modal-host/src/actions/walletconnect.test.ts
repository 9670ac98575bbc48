import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'

// The universal provider is replaced at its edge by a fake that hands out a new pairing URI
// per connect() and, like the real one (2.25), has no way to abort a pending connect(): a new
// connect() is the renewal. The modal's renewal logic is what is under test.
const fake = vi.hoisted(() => {
  const listeners = new Map<string, (data: unknown) => void>()
  const relayListeners = new Map<string, (data: unknown) => void>()
  const state = { uris: [] as string[] }
  let approve: ((session: unknown) => void) | undefined
  let fail: ((error: unknown) => void) | undefined
  const provider = {
    client: {
      core: {
        verify: {},
        relayer: {
          transportOpen: async () => {},
          on: (event: string, listener: (data: unknown) => void) =>
            relayListeners.set(event, listener),
        },
      },
    },
    session: undefined as unknown,
    on: (event: string, listener: (data: unknown) => void) => listeners.set(event, listener),
    connect: () =>
      new Promise((resolve, reject) => {
        const uri = `wc:${String(state.uris.length).padStart(64, '0')}@2?relay-protocol=irn`
        state.uris.push(uri)
        approve = resolve
        fail = reject
        listeners.get('display_uri')?.(uri)
      }),
    request: vi.fn(async () => '0xsig'),
    disconnect: vi.fn(async () => {}),
  }
  return {
    provider,
    state,
    approve: (accounts: string[]) => {
      const namespaces: Record<string, { accounts: string[] }> = {}
      for (const a of accounts) {
        const ns = a.split(':')[0] as string
        namespaces[ns] ??= { accounts: [] }
        namespaces[ns].accounts.push(a)
      }
      approve?.({ namespaces, peer: { metadata: { name: 'Wallet X' } } })
    },
    fail: (error: unknown) => fail?.(error),
    /** The provider's event, as the wallet's messages raise it. */
    emit: (event: string, data: unknown) => listeners.get(event)?.(data),
    /** The relayer's event: a message the relay delivered. */
    relay: (event: string, data: unknown) => relayListeners.get(event)?.(data),
    emitted: [] as unknown[],
  }
})
vi.mock('@walletconnect/universal-provider', () => ({
  UniversalProvider: { init: async () => fake.provider },
}))
vi.mock('../runtime.js', () => ({
  runtime: { apiUrl: 'http://127.0.0.1:4300', relayUrl: 'ws://127.0.0.1:4400' },
  SDK_TYPE: 'porthole',
  SDK_VERSION: '0.1.0',
}))
vi.mock('../host/bridge.js', () => ({
  emitProviderEvent: (event: unknown) => fake.emitted.push(event),
}))
vi.mock('./connection.js', () => ({
  setConnected: vi.fn(),
  onConnectorEvent: vi.fn(),
  registerConnectorKind: vi.fn(),
}))

const WalletConnect = await import('./walletconnect.js')
const Connection = await import('./connection.js')
const { store, initialState } = await import('../store/store.js')

beforeEach(() => {
  vi.useFakeTimers()
  store.setState(initialState())
})
afterEach(() => {
  vi.useRealTimers()
  fake.state.uris.length = 0
  fake.emitted.length = 0
})

describe('WalletConnect pairing', () => {
  test('an expiring URI is replaced without user action, and the dapp hears each one', async () => {
    const connecting = WalletConnect.connectWalletConnect()
    await vi.waitFor(() => expect(fake.state.uris).toHaveLength(1))
    expect(store.getState().walletConnectUri?.uri).toBe(fake.state.uris[0])
    // 4 minutes of life, expired with 10 s left: renewed at 3 min 50 s.
    await vi.advanceTimersByTimeAsync(3 * 60_000 + 49_000)
    expect(fake.state.uris).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1_000)
    await vi.waitFor(() => expect(fake.state.uris).toHaveLength(2))
    expect(store.getState().walletConnectUri?.uri).toBe(fake.state.uris[1])
    expect(fake.emitted).toEqual(
      fake.state.uris.map((uri) => ({ event: 'display_uri', data: uri })),
    )
    fake.approve(['eip155:31337:0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'])
    await connecting
    expect(Connection.setConnected).toHaveBeenCalledWith(
      expect.objectContaining({
        info: { id: 'walletConnect', type: 'WALLET_CONNECT', name: 'Wallet X' },
      }),
      [
        {
          namespace: 'eip155',
          address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
          caipNetworkId: 'eip155:31337',
        },
      ],
      { silent: false },
    )
  })

  test('every namespace of the session connects; a Solana-only session is valid', () => {
    const SOL = 'solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P'
    const account = '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys'
    expect(WalletConnect.accountsOf({ solana: { accounts: [`${SOL}:${account}`] } })).toEqual([
      { namespace: 'solana', address: account, caipNetworkId: SOL },
    ])
    const both = WalletConnect.accountsOf({
      eip155: { accounts: ['eip155:1:0xA', 'eip155:31337:0xB'] },
      solana: { accounts: [`${SOL}:${account}`] },
      bip122: {
        accounts: [
          'bip122:0f9188f13cb7b2c71f2a335e3a4fc328:bcrt1qpay',
          'bip122:0f9188f13cb7b2c71f2a335e3a4fc328:bcrt1pord',
        ],
      },
      unknown: { accounts: ['unknown:1:x'] },
    })
    expect(both.map((a) => a.namespace)).toEqual(['eip155', 'solana', 'bip122'])
    expect(both[2]?.accounts).toEqual([
      { address: 'bcrt1qpay', purpose: 'payment' },
      { address: 'bcrt1pord', purpose: 'ordinal' },
    ])
  })

  test('the account on the active network is chosen', () => {
    store.setState({ activeNetworkId: 'eip155:31337' })
    expect(
      WalletConnect.accountsOf({ eip155: { accounts: ['eip155:1:0xA', 'eip155:31337:0xB'] } })[0]
        ?.address,
    ).toBe('0xB')
  })

  test('pairingExpired: 10 s or less left counts as expired', () => {
    store.setState({ walletConnectUri: { uri: 'wc:x', createdAt: 0 } })
    expect(WalletConnect.pairingExpired(4 * 60_000 - 10_001)).toBe(false)
    expect(WalletConnect.pairingExpired(4 * 60_000 - 10_000)).toBe(true)
    store.setState({ walletConnectUri: null })
    expect(WalletConnect.pairingExpired(10 ** 12)).toBe(false)
  })

  test("a refused session is 'Connection rejected' (4001); other failures keep their code", async () => {
    const refused = WalletConnect.connectWalletConnect()
    await vi.waitFor(() => expect(fake.state.uris).toHaveLength(1))
    // The wallet's rejectSession reaches connect() as WalletConnect's USER_REJECTED (5000).
    fake.fail(Object.assign(new Error('User rejected.'), { code: 5000 }))
    await expect(refused).rejects.toMatchObject({ code: 4001, message: 'Connection rejected' })

    const broken = WalletConnect.connectWalletConnect()
    await vi.waitFor(() => expect(fake.state.uris).toHaveLength(2))
    fake.fail({ code: 5100, message: 'Unsupported chains.' })
    await expect(broken).rejects.toMatchObject({ code: 5100, message: 'Unsupported chains.' })
  })

  test('Telegram and iOS Safari share one pending connect; other browsers pair anew', async () => {
    const first = WalletConnect.connectWalletConnect({ share: true })
    await vi.waitFor(() => expect(fake.state.uris).toHaveLength(1))
    const again = WalletConnect.connectWalletConnect({ share: true })
    WalletConnect.cancelPairing() // the view closed: the shared pairing stays
    expect(again).toBe(first)
    expect(fake.state.uris).toHaveLength(1)
    fake.approve(['eip155:31337:0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'])
    await Promise.all([first, again])

    const safari =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
    expect(WalletConnect.sharesPendingConnect(safari, false)).toBe(true)
    expect(
      WalletConnect.sharesPendingConnect(safari.replace('Version/17.0', 'CriOS/120.0'), false),
    ).toBe(false)
    expect(
      WalletConnect.sharesPendingConnect('Mozilla/5.0 (X11; Linux x86_64) Chrome/150', false),
    ).toBe(false)
    expect(
      WalletConnect.sharesPendingConnect('Mozilla/5.0 (X11; Linux x86_64) Chrome/150', true),
    ).toBe(true)
  })
})

describe("'Session Expired' (spec §8) for a session the wallet deleted", () => {
  test('shown when the relay says the wallet published the delete before this page started', async () => {
    await WalletConnect.walletConnectProvider()
    fake.relay('relayer_message', { topic: 'away', publishedAt: performance.timeOrigin - 60_000 })
    fake.emit('session_delete', { id: 1, topic: 'away' })
    expect(store.getState().alert).toEqual({ code: 4900, message: 'Session Expired', fatal: false })
    expect(Connection.onConnectorEvent).toHaveBeenLastCalledWith('walletConnect', {
      event: 'disconnect',
      data: null,
    })
  })

  test('shown for a delete the relay delivered while the provider was starting (before the modal listened)', async () => {
    await WalletConnect.walletConnectProvider()
    fake.emit('session_delete', { id: 3, topic: 'stored' })
    expect(store.getState().alert).toMatchObject({ message: 'Session Expired' })
  })

  test('not when the wallet disconnects while the page is open', async () => {
    await WalletConnect.walletConnectProvider()
    fake.relay('relayer_message', { topic: 'now', publishedAt: performance.timeOrigin + 5_000 })
    fake.emit('session_delete', { id: 2, topic: 'now' })
    expect(store.getState().alert).toBeNull()
    expect(Connection.onConnectorEvent).toHaveBeenLastCalledWith('walletConnect', {
      event: 'disconnect',
      data: null,
    })
  })
})
