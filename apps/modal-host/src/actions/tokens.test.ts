import type { BalanceEntry } from '@porthole/shared'
import { resolveNetwork } from '@porthole/shared'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'

// The data service and the wallet are replaced at their module edges; the caching, the 30 s
// failure gap and the choice between the wallet's assets and the API are under test.
const edge = vi.hoisted(() => ({
  balances: vi.fn(),
  supported: vi.fn(),
  wallet: vi.fn(),
}))
vi.mock('../api/blockchain.js', () => ({
  getBalances: edge.balances,
  getSupportedChains: edge.supported,
}))
vi.mock('./connection.js', () => ({ connectorRequest: edge.wallet }))
vi.mock('./analytics.js', () => ({ reportError: () => {} }))

const Tokens = await import('./tokens.js')
const { store, initialState } = await import('../store/store.js')

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const devnet = resolveNetwork('eip155:31337')!
const eth: BalanceEntry = {
  name: 'Ether',
  symbol: 'ETH',
  chainId: 'eip155:31337',
  price: 3000,
  value: 30000,
  quantity: { decimals: '18', numeric: '10' },
  iconUrl: '',
}

let now = 1_000_000
beforeEach(() => {
  now = 1_000_000
  Tokens.clock.now = () => now
  Tokens.forgetTokenSources()
  store.setState(initialState())
  store.setState({
    config: { ...store.getState().config, networks: [devnet] },
    connection: {
      status: 'connected',
      connector: { id: 'io.metamask', type: 'ANNOUNCED', name: 'MetaMask', uuid: 'u' },
      address: ADDRESS,
      caipNetworkId: 'eip155:31337',
    },
  })
  edge.supported.mockResolvedValue({ http: ['eip155:31337'], ws: [] })
  edge.balances.mockResolvedValue({ balances: [eth] })
  edge.wallet.mockRejectedValue(Object.assign(new Error('Unsupported method'), { code: 4200 }))
})
afterEach(() => vi.clearAllMocks())

describe('token balances', () => {
  test('come from the API and are reused for 30 s unless forced', async () => {
    await Tokens.refreshTokens()
    expect(Tokens.currentTokens(store.getState())).toEqual([eth])
    expect(edge.balances).toHaveBeenCalledWith(ADDRESS, {
      chainId: 'eip155:31337',
      forceUpdate: undefined,
    })
    now += 29_999
    await Tokens.refreshTokens()
    expect(edge.balances).toHaveBeenCalledTimes(1)
    now += 1
    await Tokens.refreshTokens()
    expect(edge.balances).toHaveBeenCalledTimes(2)
    await Tokens.refreshTokens({ force: true })
    expect(edge.balances).toHaveBeenLastCalledWith(ADDRESS, {
      chainId: 'eip155:31337',
      forceUpdate: true,
    })
  })

  test("a failure shows 'Token Balance Unavailable' and nothing is asked for 30 s, even forced", async () => {
    edge.balances.mockRejectedValueOnce(new Error('HTTP status code: 503'))
    await Tokens.refreshTokens()
    expect(store.getState().toast).toMatchObject({
      message: 'Token Balance Unavailable',
      variant: 'error',
    })
    expect(store.getState().tokens.lastFailure).toBe(now)
    now += 29_000
    await Tokens.refreshTokens({ force: true })
    expect(edge.balances).toHaveBeenCalledTimes(1)
    now += 1_000
    await Tokens.refreshTokens()
    expect(edge.balances).toHaveBeenCalledTimes(2)
    expect(Tokens.currentTokens(store.getState())).toEqual([eth])
    expect(store.getState().tokens.lastFailure).toBeNull()
  })

  test('a network the data service does not cover is unavailable without a balance call', async () => {
    edge.supported.mockResolvedValue({ http: ['eip155:1'], ws: [] })
    await Tokens.refreshTokens()
    expect(edge.balances).not.toHaveBeenCalled()
    expect(store.getState().toast?.message).toBe('Token Balance Unavailable')
  })

  test("the wallet's own assets are used when it reports asset discovery; an invalid answer falls back to the API", async () => {
    const pusd = {
      address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      balance: '0xf4240',
      type: 'ERC20',
      metadata: { name: 'Porthole USD', symbol: 'pUSD', decimals: 6, price: 1, iconUrl: '' },
    }
    edge.wallet.mockImplementation(async (method: string) => {
      if (method === 'wallet_getCapabilities')
        return { '0x7a69': { assetDiscovery: { supported: true } } }
      if (method === 'wallet_getAssets') return { '0x7a69': [pusd] }
      throw new Error(method)
    })
    await Tokens.refreshTokens()
    expect(edge.balances).not.toHaveBeenCalled()
    expect(Tokens.currentTokens(store.getState())).toMatchObject([
      {
        symbol: 'pUSD',
        chainId: 'eip155:31337',
        address: 'eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3',
        quantity: { decimals: '6', numeric: '1' },
      },
    ])
    expect(edge.wallet).toHaveBeenCalledWith('wallet_getAssets', [
      { account: ADDRESS, chainFilter: ['0x7a69'] },
    ])

    // The same wallet now answers with an asset whose metadata lacks a price: ignored.
    edge.wallet.mockImplementation(async (method: string) => {
      if (method === 'wallet_getCapabilities')
        return { '0x7a69': { assetDiscovery: { supported: true } } }
      return { '0x7a69': [{ ...pusd, metadata: { ...pusd.metadata, price: '1' } }] }
    })
    await Tokens.refreshTokens({ force: true })
    expect(edge.balances).toHaveBeenCalledTimes(1)
    expect(Tokens.currentTokens(store.getState())).toEqual([eth])
  })

  test('nothing is fetched while disconnected', async () => {
    store.setState({
      connection: { status: 'disconnected', connector: null, address: null, caipNetworkId: null },
    })
    await Tokens.refreshTokens()
    expect(edge.balances).not.toHaveBeenCalled()
    expect(edge.supported).not.toHaveBeenCalled()
  })
})
