import { HttpError } from '@porthole/shared'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import {
  type Received,
  type RecordingServer,
  startRecordingServer,
} from '../../test/recordingServer.js'
import {
  BlockchainApiResponseError,
  getBalances,
  getHistory,
  getIdentity,
  getNfts,
  getPrices,
  getSupportedChains,
} from './blockchain.js'
import { configureApi } from './client.js'

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

/** What the next request is answered with. */
let answer: { status: number; body: unknown } = { status: 200, body: {} }
let server: RecordingServer
let received: Received[] = []

beforeAll(async () => {
  server = await startRecordingServer(() => answer)
  received = server.received
  configureApi(server.url, 'proj')
})
afterAll(() => server.close())
beforeEach(() => {
  received.length = 0
})

const sdk = { projectId: 'proj', st: 'porthole', sv: '0.1.0' }

const balance = {
  name: 'Ether',
  symbol: 'ETH',
  chainId: 'eip155:31337',
  price: 3000,
  value: 3000,
  quantity: { decimals: '18', numeric: '1' },
  iconUrl: 'https://example.com/eth.png',
}
const transaction = {
  id: 't1',
  metadata: {
    operationType: 'receive',
    hash: `0x${'ab'.repeat(32)}`,
    minedAt: '2024-06-01T00:00:00Z',
    sentFrom: ALICE,
    sentTo: ALICE,
    status: 'confirmed',
    nonce: 0,
    chain: 'eip155:31337',
  },
  transfers: [
    {
      fungible_info: { name: 'Ether', symbol: 'ETH' },
      direction: 'in',
      quantity: { numeric: '1' },
    },
  ],
}

describe('blockchain data service calls (spec §7)', () => {
  test.each<[string, () => Promise<unknown>, unknown, Omit<Received, 'body'> & { body?: unknown }]>(
    [
      [
        'getSupportedChains',
        () => getSupportedChains(),
        { http: ['eip155:31337'], ws: [] },
        { method: 'GET', path: '/v1/supported-chains', query: sdk },
      ],
      [
        'getIdentity',
        () => getIdentity(ALICE, { sender: ALICE }),
        { name: 'alice.eth', avatar: null },
        { method: 'GET', path: `/v1/identity/${ALICE}`, query: { ...sdk, sender: ALICE } },
      ],
      [
        'getBalances',
        () => getBalances(ALICE, { chainId: 'eip155:31337' }),
        { balances: [balance] },
        {
          method: 'GET',
          path: `/v1/account/${ALICE}/balance`,
          query: { ...sdk, currency: 'usd', chainId: 'eip155:31337' },
        },
      ],
      [
        'getBalances forced',
        () => getBalances(ALICE, { chainId: 'eip155:31337', forceUpdate: true }),
        { balances: [] },
        {
          method: 'GET',
          path: `/v1/account/${ALICE}/balance`,
          query: { ...sdk, currency: 'usd', chainId: 'eip155:31337', forceUpdate: 'true' },
        },
      ],
      [
        'getHistory',
        () => getHistory(ALICE, { chainId: 'eip155:31337', cursor: 'c1' }),
        { data: [transaction], next: 'c2' },
        {
          method: 'GET',
          path: `/v1/account/${ALICE}/history`,
          query: { ...sdk, chainId: 'eip155:31337', cursor: 'c1' },
        },
      ],
      [
        'getHistory first page',
        () => getHistory(ALICE, { cursor: null }),
        { data: [], next: null },
        { method: 'GET', path: `/v1/account/${ALICE}/history`, query: sdk },
      ],
      [
        'getNfts',
        () => getNfts(ALICE, { chainId: 'eip155:31337' }),
        {
          data: [
            {
              chainId: 'eip155:31337',
              contract: 'eip155:31337:0x1',
              tokenId: '3',
              name: 'Cat #3',
              imageUrl: null,
              collection: { name: 'Cats', symbol: 'CAT' },
              spam: false,
            },
          ],
          next: null,
        },
        {
          method: 'GET',
          path: `/v1/account/${ALICE}/nfts`,
          query: { ...sdk, chainId: 'eip155:31337' },
        },
      ],
      [
        'getPrices',
        () => getPrices(['eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3']),
        { fungibles: [{ name: 'pUSD', symbol: 'pUSD', iconUrl: '', price: 1 }] },
        {
          method: 'POST',
          path: '/v1/fungible/price',
          query: sdk,
          body: {
            projectId: 'proj',
            currency: 'usd',
            addresses: ['eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3'],
          },
        },
      ],
    ],
  )('%s asks the right URL and returns the parsed answer', async (_, call, body, request) => {
    answer = { status: 200, body }
    expect(await call()).toEqual(body)
    expect(received).toEqual([{ body: undefined, ...request }])
  })

  test('a CAIP-10 account is one path segment', async () => {
    answer = { status: 200, body: { data: [], next: null } }
    await getHistory(`eip155:1:${ALICE}`)
    expect(received[0]?.path).toBe(`/v1/account/eip155%3A1%3A${ALICE}/history`)
  })
})

describe('answers that do not parse', () => {
  test.each<[string, () => Promise<unknown>, unknown, string, string]>([
    [
      'balances without a list',
      () => getBalances(ALICE, { chainId: 'eip155:1' }),
      { balance: [] },
      `GET /v1/account/${ALICE}/balance`,
      'balances',
    ],
    [
      'a balance whose price is text',
      () => getBalances(ALICE, { chainId: 'eip155:1' }),
      { balances: [{ ...balance, price: '3000' }] },
      `GET /v1/account/${ALICE}/balance`,
      'balances.0.price',
    ],
    [
      'history without next',
      () => getHistory(ALICE),
      { data: [] },
      `GET /v1/account/${ALICE}/history`,
      'next',
    ],
    [
      'a transaction with an unknown status',
      () => getHistory(ALICE),
      {
        data: [{ ...transaction, metadata: { ...transaction.metadata, status: 'lost' } }],
        next: null,
      },
      `GET /v1/account/${ALICE}/history`,
      'data.0.metadata.status',
    ],
    [
      'an identity as text',
      () => getIdentity(ALICE),
      'alice.eth',
      `GET /v1/identity/${ALICE}`,
      'body',
    ],
    [
      'supported chains as null',
      () => getSupportedChains(),
      null,
      'GET /v1/supported-chains',
      'body',
    ],
    ['prices without fungibles', () => getPrices([]), {}, 'POST /v1/fungible/price', 'fungibles'],
  ])('%s → a clear error', async (_, call, body, endpoint, where) => {
    answer = { status: 200, body }
    const error = await call().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BlockchainApiResponseError)
    expect((error as BlockchainApiResponseError).shortMessage).toBe(
      `Unexpected response from ${endpoint}`,
    )
    expect((error as BlockchainApiResponseError).details).toMatch(
      new RegExp(`^${where.replace(/\./g, '\\.')}: `),
    )
  })

  test('a non-OK status is the HTTP helper’s error', async () => {
    answer = { status: 503, body: { code: 'UPSTREAM_UNAVAILABLE' } }
    const error = await getBalances(ALICE, { chainId: 'eip155:1' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('HTTP status code: 503')
    expect((error as HttpError).status).toBe(503)
  })
})
