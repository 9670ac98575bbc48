import { Transaction } from '@porthole/shared'
import { describe, expect, test } from 'vitest'
import { ZERO_ADDRESS } from './decode.js'
import {
  type AssetInfo,
  buildTransaction,
  decodeCursor,
  encodeCursor,
  formatQuantity,
  type HistoryTransfer,
  InvalidCursorError,
  operationType,
  transferDirection,
} from './history.js'

const ME = '0x00000000000000000000000000000000000000aa'
const YOU = '0x00000000000000000000000000000000000000bb'
const TOKEN = '0x00000000000000000000000000000000000000cc'
const NFT = '0x00000000000000000000000000000000000000dd'

test.each([
  [ME, YOU, 'out'],
  [YOU, ME, 'in'],
  [ME, ME, 'self'],
  [ZERO_ADDRESS, ME, 'in'],
] as const)('transfer %s → %s is %s for the account', (from, to, direction) => {
  expect(transferDirection({ from, to }, ME)).toBe(direction)
})

test.each([
  ['send', [{ from: ME, to: YOU }]],
  ['receive', [{ from: YOU, to: ME }]],
  ['mint', [{ from: ZERO_ADDRESS, to: ME }]],
  [
    'mint',
    [
      { from: ZERO_ADDRESS, to: ME },
      { from: ZERO_ADDRESS, to: ME },
    ],
  ],
  ['burn', [{ from: ME, to: ZERO_ADDRESS }]],
  [
    'execute',
    [
      { from: ME, to: YOU },
      { from: YOU, to: ME },
    ],
  ],
  ['execute', [{ from: ME, to: ME }]],
  ['execute', []],
  [
    'send',
    [
      { from: ME, to: YOU },
      { from: ME, to: TOKEN },
    ],
  ],
] as const)('operation type is %s for %j', (expected, transfers) => {
  expect(operationType(transfers, ME)).toBe(expected)
})

test.each([
  ['1500000', 6, '1.5'],
  ['1000000000000000000', 18, '1'],
  ['1', 18, '0.000000000000000001'],
  ['0', 6, '0'],
  ['123456789', 0, '123456789'],
  [10n ** 24n + 5n * 10n ** 17n, 18, '1000000.5'],
] as const)('formatQuantity(%s, %i) = %s', (amount, decimals, expected) => {
  expect(formatQuantity(amount, decimals)).toBe(expected)
})

describe('cursors', () => {
  test('round-trip and are opaque base64url', () => {
    const position = {
      timestamp: 1_700_000_000_000,
      chainId: 'eip155:31337',
      blockNumber: 42,
      index: 3,
    }
    const cursor = encodeCursor(position)
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeCursor(cursor)).toEqual(position)
  })

  test.each([
    ['garbage', 'not a cursor'],
    ['bad characters', 'abc$%'],
    ['JSON of the wrong shape', Buffer.from('{"a":1}').toString('base64url')],
    ['a non-EVM chain', Buffer.from('[1,"solana:x",1,1]').toString('base64url')],
    ['a negative time', Buffer.from('[-1,"eip155:1",1,1]').toString('base64url')],
    ['too long', 'a'.repeat(300)],
  ])('refuse %s', (_, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(InvalidCursorError)
  })
})

const assets: AssetInfo = {
  native: () => ({ name: 'Ether', symbol: 'ETH', decimals: 18 }),
  token: (_, address) =>
    address === TOKEN
      ? {
          chainId: 'eip155:1',
          address,
          kind: 'erc20',
          name: 'Porthole USD',
          symbol: 'pUSD',
          decimals: 6,
        }
      : address === NFT
        ? {
            chainId: 'eip155:1',
            address,
            kind: 'erc721',
            name: 'Porthole Pals',
            symbol: 'PALS',
            decimals: 0,
          }
        : undefined,
  nft: (_, __, tokenId) =>
    tokenId === '1' ? { name: 'Pal One', image: 'https://img.test/1.svg' } : undefined,
  icon: (symbol) => `https://api.test/public/getTokenImage/${symbol.toLowerCase()}`,
  isSpam: (_, contract) => contract === NFT,
  price: (_, token) => (token === '' ? 3000 : token === TOKEN ? 1 : undefined),
}
const tx = {
  chainId: 'eip155:1',
  hash: '0xabc',
  timestamp: Date.UTC(2025, 11, 31, 23, 59),
  from: ME,
  to: TOKEN,
  nonce: 7,
  status: 'confirmed' as const,
}
const transfer = (t: Partial<HistoryTransfer>): HistoryTransfer => ({
  kind: 'native',
  token: '',
  from: ME,
  to: YOU,
  amount: '0',
  tokenId: null,
  logIndex: -1,
  ...t,
})

