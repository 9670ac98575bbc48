/**
 * The dev wallets' shared parts: the approval step, the remembered permission and account,
 * the `standard:*` features and controls, and the registration in a page (with a fake window).
 */
import { afterEach, describe, expect, test, vi } from 'vitest'
import * as DevWalletKit from './devWalletKit.ts'

const NAME = 'Test Dev Wallet'
const STORE = 'test-dev-wallet'

/** Account `index` as the kit's caller would make it. */
const accountOf = (index: number): DevWalletKit.Account =>
  Object.freeze({
    address: `address-${index}`,
    publicKey: new Uint8Array([index]),
    chains: Object.freeze(['test:chain']),
    features: Object.freeze(['test:feature']),
    label: `Test account ${index}`,
  })

/** A kit with memory storage, and the wallet and controls it makes. */
function makeKit(
  options: Pick<DevWalletKit.CreateParameters, 'mode' | 'confirm'> = { mode: 'approve' },
  store = new Map<string, string>(),
) {
  const kit = DevWalletKit.create({
    ...options,
    name: NAME,
    storageKey: STORE,
    origin: 'http://localhost:4000',
    storage: { getItem: (key) => store.get(key) ?? null, setItem: (k, v) => store.set(k, v) },
    addressOf: (index) => `address-${index}`,
    accountsOf: (index) => [accountOf(index)],
  })
  const made = kit.make({
    iconSvg: '<svg/>',
    chains: ['test:chain'],
    features: { 'test:feature': { version: '1.0.0' as const } },
  })
  return { kit, store, ...made, features: made.wallet.features }
}

describe('approve', () => {
  test('approve mode allows and reject mode refuses with 4001, without asking', async () => {
    const confirm = vi.fn(() => true)
    await expect(
      DevWalletKit.approve({ mode: 'approve', name: NAME, what: 'Sign?', confirm }),
    ).resolves.toBeUndefined()
    await expect(
      DevWalletKit.approve({ mode: 'reject', name: NAME, what: 'Sign?', confirm }),
    ).rejects.toMatchObject({ code: 4001, message: 'User rejected the request.' })
    expect(confirm).not.toHaveBeenCalled()
  })

  test('prompt mode asks with the wallet name, a blank line and the request; a no is 4001', async () => {
    const confirm = vi.fn(async () => false)
    await expect(
      DevWalletKit.approve({ mode: 'prompt', name: NAME, what: 'Sign?', confirm }),
    ).rejects.toMatchObject({ code: 4001 })
    expect(confirm).toHaveBeenCalledWith('Test Dev Wallet\n\nSign?')
  })
})

describe('errors and storage', () => {
  test('errors carry their code; invalidParams is -32602', () => {
    const error = DevWalletKit.error(4100, 'Unauthorized')
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ code: 4100, message: 'Unauthorized' })
    expect(DevWalletKit.invalidParams('bad')).toMatchObject({ code: -32602, message: 'bad' })
  })

  test('readSaved reads the stored grant and account, and nothing as {}', () => {
    expect(DevWalletKit.readSaved('{"permitted":true,"account":2}')).toEqual({
      permitted: true,
      account: 2,
    })
    expect(DevWalletKit.readSaved(null)).toEqual({})
    expect(DevWalletKit.readSaved(undefined)).toEqual({})
  })
})

