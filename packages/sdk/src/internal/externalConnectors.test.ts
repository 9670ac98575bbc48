/**
 * The host's own connectors (the `connectors` option, spec §3 type EXTERNAL) in sdk-chains.js
 * and sdk-calls.js: listed with the injected wallets, checked one by one, and reached by the
 * modal's and the dapp's calls; attacks from a hostile host page (names, images, ids, providers
 * that throw or answer what is not JSON).
 */
import type { PortholeState } from '@porthole/protocol/lite'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { ExternalConnector } from '../types.js'
import { createEmitter } from './emitter.js'
import { startChains } from './startChains.js'

vi.mock('./loadCalls.js', () => ({ loadCalls: vi.fn(() => import('../calls.js')) }))

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
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

/** A working EIP-1193 provider that records what it is asked. */
function fakeProvider(name = 'acme') {
  const provider = {
    request: vi.fn(async ({ method }: { method: string }) =>
      method === 'eth_requestAccounts' ? [ADDRESS] : `${name}:${method}`,
    ),
    on: vi.fn(() => provider),
    removeListener: vi.fn(() => provider),
  }
  return provider
}

function setup(connectors: unknown, state: Partial<PortholeState> = {}) {
  const target = new EventTarget()
  vi.stubGlobal('window', target)
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => setTimeout(callback, 16))
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
  const events = createEmitter()
  const current: PortholeState = { ...closed, ...state }
  const porthole = {
    getState: () => current,
    connect: vi.fn(),
    on(event: 'state', listener: (state: PortholeState) => void) {
      events.on(event, listener as never)
      return () => events.off(event, listener as never)
    },
  }
  const channel = { request: vi.fn(async () => 'from the modal'), emit: vi.fn() }
  const chains = startChains({
    porthole,
    ready: async () => channel as never,
    onChange: () => {},
    target,
    connectors: connectors as ExternalConnector[],
  })
  return { chains, channel, errors: () => errors.mock.calls.map((c) => c.join(' ')) }
}

