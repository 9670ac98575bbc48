import { encodeFunctionData, erc20Abi, type Hex, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  accountCalls,
  parseGrantPermissions,
  type SessionState,
  sessionRefusal,
} from './sessionPermissions.js'
import { simpleAccountAbi } from './simpleAccount.js'

const NOW = 1_800_000_000
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const CAROL = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const key = privateKeyToAccount(generatePrivateKey())

/** The request viem's `grantPermissions` sends for 10 pUSD (6 decimals) to Bob for an hour. */
const viemRequest = (overrides: Record<string, unknown> = {}) => ({
  expiry: NOW + 3600,
  permissions: [
    {
      type: 'erc20-token-transfer',
      data: { address: TOKEN, ticker: 'pUSD' },
      policies: [
        { type: 'token-allowance', data: { allowance: '0x989680' } },
        { type: 'recipient', data: { address: BOB } },
      ],
      required: true,
    },
  ],
  signer: { type: 'account', data: { id: key.address } },
  ...overrides,
})

describe('parseGrantPermissions', () => {
  test("viem's format: the token, transfer only, the allowance, the recipient, the expiry", () => {
    const grant = parseGrantPermissions([viemRequest()], NOW)
    expect(grant).toMatchObject({
      key: key.address,
      target: TOKEN,
      selectors: ['0xa9059cbb'],
      recipient: BOB,
      spendLimit: 10_000_000n,
      validUntil: NOW + 3600,
      chainId: undefined,
      account: undefined,
    })
  })

  test("AppKit's format: keys with a public key, contract-call functions from an abi, chainId and address", () => {
    const grant = parseGrantPermissions(
      [
        {
          chainId: '0x7a69',
          address: CAROL,
          expiry: NOW + 60,
          signer: {
            type: 'keys',
            data: { keys: [{ type: 'secp256k1', publicKey: key.publicKey }] },
          },
          permissions: [
            {
              type: 'contract-call',
              data: {
                address: TOKEN,
                abi: erc20Abi,
                functions: [{ functionName: 'transfer' }, { functionName: 'approve' }],
              },
              policies: [{ type: 'token-allowance', data: { allowance: '5000000' } }],
            },
          ],
          policies: [],
        },
      ],
      NOW,
    )
    expect(grant).toMatchObject({
      chainId: 31337,
      account: CAROL,
      key: key.address,
      selectors: ['0xa9059cbb', '0x095ea7b3'],
      spendLimit: 5_000_000n,
      recipient: null,
    })
  })

  test('contract-call with signatures; a key given as a public key id', () => {
    const grant = parseGrantPermissions(
      viemRequest({
        signer: { type: 'key', data: { id: key.publicKey } },
        permissions: [
          {
            type: 'contract-call',
            data: { address: TOKEN, calls: ['function transfer(address to, uint256 amount)'] },
            policies: [],
          },
        ],
      }),
      NOW,
    )
    expect(grant).toMatchObject({ key: key.address, selectors: ['0xa9059cbb'], spendLimit: 0n })
  })

  test.each([
    [{ expiry: NOW - 1 }, 'expiry is in the past'],
    [{ expiry: NOW + 400 * 86400 }, 'A session may last at most one year'],
    [{ expiry: '1' }, 'expiry must be a unix time in seconds'],
    [{ signer: { type: 'wallet' } }, 'This wallet does not hold session keys'],
    [{ signer: undefined }, 'A session needs a signer'],
    [{ signer: { type: 'key', data: { id: '0x1234' } } }, 'The session key must be an address'],
    [{ permissions: [] }, 'permissions must be a list'],
    [
      { permissions: [{ type: 'native-token-transfer', data: { ticker: 'ETH' }, policies: [] }] },
      'Permission type "native-token-transfer" is not supported',
    ],
    [
      {
        permissions: [
          { type: 'erc20-token-transfer', data: { address: TOKEN }, policies: [] },
          { type: 'erc20-token-transfer', data: { address: BOB }, policies: [] },
        ],
      },
      'A session covers one contract',
    ],
    [
      {
        permissions: [
          {
            type: 'erc20-token-transfer',
            data: { address: TOKEN },
            policies: [{ type: 'rate-limit', data: { count: 1, interval: 60 } }],
          },
        ],
      },
      'Policy "rate-limit" is not supported',
    ],
    [
      {
        permissions: [
          {
            type: 'erc20-token-transfer',
            data: { address: TOKEN },
            policies: [{ type: 'token-allowance', data: { allowance: '-5' } }],
          },
        ],
      },
      'token-allowance must be an amount',
    ],
    [{ chainId: 'zz' }, 'chainId'],
  ])('refuses %j', (overrides, message) => {
    expect(() => parseGrantPermissions([viemRequest(overrides)], NOW)).toThrow(message)
  })
})

describe('sessionRefusal and accountCalls', () => {
  const session: SessionState = {
    key: key.address,
    target: TOKEN,
    selectors: ['0xa9059cbb'],
    recipient: BOB,
    spendLimit: 10_000_000n,
    spent: 4_000_000n,
    validUntil: NOW + 3600,
    active: true,
  }
  const transfer = (to: string, amount: string): Hex =>
    encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to as Hex, parseUnits(amount, 6)],
    })

  test('within the limit passes; over it, another recipient, function, contract or ETH does not', () => {
    const call = { to: TOKEN as Hex, value: 0n, data: transfer(BOB, '6') }
    expect(sessionRefusal(session, [call], NOW)).toBeNull()
    expect(
      sessionRefusal(session, [call, { ...call, data: transfer(BOB, '0.000001') }], NOW),
    ).toMatch(/^Over the session's spend limit: 6000001 asked, 6000000 of 10000000 left$/)
    expect(sessionRefusal(session, [{ ...call, data: transfer(CAROL, '1') }], NOW)).toBe(
      `The session only pays ${BOB}`,
    )
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [BOB, 1n] })
    expect(sessionRefusal(session, [{ ...call, data: approve }], NOW)).toBe(
      'The session does not allow function 0x095ea7b3',
    )
    expect(sessionRefusal(session, [{ ...call, to: BOB }], NOW)).toBe(
      `The session may only call ${TOKEN}`,
    )
    expect(sessionRefusal(session, [{ ...call, value: 1n }], NOW)).toBe('A session cannot send ETH')
    expect(sessionRefusal(session, [call], NOW + 3600)).toBe('The session has expired')
    expect(sessionRefusal({ ...session, active: false }, [call], NOW)).toBe(
      'The session was revoked',
    )
  })

  test('accountCalls reads execute and executeBatch, and nothing else', () => {
    const data = transfer(BOB, '1')
    const one = encodeFunctionData({
      abi: simpleAccountAbi,
      functionName: 'execute',
      args: [TOKEN, 0n, data],
    })
    expect(accountCalls(one)).toEqual([{ to: TOKEN, value: 0n, data }])
    const batch = encodeFunctionData({
      abi: simpleAccountAbi,
      functionName: 'executeBatch',
      args: [[TOKEN, TOKEN], [], [data, data]],
    })
    expect(accountCalls(batch)).toHaveLength(2)
    expect(accountCalls(data)).toBeNull()
  })
})
