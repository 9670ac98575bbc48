import { DEVNET_AA } from '@porthole/shared/devnet'
import { simpleAccountFactoryAbi } from '@porthole/shared/simpleAccount'
import { encodeFunctionData, numberToHex, parseEther, parseGwei } from 'viem'
import { describe, expect, test } from 'vitest'
import { RpcMethodError } from '../rpc/RpcMethodError.js'
import {
  checkGasLimits,
  checkPrice,
  feeCaps,
  maxOperationCharge,
  maxPreVerificationGas,
  type PolicyOperation,
  DEFAULT_PAYMASTER_POLICY as policy,
} from './policy.js'

const owner = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
/** A first operation: deploys the account, one ERC-20 transfer (as the wallet sends it). */
const deploying: PolicyOperation = {
  factory: DEVNET_AA.accountFactory,
  factoryData: encodeFunctionData({
    abi: simpleAccountFactoryAbi,
    functionName: 'createAccount',
    args: [owner, 0n],
  }),
  // execute(token, 0, transfer(to, amount)): 4 + 3 × 32 + 32 + 68 bytes, padded.
  callData: `0xb61d27f6${'00'.repeat(228)}`,
  callGasLimit: 16_323n,
  verificationGasLimit: 249_735n,
  preVerificationGas: 52_957n,
  maxFeePerGas: parseGwei('1.0007'),
  maxPriorityFeePerGas: parseGwei('1'),
  paymasterVerificationGasLimit: 100_000n,
  paymasterPostOpGasLimit: 1n,
}
const refusal = (fn: () => unknown) => {
  try {
    fn()
  } catch (error) {
    return error as RpcMethodError
  }
  throw new Error('not refused')
}

describe('preVerificationGas by size', () => {
  test("covers what alto asks for the wallet's operations, with a margin of at most ~20,000 gas", () => {
    // alto 2.x on anvil asked 52,957 for the deploying transfer and 51,954 once deployed.
    const first = maxPreVerificationGas(deploying)
    expect(first).toBeGreaterThanOrEqual(52_957n)
    expect(first).toBeLessThan(52_957n + 25_000n)
    const next = maxPreVerificationGas({ ...deploying, factory: undefined, factoryData: undefined })
    expect(next).toBeGreaterThanOrEqual(51_954n)
    expect(next).toBeLessThan(first)
  })

  test('grows with the calldata: 16 gas a byte plus the margin, never 9.4 M for a small operation', () => {
    const big = { ...deploying, callData: `0x${'ff'.repeat(10_000)}` }
    const grown = maxPreVerificationGas(big) - maxPreVerificationGas(deploying)
    expect(grown).toBeGreaterThan(16n * 9_700n)
    expect(grown).toBeLessThan(16n * 10_100n * 2n)
    expect(
      refusal(() =>
        checkGasLimits({ ...deploying, preVerificationGas: 9_400_000n }, policy, 'operation'),
      ).message,
    ).toMatch(
      /^Invalid params: userOperation\.preVerificationGas 9400000 is over what the paymaster sponsors \(\d+ for this operation's size\)$/,
    )
  })
})

describe('gas limits per field', () => {
  test('each field over its bound is refused with -32602, naming it', () => {
    checkGasLimits(deploying, policy, 'operation')
    for (const [field, value] of [
      ['callGasLimit', 3_000_001n],
      ['verificationGasLimit', 1_000_001n],
      ['paymasterVerificationGasLimit', 150_001n],
      ['paymasterPostOpGasLimit', 10_001n],
    ] as const) {
      const error = refusal(() =>
        checkGasLimits({ ...deploying, [field]: value }, policy, 'operation'),
      )
      expect(error).toBeInstanceOf(RpcMethodError)
      expect(error.code).toBe(-32602)
      expect(error.message).toContain(`userOperation.${field} ${value} is over`)
    }
  })

  test('a revocation has tighter call and validation bounds', () => {
    const revoke = {
      ...deploying,
      factory: undefined,
      factoryData: undefined,
      callGasLimit: 500_001n,
    }
    checkGasLimits(revoke, policy, 'operation')
    expect(refusal(() => checkGasLimits(revoke, policy, 'revocation')).message).toContain(
      '(500000 for a session revocation)',
    )
  })
})

describe('fees and cost', () => {
  const fees = { baseFee: parseGwei('10'), suggestedTip: parseGwei('1') }

  test('caps: tip ≤ max(2 gwei, 3 × the suggestion); max fee ≤ 3 × base fee + that', () => {
    expect(feeCaps(fees, policy)).toEqual({
      maxFeePerGas: parseGwei('33'),
      maxPriorityFeePerGas: parseGwei('3'),
    })
    expect(feeCaps({ baseFee: 7n, suggestedTip: 1n }, policy)).toEqual({
      maxFeePerGas: 21n + parseGwei('2'),
      maxPriorityFeePerGas: parseGwei('2'),
    })
  })

  test("the reviewer's fees (deposit / 10 M per gas) are refused with -32005 and the caps", () => {
    const caps = feeCaps(fees, policy)
    const error = refusal(() =>
      checkPrice(
        {
          ...deploying,
          maxFeePerGas: parseEther('0.0001'),
          maxPriorityFeePerGas: parseEther('0.0001'),
        },
        caps,
        policy,
      ),
    )
    expect(error.code).toBe(-32005)
    expect(error.message).toBe('Gas fees above what the paymaster sponsors now')
    expect(error.data).toEqual({
      maxFeePerGas: numberToHex(parseGwei('33')),
      maxPriorityFeePerGas: numberToHex(parseGwei('3')),
    })
    // A tip alone over its cap too.
    expect(
      refusal(() =>
        checkPrice(
          { ...deploying, maxFeePerGas: parseGwei('30'), maxPriorityFeePerGas: parseGwei('4') },
          caps,
          policy,
        ),
      ).code,
    ).toBe(-32005)
  })

  test('every gas limit at the max fee must fit the per-operation cost (0.01 ETH)', () => {
    const caps = feeCaps(fees, policy)
    const ordinary = {
      ...deploying,
      maxFeePerGas: parseGwei('20'),
      maxPriorityFeePerGas: parseGwei('1'),
    }
    expect(checkPrice(ordinary, caps, policy)).toBe(maxOperationCharge(ordinary))
    expect(maxOperationCharge(ordinary)).toBe(419_016n * parseGwei('20'))
    const heavy = { ...ordinary, callGasLimit: 3_000_000n }
    const error = refusal(() => checkPrice(heavy, caps, policy))
    expect(error.message).toBe(
      'User operation could cost more than the paymaster sponsors per operation',
    )
    expect(error.data).toEqual({ maxOperationCost: '0x2386f26fc10000' })
  })
})
