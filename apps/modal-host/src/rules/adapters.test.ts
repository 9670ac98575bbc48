import { resolveNetwork } from '@porthole/shared'
import { describe, expect, test } from 'vitest'
import { hasAdapters } from './adapters.js'
import { openingScreen } from './openingScreen.js'

const polkadot = resolveNetwork({
  id: '91b171bb158e2d3848fa23a9f1c25182',
  chainNamespace: 'polkadot',
  name: 'Polkadot',
  nativeCurrency: { name: 'DOT', symbol: 'DOT', decimals: 10 },
  rpcUrls: { default: { http: [] } },
})!

describe('adapters (spec §2 opening rules)', () => {
  test('EVM, Solana or Bitcoin networks give an adapter; polkadot or cosmos alone do not', () => {
    expect(hasAdapters([resolveNetwork('eip155:1')!])).toBe(true)
    expect(
      hasAdapters([polkadot, resolveNetwork('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')!]),
    ).toBe(true)
    expect(hasAdapters([polkadot])).toBe(false)
    expect(hasAdapters([])).toBe(false)
  })

  test('no adapters and no address: desktop opens ConnectingWalletConnectBasic, mobile AllWallets', () => {
    const adapters = hasAdapters([polkadot])
    expect(openingScreen({ connected: false, hasAdapters: adapters, isMobile: false })).toEqual({
      view: 'ConnectingWalletConnect',
      basic: true,
    })
    expect(openingScreen({ connected: false, hasAdapters: adapters, isMobile: true })).toEqual({
      view: 'AllWallets',
    })
    expect(openingScreen({ connected: true, hasAdapters: adapters, isMobile: false })).toEqual({
      view: 'Account',
    })
    expect(openingScreen({ connected: false, hasAdapters: true, isMobile: false })).toEqual({
      view: 'Connect',
    })
  })
})
