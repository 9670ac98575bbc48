import { type Hex, pad, toHex } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  accountRows,
  classifyTransferLog,
  decodeRange,
  type RpcBlock,
  type RpcLog,
  TRANSFER_TOPIC,
  tokenKey,
  ZERO_ADDRESS,
} from './decode.js'

const A = '0x00000000000000000000000000000000000000aa'
const B = '0x00000000000000000000000000000000000000bb'
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const word = (value: bigint | string): Hex =>
  typeof value === 'bigint' ? pad(toHex(value), { size: 32 }) : pad(value as Hex, { size: 32 })

describe('classifyTransferLog', () => {
  test.each([
    [
      'ERC-20: 3 topics and a 32-byte amount',
      { topics: [TRANSFER_TOPIC, word(A), word(B)], data: word(1500n) },
      { kind: 'erc20', token: TOKEN, from: A, to: B, amount: 1500n },
    ],
    [
      'ERC-721: 4 topics, the token id indexed, no data',
      { topics: [TRANSFER_TOPIC, word(ZERO_ADDRESS), word(B), word(7n)], data: '0x' },
      { kind: 'erc721', token: TOKEN, from: ZERO_ADDRESS, to: B, tokenId: 7n },
    ],
    ['another event', { topics: [word(1n), word(A), word(B)], data: word(1n) }, undefined],
    [
      'ERC-20 shape without data',
      { topics: [TRANSFER_TOPIC, word(A), word(B)], data: '0x' },
      undefined,
    ],
    ['too few topics', { topics: [TRANSFER_TOPIC, word(A)], data: word(1n) }, undefined],
    [
      'ERC-721 shape with data',
      { topics: [TRANSFER_TOPIC, word(A), word(B), word(1n)], data: word(1n) },
      undefined,
    ],
  ] as const)('%s', (_, log, expected) => {
    expect(
      classifyTransferLog({
        address: TOKEN.toUpperCase().replace('0X', '0x') as Hex,
        ...log,
      } as never),
    ).toEqual(expected)
  })
})

const block = (number: number, transactions: RpcBlock['transactions']): RpcBlock => ({
  number: toHex(number),
  hash: pad(toHex(number + 1000), { size: 32 }),
  parentHash: pad(toHex(number + 999), { size: 32 }),
  timestamp: toHex(1_700_000_000 + number * 12),
  transactions,
})
const tx = (hash: number, from: string, to: string | null, value: bigint, index = 0) => ({
  hash: pad(toHex(hash), { size: 32 }),
  from: from as Hex,
  to: to as Hex | null,
  value: toHex(value),
  nonce: toHex(hash),
  transactionIndex: toHex(index),
})
const log = (
  blockNumber: number,
  txHash: number,
  logIndex: number,
  topics: Hex[],
  data: Hex,
): RpcLog => ({
  address: TOKEN,
  topics,
  data,
  blockNumber: toHex(blockNumber),
  blockHash: pad(toHex(blockNumber + 1000), { size: 32 }),
  transactionHash: pad(toHex(txHash), { size: 32 }),
  transactionIndex: '0x0',
  logIndex: toHex(logIndex),
})

describe('decodeRange', () => {
  const blocks = [
    block(1, [tx(1, A, B, 10n ** 18n), tx(2, A, TOKEN, 0n, 1)]),
    block(2, [tx(3, B, A, 5n, 0), tx(4, A, null, 1n, 1)]),
  ]
  const logs = [
    log(1, 2, 0, [TRANSFER_TOPIC, word(A), word(B)], word(250n)),
    log(1, 2, 1, [TRANSFER_TOPIC, word(ZERO_ADDRESS), word(A), word(3n)], '0x'),
    log(2, 3, 0, [word(9n)], '0x'),
  ]
  const receipts = new Map([
    [
      blocks[0]!.transactions[0]!.hash.toLowerCase(),
      { transactionHash: blocks[0]!.transactions[0]!.hash, status: '0x1' as Hex },
    ],
    [
      blocks[1]!.transactions[0]!.hash.toLowerCase(),
      { transactionHash: blocks[1]!.transactions[0]!.hash, status: '0x0' as Hex },
    ],
    [
      blocks[1]!.transactions[1]!.hash.toLowerCase(),
      {
        transactionHash: blocks[1]!.transactions[1]!.hash,
        status: '0x1' as Hex,
        contractAddress: '0x00000000000000000000000000000000000000cc' as Hex,
      },
    ],
  ])
  const decoded = decodeRange({ chainId: 'eip155:1', blocks, logs, receipts })

  test('native value, ERC-20 and ERC-721 transfers in chain order; zero-value calls only through logs', () => {
    expect(
      decoded.transfers.map((t) => [t.kind, t.from, t.to, t.amount, t.tokenId, t.logIndex]),
    ).toEqual([
      ['native', A, B, '1000000000000000000', null, -1],
      ['erc20', A, B, '250', null, 0],
      ['erc721', ZERO_ADDRESS, A, '1', '3', 1],
      ['native', B, A, '5', null, -1],
      ['native', A, '0x00000000000000000000000000000000000000cc', '1', null, -1],
    ])
  })

  test('transactions with status from the receipt, times in ms', () => {
    expect(
      decoded.transactions.map((t) => [Number(BigInt(t.hash)), t.status, t.timestamp, t.to]),
    ).toEqual([
      [1, 'confirmed', 1_700_000_012_000, B],
      [2, 'confirmed', 1_700_000_012_000, TOKEN],
      [3, 'failed', 1_700_000_024_000, A],
      [4, 'confirmed', 1_700_000_024_000, null],
    ])
    expect(decoded.blocks.map((b) => b.number)).toEqual([1, 2])
  })

  test('account rows: one per account and transaction, tokens touched, last NFT owner; never the zero address', () => {
    const rows = accountRows(decoded.transfers, decoded.transactions)
    expect(rows.accountTxs.map((r) => [r.account, Number(BigInt(r.txHash))])).toEqual([
      [A, 1],
      [B, 1],
      [A, 2],
      [B, 2],
      [B, 3],
      [A, 3],
      [A, 4],
      ['0x00000000000000000000000000000000000000cc', 4],
    ])
    expect(rows.accountTokens.map((r) => [r.account, r.kind])).toEqual([
      [A, 'erc20'],
      [B, 'erc20'],
    ])
    expect(rows.nftOwners).toEqual([
      { chainId: 'eip155:1', contract: TOKEN, tokenId: '3', owner: A, blockNumber: 1, logIndex: 1 },
    ])
  })
})

test('tokenKey sorts like the number', () => {
  const ids = ['10', '9', '255', '1', String(2n ** 256n - 1n)]
  expect([...ids].sort((a, b) => (tokenKey(a) < tokenKey(b) ? -1 : 1))).toEqual([
    '1',
    '9',
    '10',
    '255',
    String(2n ** 256n - 1n),
  ])
})
