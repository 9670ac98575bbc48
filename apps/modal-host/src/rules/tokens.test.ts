import type { BalanceEntry } from '@porthole/shared'
import { describe, expect, test } from 'vitest'
import {
  formatBalance,
  formatCurrency,
  getAssetsRequest,
  isQualityToken,
  sortTokens,
  supportsAssetDiscovery,
  tokenList,
  tokenValue,
  totalValue,
  validateWalletAssets,
  type WalletAsset,
  walletAssetsToBalances,
} from './tokens.js'

const PUSD = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const PRT = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'

function entry(
  symbol: string,
  overrides: Partial<BalanceEntry> & { numeric?: string; decimals?: string } = {},
): BalanceEntry {
  const { numeric = '1', decimals = '18', ...rest } = overrides
  return {
    name: symbol,
    symbol,
    chainId: 'eip155:31337',
    price: 1,
    quantity: { decimals, numeric },
    iconUrl: '',
    ...rest,
  }
}

describe('display (spec §9)', () => {
  test.each<[Parameters<typeof formatBalance>[0], string]>([
    [{ decimals: '18', numeric: '1.23456' }, '1.234'],
    [{ decimals: '6', numeric: '1000000' }, '1,000,000.000'],
    [{ decimals: '18', numeric: '0.0009' }, '0.000'],
    [{ decimals: '18', numeric: '1e-7' }, '0.000'],
    [{ value: 1_500_000n, decimals: 6 }, '1.500'],
    [{ value: 1_999_999_999_999_999_999n, decimals: 18 }, '1.999'],
  ])('balance %# → %s', (amount, expected) => {
    expect(formatBalance(amount)).toBe(expected)
  })

  test.each<[number | string, string]>([
    [1234.5, '1,234.50'],
    [19.99, '19.99'],
    [0.005, '0.00'],
    ['2500.123456', '2,500.12'],
    [0, '0.00'],
  ])('currency %j → %s', (value, expected) => {
    expect(formatCurrency(value)).toBe(expected)
  })
})

describe('the quality filter (spec §5)', () => {
  test.each([
    ['0', false],
    ['18', true],
    ['6', true],
  ])("decimals '%s' kept: %s", (decimals, kept) => {
    expect(isQualityToken(entry('X', { decimals }))).toBe(kept)
  })
})

describe('values, sorting and total', () => {
  test('value is the answer’s, else quantity × price, exactly', () => {
    expect(tokenValue(entry('A', { value: 12.5 }))).toBe('12.5')
    expect(tokenValue(entry('A', { numeric: '2.5', price: 3000.1 }))).toBe('7500.25')
    expect(tokenValue(entry('A', { numeric: '0.1', price: 0.2 }))).toBe('0.02')
    expect(tokenValue(entry('A', { numeric: 'n/a', price: 1 }))).toBe('0')
  })

  test('value descending, then native first, then symbol', () => {
    const list = [
      entry('pusd', { value: 5, address: `eip155:31337:${PUSD}` }),
      entry('PRT', { value: 5, address: `eip155:31337:${PRT}` }),
      entry('ETH', { value: 5 }),
      entry('BIG', { value: 100, address: 'eip155:31337:0x1' }),
      entry('ZERO', { value: 0 }),
      entry('ABC', { value: 5, address: 'eip155:31337:0x2' }),
    ]
    expect(sortTokens(list).map((e) => e.symbol)).toEqual([
      'BIG',
      'ETH',
      'ABC',
      'PRT',
      'pusd',
      'ZERO',
    ])
    expect(list[0]?.symbol).toBe('pusd')
  })

  test('the list drops low-quality tokens and sorts; the total adds the listed ones exactly', () => {
    const balances = [
      entry('pUSD', { value: 0.1, address: `eip155:31337:${PUSD}` }),
      entry('ETH', { value: 0.2 }),
      entry('SPAM', { value: 1_000_000, decimals: '0', address: 'eip155:31337:0x3' }),
    ]
    expect(tokenList(balances).map((e) => e.symbol)).toEqual(['ETH', 'pUSD'])
    expect(totalValue(balances)).toBe('0.3')
    expect(formatCurrency(totalValue(balances))).toBe('0.30')
    expect(totalValue([])).toBe('0')
  })
})

