import type { HistoryResponse, Transaction, TransactionTransfer } from '@porthole/shared'
import { describe, expect, test } from 'vitest'
import {
  formatTransferQuantity,
  groupByYearAndMonth,
  initialTransactionListState,
  isSpamTransaction,
  operationSign,
  operationTitle,
  type TransactionListState,
  transactionDescriptions,
  transactionGroups,
  transactionsFetched,
  transactionsFetchFailed,
  transactionsFetchStarted,
  visibleTransactions,
} from './activity.js'

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const DEVNET = 'eip155:31337'

function fungible(
  symbol: string,
  numeric: string,
  direction: TransactionTransfer['direction'] = 'in',
): TransactionTransfer {
  return { fungible_info: { name: symbol, symbol }, direction, quantity: { numeric } }
}

function nft(name: string, spam: boolean, numeric = '1'): TransactionTransfer {
  return {
    nft_info: { name, content: { preview: null, detail: null }, flags: { is_spam: spam } },
    direction: 'in',
    quantity: { numeric },
  }
}

let nextId = 0
function tx(
  overrides: {
    id?: string
    minedAt?: string
    chain?: string
    operationType?: string
    transfers?: TransactionTransfer[]
  } = {},
): Transaction {
  return {
    id: overrides.id ?? `tx${nextId++}`,
    metadata: {
      operationType: overrides.operationType ?? 'receive',
      hash: `0x${'ab'.repeat(32)}`,
      minedAt: overrides.minedAt ?? '2024-06-01T12:00:00Z',
      sentFrom: BOB,
      sentTo: ALICE,
      status: 'confirmed',
      nonce: 1,
      chain: overrides.chain ?? DEVNET,
    },
    transfers: overrides.transfers ?? [fungible('ETH', '1')],
  }
}

describe('spam and chain filters (spec §5)', () => {
  test.each<[string, TransactionTransfer[], boolean]>([
    ['every transfer a spam NFT', [nft('Free Airdrop', true), nft('Claim now', true)], true],
    ['one spam NFT', [nft('Free Airdrop', true)], true],
    ['a spam NFT next to a real one', [nft('Free Airdrop', true), nft('Cat #1', false)], false],
    ['a spam NFT next to a fungible', [nft('Free Airdrop', true), fungible('ETH', '1')], false],
    ['an NFT that is not spam', [nft('Cat #1', false)], false],
    ['fungibles only', [fungible('ETH', '1')], false],
    ['no transfers at all', [], false],
  ])('%s → spam: %s', (_, transfers, spam) => {
    expect(isSpamTransaction(tx({ transfers }))).toBe(spam)
  })

  test('only non-spam transactions of the active chain are visible', () => {
    const kept = tx({ id: 'kept' })
    const approval = tx({ id: 'approval', operationType: 'approve', transfers: [] })
    const transactions = [
      kept,
      tx({ id: 'spam', transfers: [nft('Free Airdrop', true)] }),
      tx({ id: 'other-chain', chain: 'eip155:31338' }),
      tx({ id: 'caip-prefix', chain: 'eip155:313370' }),
      approval,
    ]
    expect(visibleTransactions({ transactions, caipNetworkId: DEVNET })).toEqual([kept, approval])
  })
})

