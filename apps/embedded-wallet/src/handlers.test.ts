import {
  Channel,
  EmbeddedUser,
  fromContract,
  type ModalToWallet,
  ModalToWalletSchema,
  type WalletToModal,
  WalletToModalSchema,
} from '@porthole/protocol'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'

// The session and RPC modules talk to the API, IndexedDB and the signer Worker: the catalogue
// test replaces them at that edge and checks what the frame answers over a real channel.
vi.mock('./session.js', () => ({
  user: vi.fn(),
  refreshUser: vi.fn(async () => {}),
  noteNamed: vi.fn(),
  onWalletNamed: vi.fn(),
  setChainId: vi.fn(),
  chainId: vi.fn(() => 31337),
  connectEmail: vi.fn(),
  connectDevice: vi.fn(),
  connectOtp: vi.fn(),
  connectSocial: vi.fn(),
  socialRedirectUri: vi.fn(),
  farcasterUri: vi.fn(),
  connectFarcaster: vi.fn(),
  signOut: vi.fn(async () => {}),
  updateEmail: vi.fn(),
  updateEmailPrimaryOtp: vi.fn(),
  updateEmailSecondaryOtp: vi.fn(),
  recovery: vi.fn(),
  setupPasskey: vi.fn(),
  exportKey: vi.fn(),
  devices: vi.fn(),
  removeDevice: vi.fn(),
  setSite: vi.fn(),
}))
// The signer Worker (started by a sign-in's warm-up) needs a browser.
vi.mock('./signer.js', () => ({
  signer: {},
  startSigner: vi.fn(() => ({ prepare: async () => {} })),
}))
vi.mock('./rpc.js', () => ({
  handleRpc: vi.fn(),
  abortPending: vi.fn(() => []),
  hasPending: vi.fn(() => false),
  setDappOrigin: vi.fn(),
  setNetworks: vi.fn(),
}))
// The smart account reads the chain (tested against anvil in smartAccount.test.ts).
const smart = vi.hoisted(() => ({ listeners: [] as (() => void)[] }))
vi.mock('./smartAccount.js', () => ({
  describeUser: vi.fn(async (user: unknown) => user),
  enabledNetworks: vi.fn(() => [31337, 31338]),
  isEnabled: vi.fn((chainId: number) => chainId === 31337 || chainId === 31338),
  isDeployed: vi.fn(async () => false),
  setPreferredType: vi.fn(),
  activeAccount: vi.fn(),
  onChange: vi.fn((listener: () => void) => {
    smart.listeners.push(listener)
    return () => {}
  }),
  reset: vi.fn(),
}))

const Session = await import('./session.js')
const Rpc = await import('./rpc.js')
const SmartAccount = await import('./smartAccount.js')
const { createHandlers } = await import('./handlers.js')

const SMART = '0x2222222222222222222222222222222222222222' as const
const EOA = '0x1111111111111111111111111111111111111111' as const

const USER: EmbeddedUser = {
  email: 'ada@example.com',
  address: '0x1111111111111111111111111111111111111111',
  chainId: 31337,
  accounts: [{ address: '0x1111111111111111111111111111111111111111', type: 'eoa' }],
  userName: null,
  socialProvider: null,
  preferredAccountType: 'eoa',
  smartAccountDeployed: false,
}

type Method = keyof ModalToWallet['requests']
const METHODS = Object.keys(ModalToWalletSchema.requests) as Method[]

/** Valid params for every request of the catalogue. */
const PARAMS: { [M in Method]: ModalToWallet['requests'][M]['params'] } = {
  switchNetwork: { chainId: 31338 },
  connectEmail: { email: 'ada@example.com' },
  connectDevice: {},
  connectOtp: { otp: '123456' },
  connectSocial: { uri: 'http://wallet.localhost:4200/social-callback.html?result=abc' },
  getSocialRedirectUri: { provider: 'github' },
  getFarcasterUri: {},
  connectFarcaster: {},
  getUser: {},
  signOut: {},
  isConnected: {},
  getChainId: {},
  rpcRequest: { method: 'eth_blockNumber', params: [] },
  updateEmail: { email: 'new@example.com' },
  updateEmailPrimaryOtp: { otp: '123456' },
  updateEmailSecondaryOtp: { otp: '654321' },
  syncTheme: { themeMode: 'dark', themeVariables: { '--w3m-accent': '#f00', 'not-a-var': 1 } },
  syncDappData: {
    // The host's own claim, and the origin the modal's handshake verified.
    metadata: { name: 'Demo', description: '', url: 'https://trusted-bank.example', icons: [] },
    hostOrigin: 'http://localhost:4000',
    sdkVersion: '0.1.0',
    sdkType: 'porthole',
    projectId: 'porthole-demo',
  },
  getSmartAccountEnabledNetworks: {},
  initSmartAccount: {},
  setPreferredAccount: { type: 'eoa' },
  reload: {},
  rpcAbort: {},
  getRecovery: {},
  setupPasskey: {},
  exportKey: {},
  getDevices: { seen: true },
  removeDevice: { id: 'AAAAAAAAAAAAAAAAAAAAAA' },
}

