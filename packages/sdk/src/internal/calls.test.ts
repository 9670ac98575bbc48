import type { PortholeState } from '@porthole/protocol/lite'
import { describe, expect, test, vi } from 'vitest'
import type { EIP1193Provider, ProviderNamespace } from '../types.js'
import { type CallsHost, createCalls } from './calls.js'
import { base58Encode } from './encoding.js'
import { fakeSignature, fakeSolanaWallet } from './fakeStandardWallet.js'
import type { InjectedWallet } from './injected.js'
import { discoverStandardWallets } from './walletStandard.js'

const EVM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const SOL = 'SoLAddress1'
const SOLANA_CHAIN = 'solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P'

const disconnected: PortholeState = {
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

type Connection = PortholeState['connections'][number]
const evmConnection = (connectorId: string, active = true): Connection => ({
  connectorId,
  namespace: 'eip155',
  address: EVM,
  caipAddress: `eip155:8453:${EVM}`,
  active,
})
const solanaConnection = (connectorId: string, active = true): Connection => ({
  connectorId,
  namespace: 'solana',
  address: SOL,
  caipAddress: `${SOLANA_CHAIN}:${SOL}`,
  active,
})

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A fake EIP-1193 wallet that records requests and can emit events. */
function fakeEvmWallet(rdns = 'io.metamask') {
  const listeners = new Map<string, (data: unknown) => void>()
  const provider = {
    request: vi.fn(async ({ method }: { method: string }) => `${rdns}:${method}`),
    on: vi.fn((event: string, listener: (data: unknown) => void) => {
      listeners.set(event, listener)
      return provider
    }),
    removeListener: vi.fn(),
  }
  const wallet: InjectedWallet = {
    info: { uuid: `uuid-${rdns}`, name: rdns, icon: '', rdns },
    provider: provider as unknown as EIP1193Provider,
  }
  return { wallet, provider, listeners }
}

function setup(state: Partial<PortholeState> = {}, evmWallets: InjectedWallet[] = []) {
  const target = new EventTarget()
  let current: PortholeState = { ...disconnected, ...state }
  const channel = { request: vi.fn(async () => 'from the modal'), emit: vi.fn() }
  const connect = vi.fn(async ({ namespace }: { namespace?: ProviderNamespace } = {}) => {
    const address = namespace === 'solana' ? SOL : EVM
    return { address, caipAddress: `x:y:${address}`, chainId: 1, caipNetworkId: 'x:y' }
  })
  const host: CallsHost = {
    porthole: { getState: () => current, connect },
    evm: {
      get: (id) => evmWallets.find((w) => w.info.uuid === id || w.info.rdns === id),
      list: () => evmWallets.map((w) => w.info),
    },
    standard: discoverStandardWallets({ onChange: () => calls.follow(), target }),
    ready: async () => channel as never,
  }
  const calls = createCalls(host)
  /** Registers a Solana wallet the Wallet Standard way (found at start, in sdk-chains.js). */
  const addSolanaWallet = async (wallet = fakeSolanaWallet('Porthole Solana Dev Wallet')) => {
    target.dispatchEvent(
      new CustomEvent('wallet-standard:register-wallet', {
        detail: ({ register }: { register(w: unknown): void }) => register(wallet),
      }),
    )
    await tick()
    return { wallet, info: host.standard.entries()[0]?.info }
  }
  return {
    calls,
    channel,
    connect,
    host,
    addSolanaWallet,
    setState: (next: Partial<PortholeState>) => {
      current = { ...current, ...next }
    },
  }
}

describe('provider routing', () => {
  test('eip155: an injected connection goes straight to its wallet, found by connector id (rdns)', async () => {
    const { wallet, provider } = fakeEvmWallet()
    const { calls, channel } = setup({ connections: [evmConnection('io.metamask')] }, [wallet])
    expect(await calls.route('eip155', { method: 'eth_chainId' })).toBe('io.metamask:eth_chainId')
    expect(
      await calls.route('eip155', { method: 'eth_signTypedData_v4', params: [EVM, '{}'] }),
    ).toBe('io.metamask:eth_signTypedData_v4')
    expect(provider.request).toHaveBeenCalledWith({
      method: 'eth_signTypedData_v4',
      params: [EVM, '{}'],
    })
    expect(channel.request).not.toHaveBeenCalled()
  })

  test('eip155 without an injected wallet: accounts and chain from state, the rest to the modal', async () => {
    const { calls, channel } = setup({ connections: [evmConnection('walletConnect')] })
    expect(await calls.route('eip155', { method: 'eth_accounts' })).toEqual([EVM])
    expect(await calls.route('eip155', { method: 'eth_chainId' })).toBe('0x2105')
    expect(await calls.route('eip155', { method: 'personal_sign', params: ['0x1', EVM] })).toBe(
      'from the modal',
    )
    expect(channel.request).toHaveBeenCalledWith('request', {
      method: 'personal_sign',
      params: ['0x1', EVM],
      namespace: 'eip155',
    })
  })

  test('the EVM provider never answers with another namespace’s account', async () => {
    const { calls } = setup({
      status: 'connected',
      address: SOL,
      caipAddress: `${SOLANA_CHAIN}:${SOL}`,
      caipNetworkId: SOLANA_CHAIN,
      chainId: 'DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P',
      connections: [solanaConnection('walletConnect')],
    })
    expect(await calls.route('eip155', { method: 'eth_accounts' })).toEqual([])
    expect(await calls.route('eip155', { method: 'eth_chainId' })).toBeNull()
    await expect(
      calls.route('eip155', { method: 'eth_sendTransaction', params: [{}] }),
    ).rejects.toMatchObject({ code: 4100 })
  })

  test('not connected: requestAccounts opens the modal for that namespace; getAccounts is empty', async () => {
    const { calls, connect } = setup()
    expect(await calls.route('solana', { method: 'solana_getAccounts' })).toEqual([])
    expect(await calls.route('eip155', { method: 'eth_accounts' })).toEqual([])
    expect(await calls.route('solana', { method: 'solana_requestAccounts' })).toEqual([
      { pubkey: SOL },
    ])
    expect(connect).toHaveBeenLastCalledWith({ namespace: 'solana' })
    expect(await calls.route('eip155', { method: 'eth_requestAccounts' })).toEqual([EVM])
    expect(connect).toHaveBeenLastCalledWith({ namespace: 'eip155' })
    await expect(
      calls.route('solana', { method: 'solana_signMessage', params: {} }),
    ).rejects.toMatchObject({ code: 4100 })
  })

  test('solana via the modal (WalletConnect, embedded): accounts from state, signing with namespace', async () => {
    const { calls, channel } = setup({ connections: [solanaConnection('walletConnect')] })
    expect(await calls.route('solana', { method: 'solana_getAccounts' })).toEqual([{ pubkey: SOL }])
    expect(await calls.route('solana', { method: 'solana_requestAccounts' })).toEqual([
      { pubkey: SOL },
    ])
    const params = { message: '3yZe7d', pubkey: SOL }
    await calls.route('solana', { method: 'solana_signMessage', params })
    expect(channel.request).toHaveBeenCalledWith('request', {
      method: 'solana_signMessage',
      params,
      namespace: 'solana',
    })
  })

  test('solana, injected: the active connection’s Wallet Standard wallet signs, found by the modal’s connector id', async () => {
    const { calls, channel, addSolanaWallet } = setup({
      connections: [
        solanaConnection('solana:Porthole Solana Dev Wallet'),
        solanaConnection('walletConnect', false),
      ],
    })
    const { wallet } = await addSolanaWallet()
    const answer = await calls.route('solana', {
      method: 'solana_signMessage',
      params: { message: base58Encode(new Uint8Array([1, 2])), pubkey: SOL },
    })
    expect(answer).toEqual({ signature: base58Encode(fakeSignature(7)) })
    expect(wallet.calls.map((c) => c.feature)).toContain('solana:signMessage')
    expect(channel.request).not.toHaveBeenCalled()
  })
})

describe('the modal’s calls on injected wallets', () => {
  test('EVM: the allowed methods run on the wallet, others are refused with 4200', async () => {
    const { wallet, provider } = fakeEvmWallet()
    const { calls } = setup({}, [wallet])
    expect(
      await calls.injectedRequest({ uuid: 'uuid-io.metamask', method: 'eth_requestAccounts' }),
    ).toBe('io.metamask:eth_requestAccounts')
    expect(provider.request).toHaveBeenCalledWith({ method: 'eth_requestAccounts' })
    await expect(
      calls.injectedRequest({ uuid: 'uuid-io.metamask', method: 'eth_signTypedData_v4' }),
    ).rejects.toMatchObject({ code: 4200 })
  })

  test('Wallet Standard: translated by its adapter; an unknown uuid is 4900', async () => {
    const { calls, addSolanaWallet } = setup()
    const { info } = await addSolanaWallet()
    expect(
      await calls.injectedRequest({
        uuid: info?.uuid ?? '',
        method: 'solana_requestAccounts',
        params: {},
      }),
    ).toEqual([{ pubkey: SOL }])
    await expect(
      calls.injectedRequest({ uuid: info?.uuid ?? '', method: 'eth_sendTransaction' }),
    ).rejects.toMatchObject({ code: 4200 })
    await expect(
      calls.injectedRequest({ uuid: 'nobody', method: 'solana_getAccounts' }),
    ).rejects.toMatchObject({ code: 4900 })
  })

  test('wallet events reach the modal as injectedEvent: EVM ones (errors as error objects) and Wallet Standard ones', async () => {
    const evm = fakeEvmWallet()
    const { calls, channel, addSolanaWallet } = setup({}, [evm.wallet])
    evm.listeners.get('chainChanged')?.('0x1')
    evm.listeners.get('disconnect')?.(Object.assign(new Error('Gone'), { code: 4900 }))
    const { wallet, info } = await addSolanaWallet()
    wallet.setAccounts([])
    await tick()
    expect(channel.emit.mock.calls).toEqual([
      ['injectedEvent', { uuid: 'uuid-io.metamask', event: 'chainChanged', data: '0x1' }],
      [
        'injectedEvent',
        { uuid: 'uuid-io.metamask', event: 'disconnect', data: { code: 4900, message: 'Gone' } },
      ],
      ['injectedEvent', { uuid: info?.uuid, event: 'accountsChanged', data: [] }],
    ])
    // Following again (the list changed) does not follow a wallet twice.
    calls.follow()
    expect(evm.provider.on).toHaveBeenCalledTimes(4)
  })
})