describe('buildTransaction', () => {
  test('a token send: counterparty as sentTo, quantity, price and value, icon', () => {
    const entry = buildTransaction(
      tx,
      [transfer({ kind: 'erc20', token: TOKEN, amount: '2500000', logIndex: 4 })],
      ME,
      assets,
    )
    expect(Transaction.parse(entry)).toEqual({
      id: 'eip155:1:0xabc',
      metadata: {
        operationType: 'send',
        hash: '0xabc',
        minedAt: '2025-12-31T23:59:00.000Z',
        sentFrom: '0x00000000000000000000000000000000000000AA',
        sentTo: '0x00000000000000000000000000000000000000bb',
        status: 'confirmed',
        nonce: 7,
        chain: 'eip155:1',
      },
      transfers: [
        {
          fungible_info: {
            name: 'Porthole USD',
            symbol: 'pUSD',
            icon: { url: 'https://api.test/public/getTokenImage/pusd' },
          },
          direction: 'out',
          quantity: { numeric: '2.5' },
          price: 1,
          value: 2.5,
        },
      ],
    })
  })

  test('keeps only the account’s transfers, native first; NFTs with image, name fallback and spam flag', () => {
    const entry = buildTransaction(
      tx,
      [
        transfer({
          kind: 'erc721',
          token: NFT,
          from: YOU,
          to: ME,
          amount: '1',
          tokenId: '2',
          logIndex: 3,
        }),
        transfer({ kind: 'erc20', token: TOKEN, from: YOU, to: TOKEN, amount: '1', logIndex: 1 }),
        transfer({ kind: 'native', amount: '500000000000000000', logIndex: -1 }),
        transfer({
          kind: 'erc721',
          token: NFT,
          from: ZERO_ADDRESS,
          to: ME,
          amount: '1',
          tokenId: '1',
          logIndex: 2,
        }),
      ],
      ME,
      assets,
    )
    Transaction.parse(entry)
    expect(entry.metadata.operationType).toBe('execute')
    expect(
      entry.transfers.map((t) => [
        t.direction,
        t.quantity.numeric,
        t.fungible_info?.symbol ?? t.nft_info?.name,
      ]),
    ).toEqual([
      ['out', '0.5', 'ETH'],
      ['in', '1', 'Pal One'],
      ['in', '1', 'Porthole Pals #2'],
    ])
    expect(entry.transfers[1]!.nft_info).toEqual({
      name: 'Pal One',
      content: {
        preview: { url: 'https://img.test/1.svg', content_type: 'image/svg+xml' },
        detail: { url: 'https://img.test/1.svg', content_type: 'image/svg+xml' },
      },
      flags: { is_spam: true },
    })
    expect(entry.transfers[2]!.nft_info!.content.preview).toBeNull()
    expect(entry.transfers[0]).toMatchObject({ price: 3000, value: 1500 })
  })

  test('an unknown token has no price and an empty name; a failed transaction says so', () => {
    const entry = buildTransaction(
      { ...tx, status: 'failed' },
      [
        transfer({
          kind: 'erc20',
          token: '0x00000000000000000000000000000000000000ee',
          from: YOU,
          to: ME,
          amount: '5',
          logIndex: 0,
        }),
      ],
      ME,
      assets,
    )
    Transaction.parse(entry)
    expect(entry.metadata).toMatchObject({ status: 'failed', operationType: 'receive' })
    expect(entry.transfers[0]).not.toHaveProperty('price')
    expect(entry.transfers[0]!.quantity.numeric).toBe('5')
  })
})
