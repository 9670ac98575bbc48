import type { Transaction } from '@porthole/shared'
import { beforeEach, describe, expect, test, vi } from 'vitest'

// The data service is replaced at its module edge; the list's transitions are under test.
const edge = vi.hoisted(() => ({ history: vi.fn() }))
vi.mock('../api/blockchain.js', () => ({ getHistory: edge.history }))
vi.mock('./analytics.js', () => ({ reportError: () => {} }))

const Activity = await import('./activity.js')
const { store, initialState } = await import('../store/store.js')

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const tx = (id: string, chain = 'eip155:31337', minedAt = '2026-11-20T10:00:00Z'): Transaction => ({
  id,
  metadata: {
    operationType: 'receive',
    hash: `0x${id.padStart(64, '0')}`,
    minedAt,
    sentFrom: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    sentTo: ADDRESS,
    status: 'confirmed',
    nonce: 0,
    chain,
  },
  transfers: [
    {
      fungible_info: { name: 'Ether', symbol: 'ETH' },
      direction: 'in',
      quantity: { numeric: '1.5' },
    },
  ],
})

beforeEach(() => {
  edge.history.mockReset()
  store.setState(initialState())
  store.setState({
    connection: {
      status: 'connected',
      connector: { id: 'x', type: 'ANNOUNCED', name: 'X', uuid: 'u' },
      address: ADDRESS,
      caipNetworkId: 'eip155:31337',
    },
  })
})

describe('the Activity list', () => {
  test("no connected account: 'Transactions can't be fetched without an accountAddress', nothing asked", async () => {
    // Unit test: the Activity tab is drawn only for a connected account, so neither a host nor a
    // user reaches this in a browser; it is the guard a late Refresh (after a disconnect) meets.
    store.setState({
      connection: { status: 'disconnected', connector: null, address: null, caipNetworkId: null },
    })
    await expect(Activity.loadTransactions({ refresh: true })).rejects.toThrow(
      "Transactions can't be fetched without an accountAddress",
    )
    expect(edge.history).not.toHaveBeenCalled()
  })

  test('pages are appended by cursor; other chains are left out', async () => {
    edge.history.mockResolvedValueOnce({ data: [tx('1'), tx('9', 'eip155:1')], next: 'c1' })
    await Activity.loadTransactions()
    expect(edge.history).toHaveBeenLastCalledWith(ADDRESS, {
      chainId: 'eip155:31337',
      cursor: undefined,
    })
    expect(store.getState().activity).toMatchObject({ next: 'c1', empty: false, loading: false })
    edge.history.mockResolvedValueOnce({ data: [tx('2')], next: null })
    await Activity.loadTransactions({ more: true })
    expect(edge.history).toHaveBeenLastCalledWith(ADDRESS, {
      chainId: 'eip155:31337',
      cursor: 'c1',
    })
    expect(store.getState().activity.transactions.map((t) => t.id)).toEqual(['1', '2'])
    expect(store.getState().activity.next).toBeNull()
    // No cursor left: nothing more is asked.
    await Activity.loadTransactions({ more: true })
    expect(edge.history).toHaveBeenCalledTimes(2)
  })

  test("a failed fetch empties the list, clears the cursor and shows 'Failed to fetch transactions'", async () => {
    edge.history.mockResolvedValueOnce({ data: [tx('1')], next: 'c1' })
    await Activity.loadTransactions()
    edge.history.mockRejectedValueOnce(new Error('HTTP status code: 500'))
    await Activity.loadTransactions({ more: true })
    expect(store.getState().activity).toMatchObject({ transactions: [], empty: true, next: null })
    expect(store.getState().toast).toMatchObject({
      message: 'Failed to fetch transactions',
      variant: 'error',
    })
  })

  test('a refresh starts the list again; an empty answer sets empty', async () => {
    edge.history.mockResolvedValueOnce({ data: [tx('1')], next: 'c1' })
    await Activity.loadTransactions()
    edge.history.mockResolvedValueOnce({ data: [], next: null })
    await Activity.loadTransactions({ refresh: true })
    expect(store.getState().activity).toMatchObject({ transactions: [], empty: true, next: null })
  })
})