/** The failure each request gives when the session is missing or the services refuse. */
const FAILURES: Record<Method, RegExp> = {
  switchNetwork: /Invalid params for switchNetwork/,
  connectEmail: /Please try again after 12 seconds/,
  connectDevice: /Embedded Wallet Request Timed Out/,
  connectOtp: /Invalid code/,
  connectSocial: /Social login failed/,
  getSocialRedirectUri: /not configured/,
  getFarcasterUri: /Failed to connect to farcaster/,
  connectFarcaster: /Request was aborted/,
  getUser: /Not connected to email or social/,
  signOut: /Network down/,
  isConnected: /unreachable/,
  getChainId: /unreachable/,
  rpcRequest: /Requested RPC call is not allowed/,
  updateEmail: /Not connected to email or social/,
  updateEmailPrimaryOtp: /Invalid code/,
  updateEmailSecondaryOtp: /Invalid code/,
  syncTheme: /Invalid params|invalid/i,
  syncDappData: /Invalid params|invalid/i,
  getSmartAccountEnabledNetworks: /Invalid params|invalid/i,
  initSmartAccount: /Not connected to email or social/,
  setPreferredAccount: /Smart accounts are not enabled on this network/,
  reload: /Invalid params|invalid/i,
  rpcAbort: /Invalid params|invalid/i,
  getRecovery: /Not connected to email or social/,
  setupPasskey: /User rejected the request/,
  exportKey: /Sign in again to export your key/,
  getDevices: /Not connected to email or social/,
  removeDevice: /The key shares must be signed by the wallet's own key/,
}

const reload = vi.fn()
const setLocale = vi.fn()
const events: [string, unknown][] = []
const root = { dataset: {} as DOMStringMap, style: { setProperty: vi.fn() } }
const channels: { close(): void }[] = []

function connect() {
  const { port1, port2 } = new MessageChannel()
  const wallet = Channel.create({
    port: port2,
    validator: fromContract(ModalToWalletSchema),
    handlers: createHandlers({
      walletOrigin: 'http://wallet.localhost:4200',
      emit: (event, data) => events.push([event, data]),
      root,
      reload,
      setLocale,
    }),
  })
  const modal = Channel.create<ModalToWallet, WalletToModal>({
    port: port1,
    validator: fromContract(WalletToModalSchema),
  })
  channels.push(wallet, modal)
  return modal
}