describe('grouping by year and month (spec §2)', () => {
  const now = Date.parse('2025-02-10T12:00:00Z')
  const transactions = [
    tx({ id: 'feb-25-a', minedAt: '2025-02-03T10:00:00Z' }),
    tx({ id: 'jan-25', minedAt: '2025-01-31T23:00:00Z' }),
    tx({ id: 'feb-25-b', minedAt: '2025-02-09T10:00:00Z' }),
    tx({ id: 'dec-24', minedAt: '2024-12-24T10:00:00Z' }),
    tx({ id: 'mar-23', minedAt: '2023-03-01T00:00:00Z' }),
  ]

  test('groups newest first, titled by month, with the year when it is not the current one', () => {
    const transactionsByYear = groupByYearAndMonth({ transactions, timeZone: 'UTC' })
    const groups = transactionGroups({ transactionsByYear, now, timeZone: 'UTC' })
    expect(groups.map((g) => [g.title, g.transactions.map((t) => t.id)])).toEqual([
      ['February', ['feb-25-b', 'feb-25-a']],
      ['January', ['jan-25']],
      ['December 2024', ['dec-24']],
      ['March 2023', ['mar-23']],
    ])
  })

  test('month boundaries follow the time zone', () => {
    const transactionsByYear = groupByYearAndMonth({ transactions, timeZone: 'Asia/Tokyo' })
    const groups = transactionGroups({ transactionsByYear, now, timeZone: 'Asia/Tokyo' })
    // 2025-01-31T23:00Z is February 1st in Tokyo.
    expect(groups[0]?.transactions.map((t) => t.id)).toEqual(['feb-25-b', 'feb-25-a', 'jan-25'])
  })

  test('the current year follows now: the same data a year later shows years', () => {
    const transactionsByYear = groupByYearAndMonth({ transactions, timeZone: 'UTC' })
    const later = Date.parse('2026-01-01T00:00:00Z')
    const titles = transactionGroups({ transactionsByYear, now: later, timeZone: 'UTC' }).map(
      (g) => g.title,
    )
    expect(titles).toEqual(['February 2025', 'January 2025', 'December 2024', 'March 2023'])
  })

  test('a later page adds to earlier groups without modifying them', () => {
    const first = groupByYearAndMonth({ transactions: transactions.slice(0, 2), timeZone: 'UTC' })
    const snapshot = structuredClone(first)
    const second = groupByYearAndMonth({
      transactions: transactions.slice(2),
      into: first,
      timeZone: 'UTC',
    })
    expect(first).toEqual(snapshot)
    expect(second[2025]?.[1]?.map((t) => t.id)).toEqual(['feb-25-a', 'feb-25-b'])
    expect(second[2024]?.[11]?.map((t) => t.id)).toEqual(['dec-24'])
  })

  test('a pending transaction without a mined time goes under the current month, first', () => {
    const pending = tx({ id: 'pending', minedAt: '' })
    const transactionsByYear = groupByYearAndMonth({
      transactions: [transactions[0]!, pending],
      now,
      timeZone: 'UTC',
    })
    const groups = transactionGroups({ transactionsByYear, now, timeZone: 'UTC' })
    expect(groups[0]?.transactions.map((t) => t.id)).toEqual(['pending', 'feb-25-a'])
  })

  test('month names follow the locale', () => {
    const transactionsByYear = groupByYearAndMonth({ transactions, timeZone: 'UTC' })
    const groups = transactionGroups({ transactionsByYear, now, timeZone: 'UTC', locale: 'fr' })
    expect(groups[0]?.title).toBe('février')
  })
})

describe('signs by operation type (spec §9)', () => {
  test.each<[string, string]>([
    ['receive', '+'],
    ['deposit', '+'],
    ['borrow', '+'],
    ['claim', '+'],
    ['mint', ''],
    ['withdraw', '-'],
    ['repay', '-'],
    ['burn', '-'],
    ['send', ''],
    ['trade', ''],
    ['approve', ''],
    ['execute', ''],
    ['deploy', ''],
  ])('%s → %j', (type, sign) => {
    expect(operationSign(type)).toBe(sign)
  })
})