describe('wallet asset discovery (spec §5, §7)', () => {
  test('the wallet_getAssets request names the account and the EVM chains in hex', () => {
    expect(
      getAssetsRequest({
        account: '0xabc',
        chainIds: ['eip155:1', 8453, '0x2105', 'eip155:31337', 'solana:5eykt4', '42161'],
      }),
    ).toEqual({
      method: 'wallet_getAssets',
      params: [{ account: '0xabc', chainFilter: ['0x1', '0x2105', '0x7a69', '0xa4b1'] }],
    })
  })

  const native: WalletAsset = {
    address: 'native',
    balance: '0xde0b6b3a7640000',
    type: 'NATIVE',
    metadata: { name: 'Ether', symbol: 'ETH', decimals: 18, price: 3000, iconUrl: 'eth.png' },
  }
  const usd: WalletAsset = {
    address: PUSD,
    balance: '0x2625a0',
    type: 'ERC20',
    metadata: {
      name: 'Porthole USD',
      symbol: 'pUSD',
      decimals: 6,
      price: 1,
      iconUrl: 'pusd.png',
      value: 2.5,
    },
  }
  const valid = { '0x7a69': [native, usd], '0x1': [] }

  test('a valid answer passes unchanged', () => {
    expect(validateWalletAssets(valid)).toEqual(valid)
    expect(validateWalletAssets({})).toEqual({})
  })

  const invalid: [string, unknown][] = [
    ['not an object', [native]],
    ['null', null],
    ['a string', 'assets'],
    ['a key that is not a hex chain id', { '1': [native] }],
    ['a CAIP-2 key', { 'eip155:1': [native] }],
    ['assets that are not a list', { '0x1': native }],
    ['an asset that is not an object', { '0x1': [native, 'usd'] }],
    ['a numeric address', { '0x1': [{ ...native, address: 1 }] }],
    ['a missing address', { '0x1': [{ ...native, address: undefined }] }],
    ['a numeric balance', { '0x1': [{ ...native, balance: 1 }] }],
    ['a decimal balance text', { '0x1': [{ ...native, balance: '1.5' }] }],
    ['type ERC721', { '0x1': [{ ...native, type: 'ERC721' }] }],
    ['a lower-case type', { '0x1': [{ ...native, type: 'native' }] }],
    ['no metadata', { '0x1': [{ ...native, metadata: undefined }] }],
    ['a numeric name', { '0x1': [{ ...native, metadata: { ...native.metadata, name: 1 } }] }],
    ['no symbol', { '0x1': [{ ...native, metadata: { ...native.metadata, symbol: undefined } }] }],
    ['no iconUrl', { '0x1': [{ ...native, metadata: { ...native.metadata, iconUrl: null } }] }],
    [
      'decimals as text',
      { '0x1': [{ ...native, metadata: { ...native.metadata, decimals: '18' } }] },
    ],
    [
      'fractional decimals',
      { '0x1': [{ ...native, metadata: { ...native.metadata, decimals: 1.5 } }] },
    ],
    [
      'negative decimals',
      { '0x1': [{ ...native, metadata: { ...native.metadata, decimals: -1 } }] },
    ],
    ['price as text', { '0x1': [{ ...native, metadata: { ...native.metadata, price: '3000' } }] }],
    ['no price', { '0x1': [{ ...native, metadata: { ...native.metadata, price: undefined } }] }],
    ['one bad asset among good ones', { '0x1': [native, usd], '0xa': [{ ...usd, type: 'NFT' }] }],
  ]
  test.each(invalid)('%s → ignored', (_, response) => {
    expect(validateWalletAssets(response)).toBeUndefined()
  })

  test('a valid answer converts to the API’s balance entries', () => {
    const balances = walletAssetsToBalances({ '0x7a69': [native, usd] })
    expect(balances).toEqual([
      {
        name: 'Ether',
        symbol: 'ETH',
        chainId: 'eip155:31337',
        price: 3000,
        value: 3000,
        quantity: { decimals: '18', numeric: '1' },
        iconUrl: 'eth.png',
      },
      {
        name: 'Porthole USD',
        symbol: 'pUSD',
        chainId: 'eip155:31337',
        address: `eip155:31337:${PUSD}`,
        price: 1,
        value: 2.5,
        quantity: { decimals: '6', numeric: '2.5' },
        iconUrl: 'pusd.png',
      },
    ])
    expect(balances[0]).not.toHaveProperty('address')
  })

  test('converted entries go through the same quality filter', () => {
    const nft = { ...usd, metadata: { ...usd.metadata, decimals: 0, symbol: 'NFT' } }
    const balances = walletAssetsToBalances({ '0x1': [native, nft] })
    expect(tokenList(balances).map((b) => b.symbol)).toEqual(['ETH'])
  })

  test.each<[unknown, string, boolean]>([
    [{ '0x1': { assetDiscovery: { supported: true } } }, '0x1', true],
    [{ '0x01': { assetDiscovery: { supported: true } } }, '0x1', true],
    [{ '0x0': { assetDiscovery: { supported: true } } }, '0x2105', true],
    [{ '0x1': { assetDiscovery: { supported: true } } }, '0x2105', false],
    [{ '0x1': { assetDiscovery: { supported: false } } }, '0x1', false],
    [{ '0x1': { assetDiscovery: { supported: 'true' } } }, '0x1', false],
    [{ '0x1': { assetDiscovery: true } }, '0x1', false],
    [{ '0x1': { atomic: { status: 'supported' } } }, '0x1', false],
    [{ '0x1': null }, '0x1', false],
    [null, '0x1', false],
    [undefined, '0x1', false],
    [{ '0x1': { assetDiscovery: { supported: true } } }, 'not hex', false],
  ])('capabilities %j on %s → %s', (capabilities, chain, expected) => {
    expect(supportsAssetDiscovery(capabilities, chain)).toBe(expected)
  })
})