beforeEach(() => {
  vi.mocked(Session.user).mockReturnValue(USER)
  vi.mocked(Session.connectEmail).mockResolvedValue('VERIFY_OTP')
  vi.mocked(Session.connectDevice).mockResolvedValue()
  vi.mocked(Session.connectOtp).mockResolvedValue(null)
  vi.mocked(Session.connectSocial).mockResolvedValue(null)
  vi.mocked(Session.recovery).mockReturnValue({ policy: 'automatic', kind: 'automatic' })
  vi.mocked(Session.setupPasskey).mockResolvedValue('passkey')
  vi.mocked(Session.exportKey).mockResolvedValue()
  vi.mocked(Session.devices).mockResolvedValue([
    {
      id: 'AAAAAAAAAAAAAAAAAAAAAA',
      kind: 'recovered',
      site: 'http://localhost:4000',
      label: 'Firefox 140 on Windows',
      custody: null,
      createdAt: 1,
      lastSeenAt: 2,
      current: false,
      isNew: true,
    },
  ])
  vi.mocked(Session.removeDevice).mockResolvedValue()
  vi.mocked(Session.socialRedirectUri).mockResolvedValue('http://127.0.0.1:4600/github/auth?x=1')
  vi.mocked(Session.farcasterUri).mockResolvedValue(
    'farcaster://connect?channelToken=c1&nonce=abcdef0123456789&siweUri=http%3A%2F%2Fwallet.localhost%3A4200%2F&domain=wallet.localhost%3A4200',
  )
  vi.mocked(Session.connectFarcaster).mockResolvedValue(null)
  vi.mocked(Session.updateEmail).mockResolvedValue('VERIFY_PRIMARY_OTP')
  vi.mocked(Session.updateEmailPrimaryOtp).mockResolvedValue('VERIFY_SECONDARY_OTP')
  vi.mocked(Session.updateEmailSecondaryOtp).mockResolvedValue('new@example.com')
  vi.mocked(Rpc.handleRpc).mockResolvedValue('0x10')
  vi.mocked(Session.signOut).mockResolvedValue()
  vi.mocked(Session.chainId).mockReturnValue(31337)
  vi.mocked(SmartAccount.isEnabled).mockImplementation((id) => id === 31337 || id === 31338)
  vi.mocked(SmartAccount.isDeployed).mockResolvedValue(false)
  vi.mocked(SmartAccount.describeUser).mockImplementation(async (user) => user)
  vi.mocked(SmartAccount.activeAccount).mockImplementation(async () =>
    vi.mocked(SmartAccount.setPreferredType).mock.lastCall?.[0] === 'smartAccount'
      ? { type: 'smartAccount', address: SMART }
      : { type: 'eoa', address: EOA },
  )
})
afterEach(() => {
  for (const channel of channels.splice(0)) channel.close()
  events.length = 0
  smart.listeners.length = 0
  vi.clearAllMocks()
})

