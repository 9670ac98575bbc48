import { describe, expect, test } from 'vitest'
import { CALLS_METHOD, callsError, checkCalls } from './calls.js'

describe('EIP-5792 calls', () => {
  test('the methods', () => {
    for (const m of [
      'wallet_sendCalls',
      'wallet_getCallsStatus',
      'wallet_showCallsStatus',
      'wallet_getCapabilities',
    ])
      expect(CALLS_METHOD.test(m)).toBe(true)
    for (const m of ['eth_sendTransaction', 'wallet_switchEthereumChain', 'wallet_sendCallsX'])
      expect(CALLS_METHOD.test(m)).toBe(false)
  })

  test("every call needs a 'to' starting with 0x; data, when given, starts with 0x (spec §5)", () => {
    const to = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
    expect(() =>
      checkCalls([{ version: '2.0.0', calls: [{ to }, { to, data: '0xa9059cbb' }] }]),
    ).not.toThrow()
    expect(() => checkCalls([{ calls: [{ to }, { to: 'abc' }] }])).toThrow(
      "Call 2: 'to' must start with 0x",
    )
    expect(() => checkCalls([{ calls: [{ to, data: 'a9059cbb' }] }])).toThrow(
      "Call 1: 'data' must start with 0x",
    )
    expect(() => checkCalls([{ calls: [] }])).toThrow(
      'wallet_sendCalls needs a non-empty list of calls',
    )
    expect(() => checkCalls(undefined)).toThrow('wallet_sendCalls needs a non-empty list of calls')
  })

  test('a wallet that does not know the method gives 4200 naming it; other errors pass', () => {
    for (const error of [
      { code: -32601, message: 'Method not found' },
      { code: 4200, message: 'x' },
      new Error('wallet_sendCalls is not supported'),
    ]) {
      const mapped = callsError(error, 'wallet_sendCalls', 'Porthole Dev Wallet') as {
        code: number
        message: string
      }
      expect(mapped.code).toBe(4200)
      expect(mapped.message).toBe(
        'Porthole Dev Wallet does not support wallet_sendCalls (EIP-5792)',
      )
    }
    const refused = { code: 4001, message: 'User rejected the request.' }
    expect(callsError(refused, 'wallet_sendCalls', 'X')).toBe(refused)
  })
})
