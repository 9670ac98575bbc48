import { describe, expect, test, vi } from 'vitest'
import { callsRequest } from './calls.js'

const active = { namespace: 'eip155' as const, connector: { name: 'Some Wallet' } }

describe('EIP-5792 calls through the modal', () => {
  test('the batch is checked before the wallet sees it', async () => {
    const send = vi.fn(async () => ({ id: '0x1' }))
    await expect(
      callsRequest('wallet_sendCalls', [{ calls: [{ to: 'x' }] }], active, send),
    ).rejects.toMatchObject({ code: -32602, message: "Call 1: 'to' must start with 0x" })
    expect(send).not.toHaveBeenCalled()
    const to = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
    expect(await callsRequest('wallet_sendCalls', [{ calls: [{ to }] }], active, send)).toEqual({
      id: '0x1',
    })
  })

  test('a wallet that does not know the method answers 4200 by name', async () => {
    const send = async () => {
      throw Object.assign(new Error('Method not found'), { code: -32601 })
    }
    await expect(
      callsRequest('wallet_getCallsStatus', ['0x1'], active, send),
    ).rejects.toMatchObject({
      code: 4200,
      message: 'Some Wallet does not support wallet_getCallsStatus (EIP-5792)',
    })
  })
})