const connected = (connectorId: string): Partial<PortholeState> => ({
  status: 'connected',
  connections: [
    {
      connectorId,
      namespace: 'eip155',
      address: ADDRESS,
      caipAddress: `eip155:31337:${ADDRESS}`,
      active: true,
    },
  ],
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('the host’s connectors', () => {
  test('are listed as external descriptors; the modal reaches each by uuid and the dapp by its id', async () => {
    const acme = fakeProvider('acme')
    const { chains } = setup([
      {
        id: 'acme',
        name: 'Acme Wallet',
        imageUrl: 'https://acme.example/logo.png',
        provider: acme,
      },
    ])
    expect(chains.list()).toEqual([
      {
        uuid: 'external:acme',
        name: 'Acme Wallet',
        icon: 'https://acme.example/logo.png',
        rdns: '',
        external: true,
      },
    ])
    expect(
      await chains.injectedRequest({ uuid: 'external:acme', method: 'eth_requestAccounts' }),
    ).toEqual([ADDRESS])
    // The modal's calls are limited to its methods, as on a browser wallet.
    await expect(
      chains.injectedRequest({ uuid: 'external:acme', method: 'eth_signTypedData_v4' }),
    ).rejects.toMatchObject({ code: 4200 })

    const dapp = setup([{ id: 'acme', name: 'Acme Wallet', provider: acme }], connected('acme'))
    expect(await dapp.chains.route('eip155', { method: 'personal_sign', params: ['0x68'] })).toBe(
      'acme:personal_sign',
    )
    expect(dapp.channel.request).not.toHaveBeenCalled()
  })

  test('a browser wallet keeps its connector id: a host connector named after its rdns does not take its calls', async () => {
    const { chains } = setup(
      [{ id: 'io.ext', name: 'Not the extension', provider: fakeProvider('host') }],
      connected('io.ext'),
    )
    const extension = { request: vi.fn(async () => 'extension'), on: vi.fn() }
    const info = { uuid: 'uuid-ext', name: 'Extension', icon: '', rdns: 'io.ext' }
    ;(globalThis.window as unknown as EventTarget).dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: { info, provider: extension } }),
    )
    expect(await chains.route('eip155', { method: 'eth_chainId' })).toBe('extension')
  })

  test('a hostile host page: an entry without an id or a provider, or that throws when read, is refused with a console error naming it; the others go to the modal, which checks names and images', async () => {
    const good = fakeProvider()
    const throwing = Object.defineProperty({ id: 'getter', provider: good }, 'name', {
      get() {
        throw new Error('boom')
      },
    })
    const list = [
      { id: 7, name: 'Number id', provider: good },
      { id: 'noprovider', name: 'No provider', provider: { request: 'nope' } },
      throwing,
      null,
      { id: 'bidi', name: 'Acme \u202Etellaw', imageUrl: 'javascript:alert(1)', provider: good },
      {
        id: 'big',
        name: 'Big image',
        imageUrl: `data:image/png;base64,${'A'.repeat(200_001)}`,
        provider: good,
      },
    ]
    const { chains, errors } = setup(list)
    // The modal refuses the bidi name and drops the script image (connectors/injected.test.ts).
    expect(chains.list().map((w) => [w.uuid, w.name, w.icon])).toEqual([
      ['external:bidi', 'Acme \u202Etellaw', 'javascript:alert(1)'],
      ['external:big', 'Big image', ''],
    ])
    const said = errors()
    for (const i of [0, 1, 2, 3])
      expect(said.some((line) => line.includes(`connectors[${i}] refused`))).toBe(true)
    expect(said).toHaveLength(4)
  })

  test('at most 8 are kept; a `connectors` that is not a list is ignored, and the wallets are still found', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      id: `w${i}`,
      name: `Wallet ${i}`,
      provider: fakeProvider(),
    }))
    expect(setup(many).chains.list()).toHaveLength(8)
    expect(setup({ id: 'acme', name: 'Acme', provider: fakeProvider() }).chains.list()).toEqual([])
    expect(setup('acme').chains.list()).toEqual([])
  })

  test('a provider whose `on` throws: its calls still run, and the other wallets are followed', async () => {
    const hostile = {
      request: vi.fn(async () => [ADDRESS]),
      on() {
        throw new Error('no events here')
      },
    }
    const acme = fakeProvider()
    const { chains } = setup([
      { id: 'hostile', name: 'Hostile', provider: hostile },
      { id: 'acme', name: 'Acme', provider: acme },
    ])
    expect(
      await chains.injectedRequest({ uuid: 'external:hostile', method: 'eth_requestAccounts' }),
    ).toEqual([ADDRESS])
    await tick()
    expect(acme.on).toHaveBeenCalledWith('accountsChanged', expect.any(Function))
  })

  test('whatever a provider throws or answers reaches the modal as plain JSON or a plain error', async () => {
    const circular: Record<string, unknown> = {}
    circular.self = circular
    const code = {}
    Object.defineProperty(code, 'code', {
      get() {
        throw new Error('gotcha')
      },
    })
    const answers: Record<string, () => unknown> = {
      eth_chainId: () => {
        throw 'a string' // thrown synchronously, not even an Error
      },
      eth_accounts: () => Promise.reject(code),
      eth_requestAccounts: () =>
        Promise.reject({ code: 4001, message: 'x'.repeat(5000), data: circular }),
      personal_sign: () => Promise.reject({ code: 4100, message: 'big', data: 'd'.repeat(20_000) }),
      eth_sendTransaction: () => Promise.resolve(circular),
      wallet_getCapabilities: () => Promise.resolve(undefined),
    }
    const provider = { request: ({ method }: { method: string }) => answers[method]?.() }
    const { chains } = setup([{ id: 'hostile', name: 'Hostile', provider }])
    const outcome = (method: string) =>
      chains.injectedRequest({ uuid: 'external:hostile', method }).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      )
    expect(await outcome('eth_chainId')).toEqual({
      error: { code: -32603, message: 'An error occurred' },
    })
    expect(await outcome('eth_accounts')).toEqual({
      error: { code: -32603, message: 'The wallet failed' },
    })
    expect(await outcome('eth_requestAccounts')).toEqual({
      error: { code: 4001, message: 'x'.repeat(2000) },
    })
    expect(await outcome('personal_sign')).toEqual({ error: { code: 4100, message: 'big' } })
    expect(await outcome('eth_sendTransaction')).toMatchObject({ error: { code: -32603 } })
    expect(await outcome('wallet_getCapabilities')).toEqual({ value: null })
  })
})
