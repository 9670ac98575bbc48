import { expect, test } from 'vitest'
import { createApp } from '../app.js'
import { openDatabase } from '../db/openDatabase.js'
import { createProject } from '../projects/createProject.js'
import type { ChainData } from './ChainData.js'
import { ChainUnavailableError } from './ChainData.js'
import { createHttpChainData } from './createHttpChainData.js'

const ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

/** A provider: another Porthole API (its data service a stub that records calls). */
async function provider() {
  const db = await openDatabase({ url: ':memory:' })
  await createProject(db, { id: 'provider-key', origins: ['https://x.test'] })
  const calls: unknown[] = []
  const chainData: ChainData = {
    supportedChains: async () => {
      calls.push('chains')
      return { http: ['eip155:1', 'eip155:8453'], ws: [] }
    },
    balances: async (p) => {
      calls.push(['balances', p.address, p.chainIds, p.forceUpdate])
      return {
        balances: [
          {
            name: 'Ether',
            symbol: 'ETH',
            chainId: 'eip155:1',
            price: 3000,
            quantity: { decimals: '18', numeric: '1' },
            iconUrl: 'https://i/eth',
          },
        ],
      }
    },
    history: async (p) => {
      calls.push(['history', p.address, p.chainIds, p.cursor])
      return { data: [], next: 'n2' }
    },
    nfts: async () => ({ data: [], next: null }),
    fungiblePrices: async (p) => {
      calls.push(['prices', p.addresses])
      return {
        fungibles: [{ name: 'USD Coin', symbol: 'USDC', iconUrl: 'https://i/usdc', price: 1 }],
      }
    },
  }
  const app = createApp({
    db,
    chainData,
    config: { rateLimit: false, projectCacheMs: 0, upstreams: {}, onError: () => undefined },
  })
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) =>
    app.request(String(input), init)) as typeof fetch
  return { calls, fetchFn, close: () => db.close() }
}

test('forwards each call with the provider’s own project and validates the answers', async () => {
  const p = await provider()
  try {
    const data = createHttpChainData({
      url: 'http://provider.test/?projectId=provider-key',
      fetch: p.fetchFn,
    })
    expect(await data.supportedChains()).toEqual({ http: ['eip155:1', 'eip155:8453'], ws: [] })
    await data.supportedChains() // cached
    const balances = await data.balances({
      address: ADDRESS,
      chainIds: ['eip155:1'],
      currency: 'usd',
      forceUpdate: true,
      imageQuery: '?projectId=caller',
    })
    expect(balances.balances[0]!.symbol).toBe('ETH')
    expect(
      await data.history({
        address: ADDRESS,
        chainIds: ['eip155:1', 'eip155:8453'],
        cursor: 'c1',
        limit: 50,
        imageQuery: '',
      }),
    ).toEqual({ data: [], next: 'n2' })
    const prices = await data.fungiblePrices({
      currency: 'usd',
      addresses: ['eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
      imageQuery: '',
    })
    expect(prices.fungibles[0]!.symbol).toBe('USDC')
    expect(p.calls).toEqual([
      'chains',
      'chains', // the provider's route checks chainId
      ['balances', ADDRESS, ['eip155:1'], true],
      'chains',
      ['history', ADDRESS, ['eip155:1', 'eip155:8453'], 'c1'],
      'chains',
      ['prices', ['eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48']],
    ])
  } finally {
    await p.close()
  }
})

test('a refusing, failing or off-shape provider is ChainUnavailableError', async () => {
  const p = await provider()
  try {
    const wrongKey = createHttpChainData({
      url: 'http://provider.test?projectId=nope',
      fetch: p.fetchFn,
    })
    await expect(wrongKey.supportedChains()).rejects.toThrow(ChainUnavailableError)
    await expect(wrongKey.supportedChains()).rejects.toThrow('HTTP status code: 403')
    const offShape = createHttpChainData({
      url: 'http://provider.test',
      fetch: (async () => new Response('{"http": "all"}')) as typeof fetch,
    })
    await expect(offShape.supportedChains()).rejects.toThrow('unexpected answer')
    const down = createHttpChainData({
      url: 'http://provider.test',
      fetch: (async () => {
        throw new TypeError('fetch failed')
      }) as typeof fetch,
    })
    await expect(
      down.history({
        address: ADDRESS,
        chainIds: ['eip155:1'],
        cursor: undefined,
        limit: 50,
        imageQuery: '',
      }),
    ).rejects.toThrow(ChainUnavailableError)
  } finally {
    await p.close()
  }
})
