import type { PortholeState } from '@porthole/protocol/lite'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createEmitter } from './emitter.js'
import { fakeSolanaWallet } from './fakeStandardWallet.js'
import { loadCalls } from './loadCalls.js'
import { startChains } from './startChains.js'

// The real module, counted: what matters is when sdk-calls.js would be fetched.
vi.mock('./loadCalls.js', () => ({ loadCalls: vi.fn(() => import('../calls.js')) }))
const loads = vi.mocked(loadCalls)

const closed: PortholeState = {
  open: false,
  status: 'disconnected',
  address: null,
  caipAddress: null,
  caipNetworkId: 'eip155:31337',
  chainId: 31337,
  connector: null,
  view: null,
  error: null,
  connections: [],
  session: null,
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

/** An EIP-6963 wallet that announces itself on every request, like a browser extension. */
function installExtensionWallet(target: EventTarget) {
  const provider = { request: vi.fn(async () => '0x7a69'), on: vi.fn() }
  const info = {
    uuid: 'uuid-ext',
    name: 'Extension',
    icon: 'data:image/svg+xml,<svg/>',
    rdns: 'io.ext',
  }
  const announce = () =>
    target.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    )
  target.addEventListener('eip6963:requestProvider', announce)
  announce()
  return provider
}

function setup(state: Partial<PortholeState> = {}) {
  const target = new EventTarget()
  vi.stubGlobal('window', target)
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => setTimeout(callback, 16))
  const provider = installExtensionWallet(target)
  const events = createEmitter()
  let current: PortholeState = { ...closed, ...state }
  const porthole = {
    getState: () => current,
    connect: vi.fn(),
    on(event: 'state', listener: (state: PortholeState) => void) {
      events.on(event, listener as never)
      return () => events.off(event, listener as never)
    },
  }
  const onChange = vi.fn()
  const channel = { request: vi.fn(async () => null), emit: vi.fn() }
  const chains = startChains({ porthole, ready: async () => channel as never, onChange, target })
  const setState = (next: Partial<PortholeState>) => {
    current = { ...current, ...next }
    events.emit('state', current)
  }
  return { chains, onChange, provider, setState, target }
}

beforeEach(() => loads.mockClear())
afterEach(() => vi.unstubAllGlobals())

describe('startChains (sdk-chains.js)', () => {
  test('lists an extension wallet and a Solana wallet without loading sdk-calls.js', async () => {
    const { chains, onChange, target } = setup()
    target.dispatchEvent(
      new CustomEvent('wallet-standard:register-wallet', {
        detail: ({ register }: { register(w: unknown): void }) =>
          register(fakeSolanaWallet('Sol Wallet')),
      }),
    )
    await tick()
    expect(chains.list().map((w) => w.name)).toEqual(['Extension', 'Sol Wallet'])
    expect(onChange).toHaveBeenCalled()
    expect(loads).not.toHaveBeenCalled()
  })

  test('the visitor’s click (the modal opens) loads the calls once, after the frame it shows and before a wallet is picked', async () => {
    const { chains, provider, setState } = setup()
    expect(loads).not.toHaveBeenCalled()
    setState({ open: true })
    setState({ view: 'Connect' })
    // Not in the click's own task: the first frame after it comes first.
    expect(loads).not.toHaveBeenCalled()
    await new Promise((resolve) => setTimeout(resolve, 40))
    expect(loads).toHaveBeenCalledTimes(1)
    setState({ open: false })
    setState({ open: true })
    await new Promise((resolve) => setTimeout(resolve, 40))
    // The modal's call on the extension wallet runs on the loaded calls.
    expect(await chains.injectedRequest({ uuid: 'uuid-ext', method: 'eth_chainId' })).toBe('0x7a69')
    expect(provider.request).toHaveBeenCalledWith({ method: 'eth_chainId' })
    expect(loads).toHaveBeenCalledTimes(1)
  })

  test('a dapp call before any click loads them (and is answered)', async () => {
    const { chains } = setup()
    expect(await chains.route('eip155', { method: 'eth_accounts' })).toEqual([])
    expect(loads).toHaveBeenCalledTimes(1)
  })

  test('a restored connection to an injected wallet loads them at start, to follow its events', async () => {
    const { provider } = setup({
      status: 'connected',
      connections: [
        {
          connectorId: 'io.ext',
          namespace: 'eip155',
          address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
          caipAddress: 'eip155:31337:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
          active: true,
        },
      ],
    })
    expect(loads).toHaveBeenCalledTimes(1)
    await tick()
    expect(provider.on).toHaveBeenCalledWith('accountsChanged', expect.any(Function))
  })

  test('a connection through WalletConnect loads nothing', () => {
    setup({
      connections: [
        {
          connectorId: 'walletConnect',
          namespace: 'eip155',
          address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
          caipAddress: 'eip155:1:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
          active: true,
        },
      ],
    })
    expect(loads).not.toHaveBeenCalled()
  })

  test('a failed load is not kept: the next call loads again', async () => {
    const { chains } = setup()
    loads.mockRejectedValueOnce(new Error('offline'))
    await expect(chains.route('eip155', { method: 'eth_accounts' })).rejects.toThrow('offline')
    expect(await chains.route('eip155', { method: 'eth_accounts' })).toEqual([])
    expect(loads).toHaveBeenCalledTimes(2)
  })
})
