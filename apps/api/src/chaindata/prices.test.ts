import { expect, test } from 'vitest'
import { DEFAULT_PRICES } from './config.js'
import { createFixedPriceSource, priceKey } from './prices.js'

test.each([
  [{ chainId: 'eip155:1' }, 'eip155:1:native'],
  [
    { chainId: 'eip155:1', address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
    'eip155:1:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  ],
])('priceKey(%j) = %s', (asset, key) => {
  expect(priceKey(asset)).toBe(key)
})

test('the default table prices the devnet tokens: ETH 3000, pUSD 1, PRT 0.25, in USD only', async () => {
  const source = createFixedPriceSource(DEFAULT_PRICES)
  const assets = [
    { chainId: 'eip155:31337' },
    { chainId: 'eip155:31337', address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' },
    { chainId: 'eip155:31338', address: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' },
    { chainId: 'eip155:1' },
    { chainId: 'eip155:31337', address: '0x0000000000000000000000000000000000000001' },
  ]
  expect(await source.prices(assets, 'usd')).toEqual([3000, 1, 0.25, undefined, undefined])
  expect(await source.prices(assets, 'USD')).toEqual([3000, 1, 0.25, undefined, undefined])
  expect(await source.prices(assets, 'eur')).toEqual(assets.map(() => undefined))
  expect(source.currencies).toEqual(['usd'])
})

test('keys of a configured table are case-insensitive', async () => {
  const source = createFixedPriceSource({
    'eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48': 1,
  })
  expect(
    await source.prices(
      [{ chainId: 'eip155:1', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' }],
      'usd',
    ),
  ).toEqual([1])
})
