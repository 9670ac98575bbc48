import { resolveNetwork } from '@porthole/shared'
import { beforeEach, expect, test, vi } from 'vitest'

// The wallet frame is replaced at its module edge by a wallet whose account depends on the
// chain: a smart account on the devnet, the owner (EOA) on Ethereum, as for a chain without
// smart accounts. The connection logic runs for real.
const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SMART = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const wallet = vi.hoisted(() => ({
  chainId: 31337,
  signOut: 'ok' as 'ok' | 'fails' | 'silent',
  /** The channel listeners `watchWalletFrame` registers. */
  listeners: [] as ((channel: unknown) => void)[],
  configured: () => {},
  hostConfigured: Promise.resolve(),
  /** The wallet requests, in order, with their chain id when they name one. */
  calls: [] as string[],
}))
vi.mock('../wallet/frame.js', () => {
  const user = () => ({
    email: 'ada@example.com',
    address: wallet.chainId === 31337 ? SMART : OWNER,
    chainId: wallet.chainId,
    accounts:
      wallet.chainId === 31337
        ? [
            { address: SMART, type: 'smartAccount' },
            { address: OWNER, type: 'eoa' },
          ]
        : [{ address: OWNER, type: 'eoa' }],
    userName: null,
    socialProvider: null,
    preferredAccountType: wallet.chainId === 31337 ? 'smartAccount' : 'eoa',
    smartAccountDeployed: false,
  })
  const answers: Record<string, (params: { chainId?: number }) => unknown> = {
    connectEmail: () => ({ action: 'CONNECT' }),
    getUser: user,
    isConnected: () => ({ isConnected: true }),
    switchNetwork: ({ chainId }) => {
      wallet.chainId = chainId as number
      return { chainId }
    },
    signOut: () => {
      if (wallet.signOut === 'fails')
        throw new Error('The sign-out did not reach the server: your session may still be active')
      if (wallet.signOut === 'silent') return new Promise(() => {})
      return {}
    },
  }
  return {
    walletRequest: async (method: string, params: { chainId?: number }) => {
      wallet.calls.push(params?.chainId === undefined ? method : `${method} ${params.chainId}`)
      const answer = answers[method]
      if (!answer) throw new Error(`unexpected ${method}`)
      return answer(params)
    },
    onWalletChannel: (listener: (channel: unknown) => void) => wallet.listeners.push(listener),
    showWalletFrame: () => {},
    walletFrame: () => null,
    walletFrameStarted: () => false,
    whenHostConfigured: () => wallet.hostConfigured,
  }
})

vi.mock('../runtime.js', async (original) => ({
  ...(await original<typeof import('../runtime.js')>()),
  runtime: { hostOrigin: 'http://localhost:4000' },
}))

const Auth = await import('./auth.js')
const Network = await import('./network.js')
const { store, initialState } = await import('../store/store.js')

beforeEach(() => {
  wallet.chainId = 31337
  wallet.signOut = 'ok'
  wallet.listeners.length = 0
  wallet.calls.length = 0
  wallet.hostConfigured = Promise.resolve()
  store.setState(initialState())
  store.setState({
    config: {
      ...store.getState().config,
      networks: [resolveNetwork('eip155:31337')!, resolveNetwork('eip155:1')!],
    },
    activeNetworkId: 'eip155:31337',
  })
})

test('an embedded smart-account user who switches to a chain without smart accounts becomes the owner there, and back', async () => {
  await Auth.emailLogin('ada@example.com')
  expect(store.getState().connection).toMatchObject({
    status: 'connected',
    address: SMART,
    caipNetworkId: 'eip155:31337',
  })
  await Network.performSwitch(Network.findNetwork('eip155:1'))
  expect(store.getState().connection).toMatchObject({ address: OWNER, caipNetworkId: 'eip155:1' })
  expect(store.getState().authUser?.address).toBe(OWNER)
  await Network.performSwitch(Network.findNetwork('eip155:31337'))
  expect(store.getState().connection).toMatchObject({
    address: SMART,
    caipNetworkId: 'eip155:31337',
  })
})

test("an e-mail sign-in moves the wallet to the modal's network before the code is asked for (the sign-in reads the account there)", async () => {
  store.setState({ activeNetworkId: 'eip155:1' })
  await Auth.emailLogin('ada@example.com')
  expect(wallet.calls.slice(0, 2)).toEqual(['switchNetwork 1', 'connectEmail'])
  expect(store.getState().connection).toMatchObject({ address: OWNER, caipNetworkId: 'eip155:1' })
})

