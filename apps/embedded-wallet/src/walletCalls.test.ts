import { describe, expect, test } from 'vitest'
import {
  CALLS_ERROR_CODES,
  callsStatusOf,
  capabilitiesOf,
  MAX_CALLS,
  parseSendCalls,
  parseWalletCall,
  type RpcUserOperationReceipt,
  requestedChainIds,
  SESSION_CAPABILITY,
} from './walletCalls.js'

const API = 'http://127.0.0.1:4300'
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const batch = (over: Record<string, unknown> = {}) => [
  { version: '2.0.0', chainId: '0x7a69', atomicRequired: true, calls: [{ to: TO }], ...over },
]
const refusal = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return { code: (error as { code: number }).code, message: (error as Error).message }
  }
  throw new Error('accepted')
}

describe('wallet_sendCalls params', () => {
  test('a valid batch: chain id, calls with value and data, atomic by default', () => {
    expect(
      parseSendCalls(
        [
          {
            version: '2.0.0',
            chainId: '0x7a69',
            from: TO,
            calls: [
              { to: TO, value: '0x10', data: '0xabcd' },
              { to: TO, data: '0x' },
            ],
          },
        ],
        { apiOrigin: API },
      ),
    ).toEqual({
      version: '2.0.0',
      id: undefined,
      chainId: 31337,
      from: TO,
      calls: [
        { to: TO, value: 16n, data: '0xabcd' },
        { to: TO, value: 0n, data: undefined },
      ],
      atomicRequired: true,
      paymasterContext: undefined,
      sponsorRequired: false,
    })
  })

  test.each([
    [{ calls: [{ to: 'abc' }] }, -32602, "Call 1: 'to' must start with 0x"],
    [{ calls: [{ to: TO }, { data: '0x' }] }, -32602, "Call 2: 'to' must start with 0x"],
    [{ calls: [{ to: TO, data: 'abcd' }] }, -32602, "Call 1: 'data' must start with 0x"],
    [{ calls: [{ to: TO, data: '0xzz' }] }, -32602, "Call 1: 'data' is not hex"],
    [{ calls: [{ to: TO, value: 5 }] }, -32602, "Call 1: 'value' must be a hex quantity"],
    [{ calls: [] }, -32602, 'calls must hold at least one call'],
    [{ chainId: 31337 }, -32602, 'chainId must be a hex chain id'],
    [{ version: undefined }, -32602, 'version is required'],
    [{ from: 'me' }, -32602, 'from must be an address'],
    [{ atomicRequired: 'yes' }, -32602, 'atomicRequired must be a boolean'],
    [{ id: '' }, -32602, 'id must be a string'],
    [
      { calls: Array.from({ length: MAX_CALLS + 1 }, () => ({ to: TO })) },
      CALLS_ERROR_CODES.bundleTooLarge,
      'Bundle too large',
    ],
    [{ capabilities: { flashLoans: {} } }, 5700, 'Unsupported non-optional capability: flashLoans'],
    [
      { calls: [{ to: TO, capabilities: { flashLoans: { optional: false } } }] },
      5700,
      'Unsupported non-optional capability: flashLoans',
    ],
    [
      { capabilities: { paymasterService: { url: 'https://paymaster.example/rpc' } } },
      5700,
      'Unsupported non-optional capability: paymasterService',
    ],
  ])('refuses %j', (over, code, message) => {
    const refused = refusal(() => parseSendCalls(batch(over), { apiOrigin: API }))
    expect(refused.code).toBe(code)
    expect(refused.message).toContain(message)
  })

  test('paymasterService: the API’s (or none named) is honoured with its context; optional ones elsewhere are dropped', () => {
    const own = parseSendCalls(
      batch({
        capabilities: { paymasterService: { url: `${API}/v1?chainId=x`, context: { a: 1 } } },
      }),
      { apiOrigin: API },
    )
    expect(own).toMatchObject({ paymasterContext: { a: 1 }, sponsorRequired: true })
    const optional = parseSendCalls(
      batch({
        capabilities: {
          paymasterService: { url: 'https://elsewhere.example', optional: true },
          flashLoans: { optional: true },
        },
      }),
      { apiOrigin: API },
    )
    expect(optional).toMatchObject({ paymasterContext: undefined, sponsorRequired: false })
  })

  test('one call checked alone (eth_sendTransaction from the smart account)', () => {
    expect(parseWalletCall({ to: TO, value: '0x1' }, 0)).toEqual({
      to: TO,
      value: 1n,
      data: undefined,
    })
  })
})

describe('capabilities and status', () => {
  test('the smart account’s networks batch atomically with a paymaster; others do not', () => {
    expect(capabilitiesOf({ chainIds: [31337, 1], smartAccount: (id) => id === 31337 })).toEqual({
      '0x7a69': {
        atomic: { status: 'supported' },
        paymasterService: { supported: true },
        permissions: SESSION_CAPABILITY,
      },
      '0x1': { atomic: { status: 'unsupported' } },
    })
    expect(requestedChainIds(['0xabc', ['0x1', '0x7a69']])).toEqual([1, 31337])
    expect(requestedChainIds(['0xabc'])).toBeUndefined()
    expect(refusal(() => requestedChainIds(['0xabc', [1]])).code).toBe(-32602)
  })

  test('pending without a receipt, failed when dropped, confirmed or reverted with the one receipt', () => {
    const receipt: RpcUserOperationReceipt = {
      success: true,
      actualGasUsed: '0x5208',
      logs: [{ address: TO, data: '0x', topics: ['0x01'] }],
      receipt: {
        transactionHash: '0xaa',
        blockHash: '0xbb',
        blockNumber: '0x10',
        gasUsed: '0x9999',
      },
    }
    const base = { version: '2.0.0', id: 'x', chainId: '0x7a69', atomic: true }
    expect(callsStatusOf({ id: 'x', chainId: 31337, receipt: null })).toEqual({
      ...base,
      status: 100,
    })
    expect(callsStatusOf({ id: 'x', chainId: 31337, receipt: null, failed: true }).status).toBe(400)
    expect(callsStatusOf({ id: 'x', chainId: 31337, receipt })).toEqual({
      ...base,
      status: 200,
      receipts: [
        {
          logs: [{ address: TO, data: '0x', topics: ['0x01'] }],
          status: '0x1',
          blockHash: '0xbb',
          blockNumber: '0x10',
          gasUsed: '0x5208',
          transactionHash: '0xaa',
        },
      ],
    })
    const reverted = callsStatusOf({
      id: 'x',
      chainId: 31337,
      receipt: { ...receipt, success: false },
    })
    expect(reverted.status).toBe(500)
    expect(reverted.receipts?.[0]?.status).toBe('0x0')
  })
})
