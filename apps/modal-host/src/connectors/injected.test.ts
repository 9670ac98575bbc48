import { beforeEach, describe, expect, test, vi } from 'vitest'

// The host page is the edge: `hostRequest` answers as the SDK's bridge to each wallet would.
const host = vi.hoisted(() => ({
  answers: new Map<string, unknown>(),
  calls: [] as { uuid: string; method: string; params?: unknown }[],
}))
vi.mock('../host/bridge.js', () => ({
  hostRequest: async (_: string, request: { uuid: string; method: string; params?: unknown }) => {
    host.calls.push(request)
    if (!host.answers.has(request.method)) throw Object.assign(new Error('nope'), { code: 4200 })
    return host.answers.get(request.method)
  },
}))
vi.mock('../actions/balance.js', () => ({ refresh: async () => {} }))
vi.mock('../actions/modal.js', () => ({ close: () => {}, prepare: () => {} }))

const Injected = await import('./injected.js')
const { store, initialState } = await import('../store/store.js')
const { resolveNetworks } = await import('@porthole/shared')

const SOL = 'solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P'
const REGTEST = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'
const solanaInfo = {
  uuid: 'u-sol',
  name: 'Porthole Solana Dev Wallet',
  icon: '',
  rdns: '',
  namespace: 'solana' as const,
  chains: ['solana:localnet', 'solana:devnet'],
}

beforeEach(() => {
  host.answers.clear()
  host.calls.length = 0
  store.setState(
    {
      ...initialState(),
      config: {
        ...initialState().config,
        networks: resolveNetworks(['eip155:31337', SOL, REGTEST]).networks,
      },
    },
    true,
  )
})

describe('injected connectors', () => {
  test('EVM: accounts and chain from the wallet', async () => {
    host.answers.set('eth_requestAccounts', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'])
    host.answers.set('eth_chainId', '0x7a69')
    const connector = Injected.injectedConnector({
      uuid: 'u1',
      name: 'Dev',
      icon: '',
      rdns: 'dev.porthole.wallet',
    })
    expect(connector.info).toMatchObject({ id: 'dev.porthole.wallet', type: 'ANNOUNCED' })
    expect(await connector.connect({})).toEqual([
      {
        namespace: 'eip155',
        address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        caipNetworkId: 'eip155:31337',
      },
    ])
  })

  test('Solana: the Wallet Standard chain maps to the configured network', async () => {
    host.answers.set('solana_requestAccounts', [
      { pubkey: '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys' },
    ])
    const connector = Injected.injectedConnector(solanaInfo)
    // No rdns and a uuid that changes per page load: the id is the namespace and the name.
    expect(connector.info.id).toBe('solana:Porthole Solana Dev Wallet')
    expect(await connector.connect({})).toEqual([
      {
        namespace: 'solana',
        address: '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys',
        caipNetworkId: SOL,
      },
    ])
    expect(host.calls[0]).toMatchObject({ uuid: 'u-sol', method: 'solana_requestAccounts' })
  })

  test('a malformed Solana answer is a refusal, not a connection', async () => {
    host.answers.set('solana_requestAccounts', [{ pubkey: '0xnot-base58' }])
    await expect(Injected.injectedConnector(solanaInfo).connect({})).rejects.toMatchObject({
      code: 4001,
    })
  })

  test("Bitcoin: payment first, ordinal second; no matching chain is the spec's error", async () => {
    host.answers.set('getAccountAddresses', [
      { address: 'bcrt1pord', intention: 'ordinal', publicKey: 'aa', path: "m/86'/1'/0'/0/0" },
      { address: 'bcrt1qpay', intention: 'payment', publicKey: 'bb', path: "m/84'/1'/0'/0/0" },
    ])
    const info = {
      uuid: 'u-btc',
      name: 'BTC',
      icon: '',
      rdns: '',
      namespace: 'bip122' as const,
      chains: ['bitcoin:regtest'],
    }
    const [account] = await Injected.injectedConnector(info).connect({})
    expect(account).toMatchObject({ address: 'bcrt1qpay', caipNetworkId: REGTEST })
    expect(account?.accounts?.map((a) => a.purpose)).toEqual(['payment', 'ordinal'])

    const mainnetOnly = Injected.injectedConnector({ ...info, chains: ['bitcoin:mainnet'] })
    await expect(mainnetOnly.connect({})).rejects.toThrow(
      'The connector does not support any of the requested chains',
    )
    // Refused before the wallet is asked anything.
    expect(host.calls.filter((c) => c.uuid === 'u-btc')).toHaveLength(1)
  })

  test('a connected wallet’s events reach its connection; others are ignored', async () => {
    host.answers.set('solana_requestAccounts', [
      { pubkey: '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys' },
    ])
    const Connection = await import('../actions/connection.js')
    const connector = Injected.injectedConnector(solanaInfo)
    Connection.setConnected(connector, await connector.connect({}), { silent: true })
    Injected.onInjectedEvent({
      uuid: 'u-sol',
      event: 'accountsChanged',
      data: ['4MDqfpxHQbWrZs4LLBhiDZXbNQsaQv9dgg3eUJrvUFWx'],
    })
    expect(store.getState().connection.address).toBe('4MDqfpxHQbWrZs4LLBhiDZXbNQsaQv9dgg3eUJrvUFWx')
    Injected.onInjectedEvent({ uuid: 'other', event: 'disconnect', data: null })
    expect(store.getState().connections).toHaveLength(1)
    Injected.onInjectedEvent({ uuid: 'u-sol', event: 'disconnect', data: null })
    expect(store.getState().connections).toHaveLength(0)
  })
})
