import { describe, expect, test } from 'vitest'
import {
  FALLBACK_ONRAMP_OPTIONS,
  isOnNetwork,
  isRestrictedTimezone,
  moneyText,
  onrampAmountError,
  onrampProviders,
  onrampSupportsNamespace,
  purchasableOn,
} from './onramp.js'

const card = { id: 'card', min: '10.00', max: '7500.00' }

describe('on-ramp rules', () => {
  test('restricted time zones: mainland China, Hong Kong and Macau', () => {
    for (const zone of [
      'Asia/Shanghai',
      'Asia/Urumqi',
      'Asia/Hong_Kong',
      'Asia/Macau',
      'Asia/Macao',
      'PRC',
      'Hongkong',
    ])
      expect(isRestrictedTimezone(zone)).toBe(true)
    for (const zone of [
      'Asia/Taipei',
      'Asia/Tokyo',
      'Europe/Berlin',
      'UTC',
      'Asia/Shanghai2',
      'America/Asia/Shanghai',
    ])
      expect(isRestrictedTimezone(zone)).toBe(false)
  })

  test('providers must be a list of strings, else empty; EVM and Solana only', () => {
    expect(onrampProviders(['meld'])).toEqual(['meld'])
    expect(onrampProviders('meld')).toEqual([])
    expect(onrampProviders(['meld', 3])).toEqual([])
    expect(onrampProviders(undefined)).toEqual([])
    expect(onrampSupportsNamespace('eip155')).toBe(true)
    expect(onrampSupportsNamespace('solana')).toBe(true)
    expect(onrampSupportsNamespace('bip122')).toBe(false)
    expect(onrampSupportsNamespace(undefined)).toBe(false)
  })

  test('the fallback table: card 10.00–7500.00 and bank 10.00–25000.00 for USD and EUR', () => {
    expect(FALLBACK_ONRAMP_OPTIONS.paymentCurrencies.map((c) => c.id)).toEqual(['USD', 'EUR'])
    for (const currency of FALLBACK_ONRAMP_OPTIONS.paymentCurrencies)
      expect(currency.limits).toEqual([
        { id: 'card', min: '10.00', max: '7500.00' },
        { id: 'ach_bank_account', min: '10.00', max: '25000.00' },
      ])
    expect(FALLBACK_ONRAMP_OPTIONS.purchaseCurrencies[0]?.networks.map((n) => n.name)).toEqual([
      'ethereum-mainnet',
      'polygon-mainnet',
    ])
  })

  test('amounts: inside the method limits, cents at most', () => {
    const check = (amount: string) => onrampAmountError({ amount, currency: 'USD', limit: card })
    expect(check('50')).toBeNull()
    expect(check('10.00')).toBeNull()
    expect(check('7500')).toBeNull()
    for (const bad of ['9.99', '7500.01', '0', 'abc', '1.234', '-5'])
      expect(check(bad)).toBe('Enter an amount between 10.00 and 7500.00 USD')
    expect(onrampAmountError({ amount: '5', currency: 'USD', limit: undefined })).toBeNull()
    expect(onrampAmountError({ amount: 'x', currency: 'USD', limit: undefined })).toBe(
      'Enter an amount',
    )
  })

  test('purchase currencies on a network; money fields as text', () => {
    const currencies = [
      {
        id: 'USDC',
        name: 'Porthole USD',
        symbol: 'pUSD',
        networks: [
          { name: 'devnet', display_name: 'Devnet', chain_id: '31337', contract_address: '0x' },
        ],
      },
      {
        id: 'SOL',
        name: 'Solana',
        symbol: 'SOL',
        networks: [
          { name: 'sol', display_name: 'Solana', chain_id: 'solana:abc', contract_address: '' },
        ],
      },
    ]
    expect(purchasableOn(currencies, 'eip155:31337').map((c) => c.id)).toEqual(['USDC'])
    expect(purchasableOn(currencies, 'solana:abc').map((c) => c.id)).toEqual(['SOL'])
    expect(purchasableOn(currencies, 'eip155:1')).toEqual([])
    expect(isOnNetwork({ chain_id: 'eip155:5' }, 'eip155:5')).toBe(true)
    expect(moneyText({ amount: '1.25', currency: 'USD' })).toBe('1.25 USD')
    expect(moneyText('1.25 USD')).toBe('1.25 USD')
  })
})
