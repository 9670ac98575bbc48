import { expect, test } from 'vitest'
import { InvalidConfigError } from '../config.js'
import { resolveOnrampConfig } from './config.js'
import { defaultDestinationCurrency, onrampUrl } from './onrampUrl.js'

test('defaults to the local provider and its development keys', () => {
  expect(resolveOnrampConfig({}, { production: false })).toEqual({
    url: 'http://127.0.0.1:4900',
    apiKey: 'porthole-local-onramp-api-key',
    publicKey: 'porthole-local-onramp-public-key',
    provider: { id: 'meld', name: 'Porthole test checkout' },
    timeoutMs: 5000,
  })
  const configured = resolveOnrampConfig(
    {
      PORTHOLE_ONRAMP_URL: 'https://onramp.example/',
      PORTHOLE_ONRAMP_API_KEY: 'secret',
      PORTHOLE_ONRAMP_PUBLIC_KEY: 'pk',
      PORTHOLE_ONRAMP_PROVIDER_ID: 'coinbase',
      PORTHOLE_ONRAMP_PROVIDER_NAME: 'Coinbase',
    },
    { production: true },
  )
  expect(configured).toMatchObject({
    url: 'https://onramp.example',
    apiKey: 'secret',
    publicKey: 'pk',
    provider: { id: 'coinbase', name: 'Coinbase' },
  })
})

test('production has no provider unless its URL and keys are set; bad values are refused', () => {
  expect(resolveOnrampConfig({}, { production: true })).toBeNull()
  expect(
    resolveOnrampConfig({ PORTHOLE_ONRAMP_URL: 'https://onramp.example' }, { production: true }),
  ).toBeNull()
  expect(() =>
    resolveOnrampConfig({ PORTHOLE_ONRAMP_PROVIDER_ID: 'moonpay' }, { production: false }),
  ).toThrow(new InvalidConfigError('PORTHOLE_ONRAMP_PROVIDER_ID must be one of meld, coinbase'))
  expect(() =>
    resolveOnrampConfig({ PORTHOLE_ONRAMP_URL: 'ftp://x' }, { production: false }),
  ).toThrow(InvalidConfigError)
})

test('checkout links carry the spec’s parameters beside the provider’s own', () => {
  expect(defaultDestinationCurrency('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).toBe('SOL')
  expect(defaultDestinationCurrency('solana')).toBe('SOL')
  expect(defaultDestinationCurrency('eip155:1')).toBe('USDC')
  expect(defaultDestinationCurrency('solanaish')).toBe('USDC')
  const url = new URL(
    onrampUrl('https://pay.example/checkout?orderId=ord_1', {
      publicKey: 'pk',
      destinationCurrencyCode: 'USDC',
      walletAddress: '0xabc',
      externalCustomerId: 'user 1&x',
    }),
  )
  expect(Object.fromEntries(url.searchParams)).toEqual({
    orderId: 'ord_1',
    publicKey: 'pk',
    destinationCurrencyCode: 'USDC',
    walletAddress: '0xabc',
    externalCustomerId: 'user 1&x',
  })
})
