import { createServer, type Server } from 'node:http'
import type { InjectedProviderInfo } from '@porthole/protocol'
import { resolveNetwork } from '@porthole/shared'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import type { Connector, ConnectorAccount } from '../connectors/types.js'

// Faked at the module edges: the host page (its injected wallet answers `injectedRequest`), the
// wallet frame (e-mail sign-in), the WalletConnect relay (a pairing the test settles), chain
// reads. The store, the Connect list, the connection rules, the `connect()` waiters, the
// modal's navigation and the catalogue (over HTTP, from a local server) run for real.
const edges = vi.hoisted(() => ({
  /** The page's wallet: accounts it grants, or the error it refuses with. */
  page: {
    answer: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'] as unknown,
    calls: [] as string[],
  },
  /** The wallet frame: the user it signs in, or the error getUser fails with. */
  frame: { user: undefined as unknown, fail: undefined as Error | undefined },
  /** The pending WalletConnect pairing. */
  pairing: undefined as
    | { resolve: (accounts: ConnectorAccount[]) => void; reject: (error: unknown) => void }
    | undefined,
}))

vi.mock('../runtime.js', () => ({
  runtime: { projectId: 'p', hostOrigin: 'http://localhost:4000', apiUrl: '', walletUrl: '' },
  SDK_TYPE: 'porthole',
  SDK_VERSION: '0.1.0',
}))
vi.mock('./balance.js', () => ({ refresh: vi.fn(async () => {}) }))
vi.mock('../host/bridge.js', () => ({
  emitProviderEvent: vi.fn(),
  hostRequest: vi.fn(async (_method: string, params: { uuid: string; method: string }) => {
    edges.page.calls.push(`${params.uuid}:${params.method}`)
    if (params.method === 'eth_chainId') return '0x7a69'
    if (edges.page.answer instanceof Error) throw edges.page.answer
    return edges.page.answer
  }),
}))
vi.mock('../wallet/frame.js', () => ({
  walletRequest: vi.fn(async (method: string) => {
    if (method === 'connectEmail') return { action: 'VERIFY_OTP' }
    if (method === 'connectOtp') return {}
    if (method === 'getUser') {
      if (edges.frame.fail) throw edges.frame.fail
      return edges.frame.user
    }
    if (method === 'signOut') return null
    throw new Error(`unexpected ${method}`)
  }),
  onWalletChannel: () => {},
  showWalletFrame: () => {},
  walletFrame: async () => null,
  walletFrameStarted: () => false,
}))
vi.mock('./walletconnect.js', async () => {
  const Connection = await import('./connection.js')
  const connector: Connector = {
    info: { id: 'walletConnect', type: 'WALLET_CONNECT', name: 'Porthole Test Wallet' },
    namespaces: ['eip155'],
    connect: async () => [],
    getAccounts: async () => [],
    request: async () => null,
    disconnect: async () => {},
  }
  return {
    cancelPairing: vi.fn(),
    connectWalletConnect: vi.fn(
      () =>
        new Promise<void>((resolve, reject) => {
          edges.pairing = {
            resolve: (accounts) => {
              Connection.setConnected(connector, accounts, { silent: false })
              resolve()
            },
            reject,
          }
        }),
    ),
  }
})

/** The pending pairing (read through a function: assignments in the test do not narrow it). */
const pairing = () => edges.pairing

const Headless = await import('./headless.js')
const Auth = await import('./auth.js')
const Modal = await import('./modal.js')
const Waiters = await import('./waiters.js')
const WalletConnect = await import('./walletconnect.js')
const { configureApi } = await import('../api/client.js')
const { store, initialState } = await import('../store/store.js')

const EVM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const WC_ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const EMBEDDED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const DEV: InjectedProviderInfo = {
  uuid: 'u-dev',
  name: 'Porthole Dev Wallet',
  icon: 'data:image/svg+xml,<svg/>',
  rdns: 'dev.porthole.wallet',
}