describe('the frame catalogue', () => {
  test('the test tables name every request of the contract', () => {
    expect(Object.keys(PARAMS).sort()).toEqual([...METHODS].sort())
    expect(Object.keys(FAILURES).sort()).toEqual([...METHODS].sort())
  })

  test.each(METHODS)('%s answers with a result its schema accepts', async (method) => {
    const modal = connect()
    const result = await modal.request(method, PARAMS[method] as never)
    expect(() => ModalToWalletSchema.requests[method].result.parse(result)).not.toThrow()
  })

  test.each(METHODS)('%s answers with an error on the same request', async (method) => {
    const modal = connect()
    // Signed out, and every service refusing in its own way.
    vi.mocked(Session.user).mockReturnValue(null)
    vi.mocked(Session.chainId).mockImplementation(() => {
      throw new Error('unreachable')
    })
    vi.mocked(Session.connectEmail).mockRejectedValue(
      new Error('Please try again after 12 seconds'),
    )
    vi.mocked(Session.connectDevice).mockRejectedValue(
      new Error('Embedded Wallet Request Timed Out'),
    )
    vi.mocked(Session.connectOtp).mockRejectedValue(new Error('Invalid code'))
    vi.mocked(Session.connectSocial).mockRejectedValue(new Error('Social login failed'))
    vi.mocked(Session.socialRedirectUri).mockRejectedValue(new Error('github is not configured'))
    vi.mocked(Session.farcasterUri).mockRejectedValue(new Error('Failed to connect to farcaster'))
    vi.mocked(Session.connectFarcaster).mockRejectedValue(new Error('Request was aborted'))
    vi.mocked(Session.signOut).mockRejectedValue(new Error('Network down'))
    vi.mocked(Session.updateEmail).mockRejectedValue(new Error('Not connected to email or social'))
    vi.mocked(Session.updateEmailPrimaryOtp).mockRejectedValue(new Error('Invalid code'))
    vi.mocked(Session.updateEmailSecondaryOtp).mockRejectedValue(new Error('Invalid code'))
    vi.mocked(Rpc.handleRpc).mockRejectedValue(new Error('Requested RPC call is not allowed'))
    vi.mocked(Session.recovery).mockImplementation(() => {
      throw new Error('Not connected to email or social')
    })
    vi.mocked(Session.setupPasskey).mockRejectedValue(new Error('User rejected the request.'))
    vi.mocked(Session.exportKey).mockRejectedValue(
      new Error('Sign in again to export your key (the sign-in is too old)'),
    )
    vi.mocked(Session.devices).mockRejectedValue(new Error('Not connected to email or social'))
    vi.mocked(Session.removeDevice).mockRejectedValue(
      new Error("The key shares must be signed by the wallet's own key"),
    )
    // Signed in, but on a network without smart accounts.
    if (method === 'setPreferredAccount') vi.mocked(Session.user).mockReturnValue(USER)
    vi.mocked(SmartAccount.isEnabled).mockReturnValue(false)
    const bad: Partial<Record<Method, unknown>> = {
      switchNetwork: { chainId: 0 },
      setPreferredAccount: { type: 'smartAccount' },
      isConnected: {},
      // Requests that cannot fail on their own get params the contract refuses.
      syncTheme: { themeMode: 'sepia' },
      syncDappData: { metadata: {} },
      getSmartAccountEnabledNetworks: 'x',
      reload: 'x',
      rpcAbort: 'x',
    }
    if (method === 'setPreferredAccount') vi.mocked(Session.chainId).mockReturnValue(7)
    if (method === 'isConnected')
      vi.mocked(Session.user).mockImplementation(() => {
        throw new Error('unreachable')
      })
    const params = method in bad ? bad[method] : PARAMS[method]
    await expect(modal.request(method, params as never)).rejects.toThrow(FAILURES[method])
    // The channel stays usable after an error.
    vi.mocked(Session.user).mockReturnValue(USER)
    vi.mocked(Session.chainId).mockReturnValue(31337)
    expect(await modal.request('getChainId', {})).toEqual({ chainId: 31337 })
  })

  test('a sign-in that needs a device step says VERIFY_DEVICE with the step; connectDevice shows the frame around it', async () => {
    const modal = connect()
    vi.mocked(Session.connectOtp).mockResolvedValue('email')
    expect(await modal.request('connectOtp', { otp: '123456' })).toEqual({
      action: 'VERIFY_DEVICE',
      method: 'email',
    })
    vi.mocked(Session.connectSocial).mockResolvedValue('passkey')
    expect(await modal.request('connectSocial', PARAMS.connectSocial)).toEqual({
      action: 'VERIFY_DEVICE',
      method: 'passkey',
    })
    vi.mocked(Session.connectSocial).mockResolvedValue(null)
    expect(await modal.request('connectSocial', PARAMS.connectSocial)).toEqual(USER)
    vi.mocked(Session.connectDevice).mockImplementation(async (_signal, ui) => {
      ui.show('passkey')
      ui.hide()
    })
    await modal.request('connectDevice', {})
    expect(events).toEqual([
      ['approvalRequested', { method: 'passkey' }],
      ['approvalDone', { approved: true }],
    ])
  })

  test('a network switch while a request waits for approval refuses it (4001), never re-targets it', async () => {
    const modal = connect()
    vi.mocked(Rpc.hasPending).mockReturnValue(true)
    await modal.request('switchNetwork', { chainId: 31338 })
    expect(Rpc.abortPending).toHaveBeenCalledWith(
      'The network changed while the request waited for approval',
    )
    vi.mocked(Rpc.abortPending).mockClear()
    // The same network again changes nothing: the request stays.
    vi.mocked(Session.chainId).mockReturnValue(31338)
    await modal.request('switchNetwork', { chainId: 31338 })
    expect(Rpc.abortPending).not.toHaveBeenCalled()
  })

  test('getUser with a chain id moves the wallet there first (one round trip), with the same guard as switchNetwork', async () => {
    const modal = connect()
    vi.mocked(Session.setChainId).mockClear()
    // What getUser answers is not under test here (the mocked session may refuse it); the
    // chain switch before it is.
    await modal.request('getUser', { chainId: 31338 }).catch(() => {})
    expect(Session.setChainId).toHaveBeenCalledWith(31338)
    vi.mocked(Rpc.hasPending).mockReturnValue(true)
    await modal.request('getUser', { chainId: 'eip155:5' }).catch(() => {})
    expect(Rpc.abortPending).toHaveBeenCalledWith(
      'The network changed while the request waited for approval',
    )
    await expect(modal.request('getUser', { chainId: 'eip155:x' })).rejects.toThrow(
      'Invalid chainId',
    )
  })

  test('a Solana request reaches the RPC handler with its namespace and network', async () => {
    const modal = connect()
    vi.mocked(Rpc.handleRpc).mockResolvedValue({
      signature: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnb',
    })
    const params = { message: '3yZe7d', pubkey: '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys' }
    await modal.request('rpcRequest', {
      method: 'solana_signMessage',
      params,
      namespace: 'solana',
      chainId: 'DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P',
    })
    expect(vi.mocked(Rpc.handleRpc).mock.calls[0]?.[0]).toEqual({
      id: expect.any(String),
      method: 'solana_signMessage',
      params,
      namespace: 'solana',
      chainId: 'DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P',
    })
    // Without a namespace, as older modals send it: eip155, nothing added.
    await modal.request('rpcRequest', { method: 'eth_blockNumber', params: [] })
    expect(vi.mocked(Rpc.handleRpc).mock.calls[1]?.[0]).toEqual({
      id: expect.any(String),
      method: 'eth_blockNumber',
      params: [],
    })
    await expect(
      modal.request('rpcRequest', { method: 'x', namespace: 'bip122' } as never),
    ).rejects.toThrow(/Invalid params/)
  })

  test('the user carries the Solana address; a user without one (an older frame) still validates', async () => {
    const modal = connect()
    const solanaAddress = '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys'
    vi.mocked(Session.user).mockReturnValue({ ...USER, solanaAddress })
    expect(await modal.request('getUser', {})).toEqual({ ...USER, solanaAddress })
    expect(EmbeddedUser.safeParse(USER).success).toBe(true)
    for (const bad of ['0x1111111111111111111111111111111111111111', 'O0Il'.repeat(10), 'short'])
      expect(EmbeddedUser.safeParse({ ...USER, solanaAddress: bad }).success).toBe(false)
  })

  test('farcaster: the link for the QR code, then the signed-in user (or the device step first), as social', async () => {
    const modal = connect()
    const { url } = await modal.request('getFarcasterUri', {})
    expect(url).toMatch(/^farcaster:\/\/connect\?channelToken=/)
    const farcasterUser: EmbeddedUser = {
      ...USER,
      email: null,
      userName: 'ada',
      socialProvider: 'farcaster',
    }
    vi.mocked(Session.user).mockReturnValue(farcasterUser)
    expect(await modal.request('connectFarcaster', {})).toEqual(farcasterUser)
    vi.mocked(Session.connectFarcaster).mockResolvedValue('passkey')
    expect(await modal.request('connectFarcaster', {})).toEqual({
      action: 'VERIFY_DEVICE',
      method: 'passkey',
    })
  })

  test('farcaster: cancelling the wait reaches the session as an abort', async () => {
    const modal = connect()
    let seen: AbortSignal | undefined
    vi.mocked(Session.connectFarcaster).mockImplementation(
      (signal) =>
        new Promise((_resolve, reject) => {
          seen = signal
          signal.addEventListener('abort', () => reject(new Error('Request was aborted')))
        }),
    )
    const controller = new AbortController()
    const waiting = modal.request('connectFarcaster', {}, { signal: controller.signal })
    await vi.waitFor(() => expect(seen).toBeDefined())
    controller.abort()
    await expect(waiting).rejects.toThrow()
    await vi.waitFor(() => expect(seen?.aborted).toBe(true))
  })

  test("side effects: chain set, the theme's mode applied and its variables not (the cards keep the wallet's type and colours), dapp origin kept, approval events around RPC", async () => {
    const modal = connect()
    await modal.request('switchNetwork', { chainId: 'eip155:31338' })
    expect(Session.setChainId).toHaveBeenCalledWith(31338)
    await modal.request('syncTheme', PARAMS.syncTheme)
    expect(root.dataset.theme).toBe('dark')
    expect(root.style.setProperty).not.toHaveBeenCalled()
    await modal.request('syncDappData', PARAMS.syncDappData)
    expect(Rpc.setDappOrigin).toHaveBeenCalledWith('http://localhost:4000')
    expect(Session.setSite).toHaveBeenCalledWith('http://localhost:4000')
    // The modal's language (a frame made before the host's handshake has none in its URL); a
    // locale outside the list is refused with the request.
    expect(setLocale).not.toHaveBeenCalled()
    await modal.request('syncDappData', { ...PARAMS.syncDappData, locale: 'de' })
    expect(setLocale).toHaveBeenCalledWith('de')
    await expect(
      modal.request('syncDappData', { ...PARAMS.syncDappData, locale: 'xx' as never }),
    ).rejects.toThrow(/Invalid params/)
    expect(setLocale).toHaveBeenCalledTimes(1)
    vi.mocked(Rpc.handleRpc).mockImplementation(async (_request, onApproval) => {
      onApproval('personal_sign')
      return '0xsig'
    })
    expect(await modal.request('rpcRequest', { method: 'personal_sign', params: [] })).toBe('0xsig')
    expect(events.map(([name]) => name)).toEqual(['approvalRequested', 'approvalDone'])
    await modal.request('reload', {})
    await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce())
  })
})

