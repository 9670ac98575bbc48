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

describe('the host’s own connectors (external)', () => {
  const acme = { uuid: 'external:acme', name: 'Acme Wallet', icon: '', rdns: '', external: true }

  test('listed by the id the host gave; connect and calls run through the page by their uuid', async () => {
    Injected.setInjectedProviders([acme])
    const [info] = store.getState().injected
    const connector = Injected.injectedConnector(info as NonNullable<typeof info>)
    expect(connector.info).toEqual({
      id: 'acme',
      type: 'EXTERNAL',
      name: 'Acme Wallet',
      uuid: 'external:acme',
    })
    host.answers.set('eth_requestAccounts', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'])
    host.answers.set('eth_chainId', '0x7a69')
    expect(await connector.connect({})).toEqual([
      {
        namespace: 'eip155',
        address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        caipNetworkId: 'eip155:31337',
      },
    ])
    expect(host.calls.map((c) => [c.uuid, c.method])).toEqual([
      ['external:acme', 'eth_requestAccounts'],
      ['external:acme', 'eth_chainId'],
    ])
  })

  test('a hostile host page: ids, names and images the modal would show are checked, each entry alone', () => {
    const hostile = [
      { ...acme, uuid: 'external:wallet:evil' }, // not an id
      { ...acme, uuid: 'external:WalletConnect' }, // Porthole's own id
      { ...acme, uuid: 'external:AUTH' },
      { ...acme, uuid: 'external:bidi', name: 'Acme \u202Etellaw' },
      { ...acme, uuid: 'external:zw', name: 'Meta\u200BMask' },
      { ...acme, uuid: 'external:nl', name: 'Acme\nApproved by Porthole' },
      { ...acme, uuid: 'external:long', name: 'A'.repeat(51) },
      { ...acme, uuid: 'external:longer', name: 'A'.repeat(101) }, // over the descriptor's 100
      { ...acme, uuid: 'external:blank', name: ' ' },
      { ...acme, uuid: 'external:sol', namespace: 'solana' },
      // Another wallet's connector id: its connection's calls must stay with it.
      { ...acme, uuid: 'external:DEV.porthole.wallet' },
      // A browser wallet may not pose as a host connector, nor take its uuid.
      { uuid: 'external:fake', name: 'Fake', icon: '', rdns: 'fake.example' },
      { ...acme, uuid: 'external:js', name: 'Js', icon: 'javascript:alert(1)' },
      { ...acme, uuid: 'external:html', name: 'Html', icon: 'data:text/html,<script>1</script>' },
      { ...acme, uuid: 'external:http', name: 'Http', icon: 'http://tracker.example/x.png' },
      { ...acme, uuid: 'external:png', name: 'Png', icon: 'data:image/png;base64,AAAA' },
      { ...acme, uuid: 'external:https', name: 'Https', icon: 'https://acme.example/a.png' },
      { ...acme, name: 'Acme again' }, // the same uuid twice: the first stays
      { ...acme, uuid: 'external:ACME', name: 'Acme twice' }, // the same id, other case
      { uuid: 'u-dev', name: 'Porthole Dev Wallet', icon: '', rdns: 'dev.porthole.wallet' },
    ]
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    Injected.setInjectedProviders([acme, ...hostile])
    Injected.setInjectedProviders([acme, ...hostile]) // sent again: said once
    // The host's developer reads each refusal in this frame's console.
    expect(errors.mock.calls.map(([m]) => m)).toEqual(
      expect.arrayContaining([
        '[porthole] connector "wallet:evil" refused: id: 1-48 letters, digits, ".", "_" or "-", starting with a letter or digit',
        `[porthole] connector "WalletConnect" refused: id: 'WalletConnect' is Porthole's own`,
        '[porthole] connector "bidi" refused: name: hidden or control characters',
        `[porthole] connector "DEV.porthole.wallet" refused: id: 'DEV.porthole.wallet' is another wallet's`,
        '[porthole] connector "sol" refused: eip155 only',
        '[porthole] connector "longer" refused: name: Too big: expected string to have <=100 characters',
        '[porthole] connector "js": image dropped (a PNG, JPEG, GIF, WebP or SVG data URI, or an https URL)',
      ]),
    )
    expect(errors).toHaveBeenCalledTimes(15)
    errors.mockRestore()
    expect(store.getState().injected.map((i) => [i.uuid, i.name, i.icon])).toEqual([
      ['external:acme', 'Acme Wallet', ''],
      ['external:js', 'Js', ''],
      ['external:html', 'Html', ''],
      ['external:http', 'Http', ''],
      ['external:png', 'Png', 'data:image/png;base64,AAAA'],
      ['external:https', 'Https', 'https://acme.example/a.png'],
      ['u-dev', 'Porthole Dev Wallet', ''],
    ])
  })

  test('at most 8 host connectors are listed', () => {
    Injected.setInjectedProviders(
      Array.from({ length: 12 }, (_, i) => ({ ...acme, uuid: `external:w${i}`, name: `W${i}` })),
    )
    expect(store.getState().injected).toHaveLength(8)
  })

  test('an answer that is not an address is no account: the connection is refused, not made', async () => {
    Injected.setInjectedProviders([acme])
    const [info] = store.getState().injected
    const connector = Injected.injectedConnector(info as NonNullable<typeof info>)
    host.answers.set('eth_chainId', '0x7a69')
    for (const answer of [
      ['<img src=x onerror=alert(1)>'],
      ['0x1234'],
      [`0x${'a'.repeat(4000)}`],
    ]) {
      host.answers.set('eth_requestAccounts', answer)
      await expect(connector.connect({})).rejects.toMatchObject({ code: 4001 })
    }
    expect(store.getState().connections).toHaveLength(0)
  })

  test('a saved connection comes back after a reload once the host registers the connector again', async () => {
    host.answers.set('eth_accounts', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'])
    host.answers.set('eth_chainId', '0x7a69')
    const Connection = await import('../actions/connection.js')
    store.setState({
      savedConnections: [
        {
          connector: { id: 'acme', type: 'EXTERNAL', name: 'Acme Wallet', uuid: 'external:acme' },
          namespace: 'eip155',
          address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
          caipNetworkId: 'eip155:31337',
        },
      ],
    })
    Injected.setInjectedProviders([acme])
    await Connection.restoreSession()
    expect(store.getState().connection).toMatchObject({
      status: 'connected',
      connector: { id: 'acme', type: 'EXTERNAL' },
    })
    expect(host.calls[0]).toMatchObject({ uuid: 'external:acme', method: 'eth_accounts' })
  })
})