/** The catalogue, served over HTTP as the API serves `/getWallets`. */
const CATALOGUE = ['MetaMask', 'Rainbow', 'Trust Wallet', 'Zerion'].map((name, i) => ({
  id: `id-${i}`,
  name,
  image_url: `https://api.example/getWalletImage/${i}`,
  rdns: null,
  homepage: null,
  order: i,
}))
let server: Server
let catalogueRequests = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    catalogueRequests++
    const url = new URL(req.url ?? '/', 'http://x')
    const entries = Number(url.searchParams.get('entries'))
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ data: CATALOGUE.slice(0, entries), count: 400 }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  configureApi(`http://127.0.0.1:${port}`, 'p')
  await store.persist.rehydrate()
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** Every state the modal showed open, as `[view, …]`. */
let shown: string[] = []
let unsubscribe = () => {}
beforeEach(() => {
  store.setState(initialState())
  store.setState({
    config: { ...store.getState().config, networks: [resolveNetwork('eip155:31337')!] },
    activeNetworkId: 'eip155:31337',
    injected: [DEV],
  })
  edges.page = { answer: [EVM], calls: [] }
  edges.frame = {
    user: {
      email: 'ada@example.com',
      address: EMBEDDED,
      chainId: 31337,
      accounts: [{ address: EMBEDDED, type: 'eoa' }],
      userName: null,
      socialProvider: null,
      preferredAccountType: 'eoa',
      smartAccountDeployed: false,
    },
    fail: undefined,
  }
  Auth.clock.now = () => Date.now() + Math.random() * 1e9 // no e-mail cooldown between tests
  shown = []
  unsubscribe = store.subscribe((s) => {
    if (s.open) shown.push(s.history.at(-1)?.view ?? '')
  })
})
afterEach(() => {
  unsubscribe()
  Waiters.rejectAll(new Error('test over'))
})

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: { code?: number; message?: string }) => ({
      error: { code: error.code, message: error.message },
    }),
  )

describe('wallets()', () => {
  test('lists what Connect shows below e-mail and social login: WalletConnect, the installed wallet, one catalogue wallet', async () => {
    const list = await Headless.wallets()
    expect(list.map((w) => [w.id, w.section, w.type, w.installed])).toEqual([
      ['walletConnect', 'walletConnect', 'walletConnect', false],
      ['dev.porthole.wallet', 'installed', 'injected', true],
      ['id-0', 'recommended', 'walletConnect', false],
    ])
    expect(list[1]).toMatchObject({ name: 'Porthole Dev Wallet', icon: DEV.icon })
    expect(list[2]?.icon).toBe('https://api.example/getWalletImage/0')
    // Asked once, then kept: a second list costs no request.
    const before = catalogueRequests
    await Headless.wallets()
    expect(catalogueRequests).toBe(before)
    expect(shown).toEqual([])
  })

  test('without e-mail and social login Connect lists every wallet, and so does wallets()', async () => {
    const { config } = store.getState()
    store.setState({
      config: { ...config, features: { ...config.features, email: false, socials: false } },
    })
    const list = await Headless.wallets()
    expect(list.map((w) => w.id)).toEqual([
      'walletConnect',
      'dev.porthole.wallet',
      'id-0',
      'id-1',
      'id-2',
      'id-3',
    ])
  })
})

describe('connectWallet()', () => {
  test('connects the installed wallet through the page; the modal never opens', async () => {
    const result = await Headless.connectWallet('dev.porthole.wallet')
    expect(result).toEqual({
      address: EVM,
      caipAddress: `eip155:31337:${EVM}`,
      chainId: 31337,
      caipNetworkId: 'eip155:31337',
    })
    expect(edges.page.calls).toEqual(['u-dev:eth_requestAccounts', 'u-dev:eth_chainId'])
    expect(store.getState().connection).toMatchObject({ status: 'connected', address: EVM })
    // Remembered as recent, as a connection from the modal would be.
    expect(store.getState().recentWallets.map((w) => w.id)).toEqual(['dev.porthole.wallet'])
    expect((await Headless.wallets())[1]).toMatchObject({ section: 'recent', installed: true })
    expect(shown).toEqual([])
  })

  test("the wallet's refusal rejects with 'Connection rejected' (4001) and leaves no waiter", async () => {
    edges.page.answer = Object.assign(new Error('User denied'), { code: 4001 })
    expect(await outcome(Headless.connectWallet('dev.porthole.wallet'))).toEqual({
      error: { code: 4001, message: 'Connection rejected' },
    })
    expect(Waiters.count()).toBe(0)
    expect(store.getState().connection.status).toBe('disconnected')
  })

  test("'walletConnect' pairs; the promise resolves when the wallet approves", async () => {
    const pending = Headless.connectWallet('walletConnect')
    await vi.waitFor(() => expect(edges.pairing).toBeDefined())
    pairing()?.resolve([
      { namespace: 'eip155', address: WC_ADDRESS, caipNetworkId: 'eip155:31337' },
    ])
    expect(await pending).toMatchObject({ address: WC_ADDRESS, chainId: 31337 })
    expect(store.getState().connection.connector).toMatchObject({ type: 'WALLET_CONNECT' })
    expect(shown).toEqual([])
  })

  test('a catalogue wallet that is not installed pairs over WalletConnect; a refusal rejects', async () => {
    edges.pairing = undefined
    const pending = outcome(Headless.connectWallet('id-2'))
    await vi.waitFor(() => expect(edges.pairing).toBeDefined())
    pairing()?.reject(Object.assign(new Error('rejected by user'), { code: 5000 }))
    // The pairing module names the refusal; a 4001 from it reaches the host unchanged.
    expect(await pending).toMatchObject({ error: { message: 'rejected by user' } })
    edges.pairing = undefined
    const again = outcome(Headless.connectWallet('id-2'))
    await vi.waitFor(() => expect(edges.pairing).toBeDefined())
    pairing()?.reject(Object.assign(new Error('User rejected.'), { code: 4001 }))
    expect(await again).toEqual({ error: { code: 4001, message: 'Connection rejected' } })
    expect(Waiters.count()).toBe(0)
    expect(edges.page.calls).toEqual([])
  })

  test('aborting the request (the host went away) stops renewing the pairing', async () => {
    const controller = new AbortController()
    void Headless.connectWallet('walletConnect', controller.signal).catch(() => {})
    controller.abort()
    expect(WalletConnect.cancelPairing).toHaveBeenCalled()
  })

  test('an id that is not in the list is refused (-32602)', async () => {
    expect(await outcome(Headless.connectWallet('no.such.wallet'))).toEqual({
      error: { code: -32602, message: 'Wallet not found: no.such.wallet' },
    })
    expect(Waiters.count()).toBe(0)
  })
})