describe('descriptions (spec §9)', () => {
  test.each<[string, string, string]>([
    ['1.5', 'ETH', '1.500'],
    ['0.0004', 'ETH', '0.000'],
    ['1234.56789', 'pUSD', '1,234.567'],
    ['25', 'PRT', '25.000'],
  ])('quantity %s is fixed at 3 decimals: %s', (numeric, _, expected) => {
    expect(formatTransferQuantity(numeric)).toBe(expected)
  })

  test.each<[string, TransactionTransfer[], string[]]>([
    ['receive', [fungible('ETH', '1.5', 'in')], ['+1.500 ETH']],
    ['send', [fungible('pUSD', '25', 'out')], ['-25.000 pUSD']],
    ['mint', [nft('Porthole Cat #3', false)], ['+Porthole Cat #3']],
    ['mint', [nft('Porthole Cat #3', false, '2')], ['+2 Porthole Cat #3']],
    ['burn', [fungible('PRT', '0.25', 'out')], ['-0.250 PRT']],
    ['execute', [fungible('ETH', '2', 'in')], ['+2.000 ETH']],
    ['execute', [fungible('ETH', '2', 'self')], ['2.000 ETH']],
    [
      'trade',
      [fungible('pUSD', '10', 'out'), fungible('ETH', '0.0031', 'in')],
      ['-10.000 pUSD', '+0.003 ETH'],
    ],
  ])('%s of %j → %j', (operationType, transfers, expected) => {
    expect(transactionDescriptions(tx({ operationType, transfers }))).toEqual(expected)
  })

  test('a transaction without transfers shows its addresses, first 4 and last 6 characters', () => {
    expect(transactionDescriptions(tx({ operationType: 'approve', transfers: [] }))).toEqual([
      '0x70…dc79C8',
      '0xf3…b92266',
    ])
  })

  test.each([
    ['send', 'Sent'],
    ['receive', 'Received'],
    ['trade', 'Swapped'],
    ['mint', 'Minted'],
    ['bridge', 'Bridge'],
  ])('title of %s is %s', (type, title) => {
    expect(operationTitle(type)).toBe(title)
  })
})

describe('transaction list state (spec §3, §4)', () => {
  const page = (data: Transaction[], next: string | null): HistoryResponse => ({ data, next })
  const apply = (state: TransactionListState, response: HistoryResponse, network = DEVNET) =>
    transactionsFetched(state, { response, caipNetworkId: network, timeZone: 'UTC' })

  test('a fetch turns loading on and keeps the list', () => {
    const state = apply(initialTransactionListState, page([tx({ id: 'a' })], 'c1'))
    const loading = transactionsFetchStarted(state)
    expect(loading.loading).toBe(true)
    expect(loading.transactions).toBe(state.transactions)
  })

  test('each page appends, keeps the cursor, and fills the groups', () => {
    let state = transactionsFetchStarted(initialTransactionListState)
    state = apply(state, page([tx({ id: 'a', minedAt: '2024-06-02T00:00:00Z' })], 'c1'))
    expect(state).toMatchObject({ loading: false, empty: false, next: 'c1' })
    state = apply(state, page([tx({ id: 'b', minedAt: '2024-05-02T00:00:00Z' })], null))
    expect(state.transactions.map((t) => t.id)).toEqual(['a', 'b'])
    expect(state.next).toBeNull()
    expect(Object.keys(state.transactionsByYear[2024] ?? {})).toEqual(['4', '5'])
    expect(state.lastNetworkInView).toBe(DEVNET)
  })

  test('spam and other chains are left out, and an empty result sets empty', () => {
    const state = apply(
      initialTransactionListState,
      page([tx({ transfers: [nft('Airdrop', true)] }), tx({ chain: 'eip155:1' })], 'c2'),
    )
    expect(state.transactions).toEqual([])
    expect(state.empty).toBe(true)
    expect(state.next).toBe('c2')
  })

  test('a transaction that arrives twice is listed once', () => {
    let state = apply(initialTransactionListState, page([tx({ id: 'a' })], 'c1'))
    state = apply(state, page([tx({ id: 'a' }), tx({ id: 'b' })], null))
    expect(state.transactions.map((t) => t.id)).toEqual(['a', 'b'])
  })

  test('a page for another network starts a new list', () => {
    let state = apply(initialTransactionListState, page([tx({ id: 'a' })], 'c1'))
    state = apply(state, page([tx({ id: 'b', chain: 'eip155:31338' })], null), 'eip155:31338')
    expect(state.transactions.map((t) => t.id)).toEqual(['b'])
    expect(state.lastNetworkInView).toBe('eip155:31338')
    expect(Object.values(state.transactionsByYear[2024] ?? {}).flat().length).toBe(1)
  })

  test('a failed fetch empties the list, sets empty and clears the cursor', () => {
    const state = apply(initialTransactionListState, page([tx({ id: 'a' })], 'c1'))
    expect(transactionsFetchFailed(transactionsFetchStarted(state))).toEqual({
      transactions: [],
      transactionsByYear: {},
      lastNetworkInView: DEVNET,
      loading: false,
      empty: true,
      next: null,
    })
  })
})
