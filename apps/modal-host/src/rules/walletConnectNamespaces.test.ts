import { getKnownNetwork } from '@porthole/shared'
import { describe, expect, test } from 'vitest'
import { walletConnectNamespaces } from './walletConnectNamespaces.js'

describe('walletConnectNamespaces', () => {
  test('one namespace per configured family, EVM reads through the given URL', () => {
    const networks = ['eip155:1', 'eip155:8453', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'].map(
      (id) => getKnownNetwork(id)!,
    )
    const namespaces = walletConnectNamespaces(networks, (id) => `http://api/v1?chainId=${id}`)
    expect(Object.keys(namespaces)).toEqual(['eip155', 'solana'])
    expect(namespaces.eip155).toMatchObject({
      chains: ['eip155:1', 'eip155:8453'],
      events: ['accountsChanged', 'chainChanged'],
      rpcMap: {
        '1': 'http://api/v1?chainId=eip155:1',
        '8453': 'http://api/v1?chainId=eip155:8453',
      },
    })
    expect(namespaces.eip155?.methods).toContain('wallet_sendCalls')
    expect(namespaces.solana).toEqual({
      chains: ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
      methods: expect.arrayContaining(['solana_signMessage', 'solana_signTransaction']),
      events: [],
    })
  })

  test('no networks of a family, no namespace for it; duplicates are listed once', () => {
    const mainnet = getKnownNetwork('eip155:1')!
    expect(walletConnectNamespaces([mainnet, mainnet], () => 'x')).toEqual({
      eip155: expect.objectContaining({ chains: ['eip155:1'] }),
    })
    expect(walletConnectNamespaces([], () => 'x')).toEqual({})
  })
})
