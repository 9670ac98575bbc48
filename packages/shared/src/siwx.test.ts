import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import { describe, expect, test } from 'vitest'
import { formatSiwxMessage, parseSiwxMessage, type SiwxMessage } from './siwx.js'

const base: SiwxMessage = {
  domain: 'localhost:4000',
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  statement: 'Sign in to the Porthole demo.',
  uri: 'http://localhost:4000',
  version: '1',
  chainId: '31337',
  nonce: 'k2Jf8sLq0aZ',
  issuedAt: '2026-11-24T10:00:00.000Z',
  expirationTime: '2026-11-25T10:00:00.000Z',
}

describe('sign-in messages', () => {
  test('eip155: the same text as viem (EIP-4361), so a host verifies it with viem', () => {
    for (const m of [base, { ...base, statement: undefined }]) {
      const ours = formatSiwxMessage('eip155', m)
      const { notBefore: _notBefore, ...fields } = m
      const viems = createSiweMessage({
        ...fields,
        address: m.address as `0x${string}`,
        chainId: Number(m.chainId),
        issuedAt: new Date(m.issuedAt),
        expirationTime: m.expirationTime ? new Date(m.expirationTime) : undefined,
      })
      expect(ours).toBe(viems)
      expect(parseSiweMessage(ours)).toMatchObject({ nonce: m.nonce, chainId: 31337 })
    }
  })

  test('round trip, eip155 and solana', () => {
    const sol = {
      ...base,
      address: '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys',
      chainId: 'DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P',
    }
    expect(parseSiwxMessage(formatSiwxMessage('eip155', base))).toEqual({
      namespace: 'eip155',
      message: base,
    })
    const text = formatSiwxMessage('solana', sol)
    expect(text.split('\n')[0]).toBe(
      'localhost:4000 wants you to sign in with your Solana account:',
    )
    expect(parseSiwxMessage(text)).toEqual({ namespace: 'solana', message: sol })
  })

  test('malformed texts are refused', () => {
    const text = formatSiwxMessage('eip155', base)
    expect(parseSiwxMessage(text.replace('Ethereum', 'Bitcoin'))).toBeUndefined()
    expect(parseSiwxMessage(text.replace('Nonce: k2Jf8sLq0aZ\n', ''))).toBeUndefined()
    expect(parseSiwxMessage(`${text}\nNonce: again`)).toBeUndefined()
    expect(parseSiwxMessage(text.replace('Version: 1', 'Version: 2'))).toBeUndefined()
    expect(parseSiwxMessage('x'.repeat(9000))).toBeUndefined()
  })
})