describe('smart accounts in the frame', () => {
  test('the enabled networks are the smart-account networks; initSmartAccount answers the deployment on the current chain', async () => {
    const modal = connect()
    expect(await modal.request('getSmartAccountEnabledNetworks', {})).toEqual({
      smartAccountEnabledNetworks: [31337, 31338],
    })
    vi.mocked(SmartAccount.isDeployed).mockResolvedValue(true)
    expect(await modal.request('initSmartAccount', {})).toEqual({ isDeployed: true })
    expect(SmartAccount.isDeployed).toHaveBeenCalledWith(31337)
    // The chain unreachable: not deployed, as far as the frame can tell.
    vi.mocked(SmartAccount.isDeployed).mockRejectedValue(new Error('down'))
    expect(await modal.request('initSmartAccount', {})).toEqual({ isDeployed: false })
  })

  test('setPreferredAccount toggles between the accounts and answers the one now active', async () => {
    const modal = connect()
    expect(await modal.request('setPreferredAccount', { type: 'smartAccount' })).toEqual({
      type: 'smartAccount',
      address: SMART,
    })
    expect(SmartAccount.setPreferredType).toHaveBeenLastCalledWith('smartAccount')
    expect(await modal.request('setPreferredAccount', { type: 'eoa' })).toEqual({
      type: 'eoa',
      address: USER.address,
    })
    // The factory does not answer on this chain: the smart account is not there to switch to.
    vi.mocked(SmartAccount.activeAccount).mockResolvedValue({ type: 'eoa', address: EOA })
    await expect(modal.request('setPreferredAccount', { type: 'smartAccount' })).rejects.toThrow(
      'The smart account is not available on this network',
    )
  })

  test('getUser takes the modal’s preferred type and answers the user with both accounts', async () => {
    const modal = connect()
    const described = {
      ...USER,
      address: SMART,
      accounts: [...USER.accounts, { address: SMART, type: 'smartAccount' as const }],
      preferredAccountType: 'smartAccount' as const,
    }
    vi.mocked(SmartAccount.describeUser).mockResolvedValue(described)
    expect(await modal.request('getUser', { preferredAccountType: 'smartAccount' })).toEqual(
      described,
    )
    expect(SmartAccount.setPreferredType).toHaveBeenCalledWith('smartAccount')
    vi.mocked(SmartAccount.setPreferredType).mockClear()
    await modal.request('getUser', {})
    expect(SmartAccount.setPreferredType).not.toHaveBeenCalled()
  })

  test('when the smart account deploys, the modal gets userChanged with the fresh user', async () => {
    const modal = connect()
    // The account can change only once its module loaded (the first getUser loads it).
    await modal.request('getUser', {})
    const deployed = { ...USER, smartAccountDeployed: true }
    vi.mocked(SmartAccount.describeUser).mockResolvedValue(deployed)
    for (const listener of smart.listeners) listener()
    await vi.waitFor(() => expect(events).toContainEqual(['userChanged', { user: deployed }]))
  })

  test('the frame hides once the card is answered, while the request still runs (a receipt to wait for)', async () => {
    const modal = connect()
    let finish: (value: unknown) => void = () => {}
    vi.mocked(Rpc.handleRpc).mockImplementation(
      (_request, onApproval, _signal, onAnswered) =>
        new Promise((resolve) => {
          onApproval('eth_sendTransaction')
          onAnswered?.()
          finish = resolve
        }),
    )
    const sent = modal.request('rpcRequest', { method: 'eth_sendTransaction', params: [] })
    await vi.waitFor(() =>
      expect(events.map(([name]) => name)).toEqual(['approvalRequested', 'approvalDone']),
    )
    finish('0xhash')
    expect(await sent).toBe('0xhash')
    // Hidden once, not again when the request settles.
    expect(events.map(([name]) => name)).toEqual(['approvalRequested', 'approvalDone'])
  })

  test('signing out forgets the smart accounts', async () => {
    const modal = connect()
    await modal.request('signOut', {})
    expect(SmartAccount.reset).toHaveBeenCalled()
  })
})