describe('create', () => {
  test('the wallet has the standard features beside its own, and no accounts before a grant', () => {
    const { wallet, kit } = makeKit()
    expect(wallet).toMatchObject({
      version: '1.0.0',
      name: NAME,
      icon: `data:image/svg+xml;base64,${btoa('<svg/>')}`,
      chains: ['test:chain'],
      accounts: [],
      features: {
        'standard:connect': { version: '1.0.0' },
        'standard:disconnect': { version: '1.0.0' },
        'standard:events': { version: '1.0.0' },
        'test:feature': { version: '1.0.0' },
      },
    })
    expect(() => kit.requirePermission()).toThrow(
      expect.objectContaining({ code: 4100, message: 'Unauthorized' }),
    )
  })

  test('connect asks once, names the page and address, and is remembered across a reload', async () => {
    const confirm = vi.fn(() => true)
    const store = new Map<string, string>()
    const { features, kit } = makeKit({ mode: 'prompt', confirm }, store)
    expect(await features['standard:connect'].connect({ silent: true })).toEqual({ accounts: [] })
    expect(confirm).not.toHaveBeenCalled()
    expect((await features['standard:connect'].connect()).accounts).toEqual([accountOf(0)])
    expect(confirm).toHaveBeenCalledWith(
      'Test Dev Wallet\n\nConnect http://localhost:4000 to address-0?',
    )
    expect(() => kit.requirePermission()).not.toThrow()
    expect(JSON.parse(store.get(STORE) ?? '')).toEqual({ permitted: true, account: 0 })

    const reloaded = makeKit({ mode: 'prompt', confirm }, store)
    expect(await reloaded.features['standard:connect'].connect({ silent: true })).toEqual({
      accounts: [accountOf(0)],
    })
    expect(confirm).toHaveBeenCalledTimes(1)
  })

  test('setMode changes how the next request is answered', async () => {
    const { features, controls } = makeKit({ mode: 'approve' })
    controls.setMode('reject')
    await expect(features['standard:connect'].connect()).rejects.toMatchObject({ code: 4001 })
    controls.setMode('approve')
    await expect(features['standard:connect'].connect()).resolves.toEqual({
      accounts: [accountOf(0)],
    })
  })

  test('change listeners hear grants, account switches and disconnects until they unsubscribe', async () => {
    const { features, controls, kit, store } = makeKit()
    const seen: string[][] = []
    const off = features['standard:events'].on('change', ({ accounts }) =>
      seen.push(accounts.map((a) => a.address)),
    )
    controls.switchAccount(1) // not granted yet: saved, not announced
    expect(kit.accountIndex).toBe(1)
    expect(controls.address).toBe('address-1')
    await features['standard:connect'].connect()
    controls.switchAccount(2)
    await features['standard:disconnect'].disconnect()
    controls.disconnect() // already disconnected: nothing to announce
    expect(seen).toEqual([['address-1'], ['address-2'], []])
    expect(JSON.parse(store.get(STORE) ?? '')).toEqual({ permitted: false, account: 2 })
    off()
    await features['standard:connect'].connect()
    expect(seen).toHaveLength(3)
  })

  test('sync applies another tab’s grant once, and ignores anything else', async () => {
    const { features, controls, wallet } = makeKit()
    const seen: number[] = []
    features['standard:events'].on('change', ({ accounts }) => seen.push(accounts.length))
    controls.sync(JSON.stringify({ permitted: false }))
    controls.sync(null)
    expect(wallet.accounts).toEqual([])
    controls.sync(JSON.stringify({ permitted: true, account: 0 }))
    controls.sync(JSON.stringify({ permitted: true, account: 0 }))
    expect(wallet.accounts).toEqual([accountOf(0)])
    expect(seen).toEqual([1])
  })
})

describe('install', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  /** A page: a window that is an event target, with memory `localStorage`. */
  function fakePage(config?: Record<string, unknown>) {
    const page = Object.assign(new EventTarget(), config ? { testDevWalletConfig: config } : {})
    const store = new Map<string, string>()
    vi.stubGlobal('window', page)
    vi.stubGlobal('document', {})
    vi.stubGlobal('location', { origin: 'http://localhost:4000' })
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => store.set(key, value),
    })
    vi.stubGlobal('addEventListener', page.addEventListener.bind(page))
    return page as EventTarget & Record<string, unknown>
  }

  const install = (
    create: DevWalletKit.InstallParameters<{ mode?: DevWalletKit.Mode }>['create'],
  ) =>
    DevWalletKit.install({
      configKey: 'testDevWalletConfig',
      controlsKey: 'testDevWallet',
      storageKey: STORE,
      create,
    })

  test('outside a page it does nothing', () => {
    const create = vi.fn()
    install(create)
    expect(create).not.toHaveBeenCalled()
  })

  test('makes the wallet from the page config, exposes its controls and registers it now and on app-ready', () => {
    const page = fakePage({ mode: 'reject' })
    const registered: unknown[] = []
    page.addEventListener('wallet-standard:register-wallet', (event) =>
      (event as CustomEvent<(api: { register(wallet: unknown): unknown }) => void>).detail({
        register: (wallet) => registered.push(wallet),
      }),
    )
    const controls = { sync: vi.fn() }
    const create = vi.fn(() => ({ wallet: 'the wallet', controls }))
    install(create)
    expect(create).toHaveBeenCalledWith({
      mode: 'reject',
      storage: localStorage,
      origin: 'http://localhost:4000',
    })
    expect(page.testDevWallet).toBe(controls)
    expect(registered).toEqual(['the wallet'])

    page.dispatchEvent(
      new CustomEvent('wallet-standard:app-ready', {
        detail: { register: (wallet: unknown) => registered.push(wallet) },
      }),
    )
    expect(registered).toEqual(['the wallet', 'the wallet'])
  })

  test('passes other tabs’ writes of its storage key to controls.sync', () => {
    const page = fakePage()
    const controls = { sync: vi.fn() }
    install(() => ({ wallet: {}, controls }))
    const storage = (key: string, newValue: string | null) =>
      page.dispatchEvent(Object.assign(new Event('storage'), { key, newValue }))
    storage('another-key', '{"permitted":true}')
    storage(STORE, null)
    storage(STORE, '{"permitted":true}')
    expect(controls.sync.mock.calls).toEqual([['{"permitted":true}']])
  })
})
