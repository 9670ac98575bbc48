import { DEVNET_AMM } from '@porthole/shared/devnet'
import { expect, test } from 'vitest'
import { InvalidConfigError } from '../config.js'
import { resolveSwapConfig, SWAP_NETWORKS } from './config.js'

const ROUTER = '0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24'
const WETH = '0x4200000000000000000000000000000000000006'

test('by default: the spec’s twelve networks and the devnets, the devnets with their AMM', () => {
  const config = resolveSwapConfig({})
  expect(SWAP_NETWORKS).toHaveLength(12)
  expect(config.networks).toEqual([...SWAP_NETWORKS, 'eip155:31337', 'eip155:31338'])
  expect(Object.keys(config.chains)).toEqual(['eip155:31337', 'eip155:31338'])
  expect(config.chains['eip155:31337']).toMatchObject({
    router: DEVNET_AMM.router,
    weth: DEVNET_AMM.weth,
  })
  expect(config.chains['eip155:31337']?.tokens.map((t) => t.symbol)).toEqual(['pUSD', 'PRT'])
  expect(config.providerUrl).toBeUndefined()
})

test('production leaves the devnets out; PORTHOLE_SWAP_ROUTERS adds chains, new ones to the list', () => {
  const config = resolveSwapConfig(
    {
      PORTHOLE_SWAP_ROUTERS: JSON.stringify({
        'eip155:8453': { router: ROUTER, weth: WETH },
        'eip155:11155111': { router: ROUTER, weth: WETH, tokens: [] },
      }),
    },
    { production: true },
  )
  expect(config.networks).toEqual([...SWAP_NETWORKS, 'eip155:11155111'])
  expect(config.chains).toEqual({
    'eip155:8453': { router: ROUTER, weth: WETH, tokens: [] },
    'eip155:11155111': { router: ROUTER, weth: WETH, tokens: [] },
  })
})

test('bad settings are refused with the variable named', () => {
  for (const value of [
    'not json',
    '{"eip155:8453":{"router":"0x12"}}',
    '{"base":{"router":"0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24","weth":"0x4200000000000000000000000000000000000006"}}',
  ])
    expect(() => resolveSwapConfig({ PORTHOLE_SWAP_ROUTERS: value })).toThrow(
      /PORTHOLE_SWAP_ROUTERS/,
    )
  expect(() => resolveSwapConfig({ PORTHOLE_SWAP_PROVIDER_URL: 'ftp://x' })).toThrow(
    InvalidConfigError,
  )
  expect(
    resolveSwapConfig({ PORTHOLE_SWAP_PROVIDER_URL: 'https://swap.example/' }).providerUrl,
  ).toBe('https://swap.example/')
})
