import { describe, expect, test, vi } from 'vitest'
import { fakeBitcoinWallet, fakeSolanaWallet } from './fakeStandardWallet.js'
import type { StandardWallet } from './standardTypes.js'
import { bridgeStandardWallets, discoverStandardWallets } from './walletStandard.js'

type Api = { register(...wallets: StandardWallet[]): () => void }

/** A wallet's side of the handshake (what `@wallet-standard/wallet`'s registerWallet does). */
function registerWallet(target: EventTarget, wallet: StandardWallet) {
  const unregisters: (() => void)[] = []
  const callback = ({ register }: Api) => unregisters.push(register(wallet))
  target.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }))
  target.addEventListener('wallet-standard:app-ready', (event) =>
    callback((event as CustomEvent<Api>).detail),
  )
  return () => {
    for (const unregister of unregisters) unregister()
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

function start(target = new EventTarget()) {
  const onChange = vi.fn()
  const onEvent = vi.fn()
  const standard = discoverStandardWallets({ onChange, target })
  // The calls' side (sdk-calls.js): adapters, made when the instance follows a changed list.
  const bridge = bridgeStandardWallets(standard, onEvent)
  return { standard, bridge, onChange, onEvent, target }
}

describe('Wallet Standard discovery', () => {
  test('finds a wallet that registered before the SDK loaded (app-ready) and one after (register-wallet)', async () => {
    const target = new EventTarget()
    registerWallet(target, fakeSolanaWallet('Early Wallet'))
    const { standard, onChange } = start(target)
    registerWallet(target, fakeSolanaWallet('Late Wallet'))
    await tick()
    expect(standard.list().map((w) => w.name)).toEqual(['Early Wallet', 'Late Wallet'])
    // Batched: one change for both.
    expect(onChange).toHaveBeenCalledTimes(1)
  })

  test('describes each wallet with its namespace and only that namespace’s chains', async () => {
    const { standard, target } = start()
    registerWallet(target, fakeSolanaWallet('Sol', undefined, ['solana:localnet', 'ethereum:1']))
    registerWallet(target, fakeBitcoinWallet('Btc'))
    await tick()
    const [sol, btc] = standard.list()
    expect(sol).toMatchObject({
      name: 'Sol',
      icon: 'data:image/svg+xml,<svg/>',
      rdns: '',
      namespace: 'solana',
      chains: ['solana:localnet'],
    })
    expect(btc).toMatchObject({
      name: 'Btc',
      rdns: '',
      namespace: 'bip122',
      chains: ['bitcoin:regtest'],
    })
    expect(sol?.uuid).not.toBe(btc?.uuid)
  })

  test('skips EVM-only wallets, Solana wallets without signMessage and non-wallets', async () => {
    const { standard, target } = start()
    const evmOnly = fakeSolanaWallet('EVM only', [], ['eip155:1'])
    const noSign = fakeSolanaWallet('No sign')
    delete (noSign.features as Record<string, unknown>)['solana:signMessage']
    const bitcoinNoRequest = fakeBitcoinWallet('No request')
    delete (bitcoinNoRequest.features as Record<string, unknown>)['bitcoin:request']
    for (const wallet of [evmOnly, noSign, bitcoinNoRequest, {} as StandardWallet])
      registerWallet(target, wallet)
    registerWallet(target, fakeSolanaWallet('Good'))
    await tick()
    expect(standard.list().map((w) => w.name)).toEqual(['Good'])
  })

  test('a wallet registered twice (event and app-ready) is listed once', async () => {
    const target = new EventTarget()
    const wallet = fakeSolanaWallet()
    registerWallet(target, wallet)
    const { standard } = start(target)
    target.dispatchEvent(
      new CustomEvent('wallet-standard:register-wallet', {
        detail: ({ register }: Api) => register(wallet),
      }),
    )
    await tick()
    expect(standard.list()).toHaveLength(1)
  })

  test('unregister removes the wallet and stops following it', async () => {
    const { standard, bridge, target, onChange, onEvent } = start()
    const wallet = fakeSolanaWallet()
    const unregister = registerWallet(target, wallet)
    await tick()
    expect(standard.list()).toHaveLength(1)
    bridge.follow()
    unregister()
    await tick()
    expect(standard.list()).toEqual([])
    expect(onChange).toHaveBeenCalledTimes(2)
    wallet.setAccounts([])
    expect(onEvent).not.toHaveBeenCalled()
  })

  test('discovery alone makes no adapter; the bridge forwards account changes as accountsChanged with the addresses of the namespace', async () => {
    const { standard, bridge, target, onEvent } = start()
    const wallet = fakeSolanaWallet()
    registerWallet(target, wallet)
    await tick()
    const [info] = standard.list()
    expect(standard.entries()[0]?.adapter).toBeUndefined()
    wallet.setAccounts([])
    expect(onEvent).not.toHaveBeenCalled()
    bridge.follow()
    wallet.setAccounts([
      { address: 'NewSol', publicKey: new Uint8Array(32), chains: ['solana:devnet'], features: [] },
      { address: '0xabc', publicKey: new Uint8Array(20), chains: ['eip155:1'], features: [] },
    ])
    expect(onEvent).toHaveBeenCalledWith(info?.uuid, 'accountsChanged', ['NewSol'])
  })

  test('finds the adapter by uuid or by the modal’s connector id (namespace:name, any case)', async () => {
    const { standard, bridge, target } = start()
    registerWallet(target, fakeSolanaWallet('Porthole Solana Dev Wallet'))
    await tick()
    const [info] = standard.list()
    expect(bridge.get(info?.uuid ?? '')).toBeDefined()
    expect(bridge.get('solana:porthole solana dev wallet')).toBe(bridge.get(info?.uuid ?? ''))
    expect(bridge.get('bip122:Porthole Solana Dev Wallet')).toBeUndefined()
  })

  test('stop: no more registrations are taken', async () => {
    const { standard, target } = start()
    standard.stop()
    registerWallet(target, fakeSolanaWallet())
    await tick()
    expect(standard.list()).toEqual([])
  })
})
