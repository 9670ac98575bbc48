import { describe, expect, test } from 'vitest'
import { getKnownNetwork, resolveNetwork, resolveNetworks, toHexChainId } from './networks.js'

describe('networks', () => {
  test('known ids resolve, unknown ones are reported', () => {
    const { networks, unknown } = resolveNetworks([
      'eip155:31337',
      'eip155:1',
      'eip155:999999',
      'eip155:1',
    ])
    expect(networks.map((n) => n.caipNetworkId)).toEqual(['eip155:31337', 'eip155:1'])
    expect(unknown).toEqual(['eip155:999999'])
  })

  test('network objects (viem chain shape) are completed', () => {
    const network = resolveNetwork({
      id: 777,
      name: 'Custom',
      nativeCurrency: { name: 'Coin', symbol: 'CC', decimals: 18 },
      rpcUrls: { default: { http: ['https://rpc.custom.example'] } },
    })
    expect(network).toMatchObject({
      caipNetworkId: 'eip155:777',
      chainNamespace: 'eip155',
      testnet: false,
      rpcUrls: { default: { http: ['https://rpc.custom.example'] } },
    })
  })

  test('a network object cannot rename a known network or change its currency (issue 25: a host made 1 ETH read 0.000000000000000001 ETH on the card)', () => {
    const network = resolveNetwork({
      id: 31337,
      name: 'Free test network',
      nativeCurrency: { name: 'Ether', symbol: 'TEST', decimals: 36 },
      rpcUrls: { default: { http: ['https://rpc.host.example'] } },
    })
    expect(network).toMatchObject({
      caipNetworkId: 'eip155:31337',
      name: 'Porthole Devnet',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      // What a host may still choose for a known network: where its page reads the chain.
      rpcUrls: { default: { http: ['https://rpc.host.example'] } },
    })
  })

  test('a network object whose CAIP id contradicts its namespace is refused', () => {
    expect(
      resolveNetwork({
        id: 1,
        caipNetworkId: 'solana:1',
        chainNamespace: 'eip155',
        name: 'x',
        nativeCurrency: { name: 'x', symbol: 'x', decimals: 1 },
        rpcUrls: {},
      }),
    ).toBeUndefined()
  })

  test('hex chain ids for wallets', () => {
    expect(toHexChainId(8453)).toBe('0x2105')
    expect(getKnownNetwork('eip155:31338')?.rpcUrls.default.http).toEqual(['http://127.0.0.1:8546'])
  })
})