describe('connectEmail()', () => {
  test('opens on the code entry alone and resolves once signed in; Connect never shows', async () => {
    const pending = Headless.connectEmail(' ada@example.com ')
    await vi.waitFor(() => expect(store.getState().open).toBe(true))
    expect(store.getState().history).toEqual([{ view: 'EmailVerifyOtp', email: 'ada@example.com' }])
    await Auth.submitOtp('123456', 'ada@example.com')
    expect(await pending).toMatchObject({ address: EMBEDDED, caipNetworkId: 'eip155:31337' })
    expect(store.getState().open).toBe(false)
    expect(shown.length).toBeGreaterThan(0)
    expect(shown).not.toContain('Connect')
  })

  test("closing the code entry rejects with 'Modal closed' (4001)", async () => {
    const pending = outcome(Headless.connectEmail('ada@example.com'))
    await vi.waitFor(() => expect(store.getState().open).toBe(true))
    // Back at the first (and only) view closes.
    Modal.back()
    expect(await pending).toEqual({ error: { code: 4001, message: 'Modal closed' } })
    expect(shown).not.toContain('Connect')
  })

  test('a sign-in that fails after the code closes the modal instead of showing Connect', async () => {
    edges.frame.fail = Object.assign(new Error('Could not load the user'), { code: -32603 })
    const pending = outcome(Headless.connectEmail('ada@example.com'))
    await vi.waitFor(() => expect(store.getState().open).toBe(true))
    await expect(Auth.submitOtp('123456', 'ada@example.com')).rejects.toThrow()
    expect(await pending).toEqual({ error: { code: -32603, message: 'Could not load the user' } })
    expect(store.getState().open).toBe(false)
    expect(shown).not.toContain('Connect')
  })

  test('a bad address and a project without e-mail login are refused before any request', async () => {
    expect(await outcome(Headless.connectEmail('not-an-address'))).toMatchObject({
      error: { code: -32602 },
    })
    store.setState({
      config: {
        ...store.getState().config,
        features: { ...store.getState().config.features, email: false },
      },
    })
    expect(await outcome(Headless.connectEmail('ada@example.com'))).toMatchObject({
      error: { code: 4200 },
    })
    expect(shown).toEqual([])
  })

  test("with neither e-mail nor social login there is no embedded wallet: 'No auth connector found' (4200)", async () => {
    const { features } = store.getState().config
    store.setState({
      config: { ...store.getState().config, features: { ...features, email: false, socials: [] } },
    })
    expect(await outcome(Headless.connectEmail('ada@example.com'))).toMatchObject({
      error: { code: 4200, message: 'No auth connector found' },
    })
    store.setState({
      config: {
        ...store.getState().config,
        features: { ...features, email: false, socials: false },
      },
    })
    expect(await outcome(Headless.connectEmail('ada@example.com'))).toMatchObject({
      error: { code: 4200, message: 'No auth connector found' },
    })
    expect(shown).toEqual([])
  })
})