test("a code entry whose chunk cannot be fetched: 'Unable to load email login dependency' (-32002), and no code is sent", async () => {
  const { load } = Auth.emailLoginDependency
  Auth.emailLoginDependency.load = () =>
    Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
  try {
    await expect(Auth.emailLogin('ada@example.com')).rejects.toMatchObject({
      code: -32002,
      message: 'Unable to load email login dependency',
    })
    expect(wallet.calls).not.toContain('connectEmail')
    expect(store.getState().lastEmailLoginAt).toBeNull()
  } finally {
    Auth.emailLoginDependency.load = load
  }
})

test('a sign-out the wallet could not confirm with the API opens the modal on an alert with Try again; a confirmed retry clears it', async () => {
  await Auth.emailLogin('ada@example.com')
  store.setState({ open: false })
  wallet.signOut = 'fails'
  // The caller hears it too (Connection.disconnect turns it into 'Failed to disconnect').
  await expect(Auth.signOut()).rejects.toThrow(
    'Signed out on this device, but the sign-out did not reach the server',
  )
  expect(store.getState().authUser).toBeNull()
  expect(store.getState().alert).toMatchObject({
    message:
      'Signed out on this device, but the sign-out did not reach the server: your session may still be active there.',
    action: 'retrySignOut',
    fatal: false,
  })
  expect(store.getState().open).toBe(true)
  // Still failing: the alert stays.
  await Auth.retrySignOut()
  expect(store.getState().alert?.action).toBe('retrySignOut')
  wallet.signOut = 'ok'
  await Auth.retrySignOut()
  expect(store.getState().alert).toBeNull()
})

test('a wallet frame that does not answer the sign-out within 3 s is not taken as signed out at the server', async () => {
  vi.useFakeTimers()
  try {
    wallet.signOut = 'silent'
    const signingOut = Auth.signOut()
    const failed = expect(signingOut).rejects.toThrow('the sign-out did not reach the server')
    await vi.advanceTimersByTimeAsync(Auth.SIGN_OUT_WAIT_MS)
    await failed
    expect(store.getState().alert?.action).toBe('retrySignOut')
  } finally {
    vi.useRealTimers()
  }
})

test('a confirmed sign-out raises nothing', async () => {
  await Auth.emailLogin('ada@example.com')
  await Auth.signOut()
  expect(store.getState().alert).toBeNull()
  expect(store.getState().authUser).toBeNull()
})

/** A wallet frame channel: its events are emitted by the test; its requests are recorded. */
function walletChannel() {
  const handlers = new Map<string, (data: unknown) => void>()
  const requests: [string, Record<string, unknown>][] = []
  const channel = {
    on: (event: string, handler: (data: unknown) => void) => handlers.set(event, handler),
    request: async (method: string, params: Record<string, unknown>) => {
      requests.push([method, params])
      return {}
    },
  }
  for (const listener of wallet.listeners) listener(channel)
  return { emit: (event: string, data: unknown) => handlers.get(event)?.(data), requests }
}

test("a wallet frame made before the host's handshake is told the host's verified origin, networks and language only after it", async () => {
  wallet.hostConfigured = new Promise<void>((resolve) => {
    wallet.configured = resolve
  })
  Auth.watchWalletFrame()
  const frame = walletChannel()
  frame.emit('ready', { isConnected: true })
  await new Promise((resolve) => setTimeout(resolve, 10))
  expect(frame.requests).toEqual([])
  store.setState({ config: { ...store.getState().config, locale: 'de' } })
  wallet.configured()
  await vi.waitFor(() =>
    expect(frame.requests.map(([method]) => method)).toEqual(['syncTheme', 'syncDappData']),
  )
  expect(frame.requests[1]?.[1]).toMatchObject({
    hostOrigin: 'http://localhost:4000',
    locale: 'de',
    networks: [
      expect.objectContaining({ chainId: 31337 }),
      expect.objectContaining({ chainId: 1 }),
    ],
  })
})

test('a restored user whose key the wallet could not rebuild (userChanged null) is disconnected', async () => {
  Auth.watchWalletFrame()
  const frame = walletChannel()
  await Auth.emailLogin('ada@example.com')
  expect(store.getState().connection.status).toBe('connected')
  frame.emit('userChanged', { user: null })
  expect(store.getState().authUser).toBeNull()
  expect(store.getState().connection.status).toBe('disconnected')
})

test('a user the wallet changed (another active account) moves the connection, and the dapp with it', async () => {
  Auth.watchWalletFrame()
  const frame = walletChannel()
  await Auth.emailLogin('ada@example.com')
  expect(store.getState().connection.address).toBe(SMART)
  const user = store.getState().authUser
  frame.emit('userChanged', { user: { ...user, address: OWNER, preferredAccountType: 'eoa' } })
  expect(store.getState().authUser?.address).toBe(OWNER)
  expect(store.getState().connection).toMatchObject({ status: 'connected', address: OWNER })
})
