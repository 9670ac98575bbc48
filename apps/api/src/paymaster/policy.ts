/**
 * The paymaster's economics: what one signed sponsorship may cost the deposit, field by field
 * and in wei. A user operation's most expensive outcome is every gas limit charged at
 * `maxFeePerGas` (the EntryPoint charges `preVerificationGas` in full and 10 % of unused call
 * gas, and pays it all to whoever sends `handleOps`), so each is bounded here before anything is
 * signed.
 */
import { numberToHex, parseEther, parseGwei } from 'viem'
import { RpcMethodError } from '../rpc/RpcMethodError.js'

/** Most gas the paymaster signs for, per field (`preVerificationGas` is bounded by size instead). */
export type PaymasterGasBounds = {
  callGasLimit: bigint
  verificationGasLimit: bigint
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
}

/** What the paymaster sponsors (see {@link DEFAULT_PAYMASTER_POLICY}). */
export type PaymasterPolicy = {
  /** `maxFeePerGas` ≤ this × the base fee + the tip cap. */
  baseFeeMultiplier: bigint
  /** The tip cap is the larger of this (wei) and {@link TIP_MULTIPLIER} × the chain's suggested tip. */
  minTipCap: bigint
  /** Most one operation may cost the deposit: all its gas limits × `maxFeePerGas`, in wei. */
  maxOperationCost: bigint
  gas: PaymasterGasBounds
  /** Gas bounds of a session revocation (sponsored past the daily caps). */
  revocationGas: Pick<PaymasterGasBounds, 'callGasLimit' | 'verificationGasLimit'>
  /** Revocations sponsored per account and UTC day. */
  revocationsPerDay: number
}

/**
 * The chain's suggested tip counts this many times in the tip cap: viem's bundler client asks
 * for twice the suggestion by default, and the suggestion may have moved since it was read.
 */
export const TIP_MULTIPLIER = 3n

/**
 * The policy unless configured: fees up to 3 × the base fee + a tip of the larger of 2 gwei and
 * three times the chain's suggestion (viem's default asks 2.4 × the base fee + twice the
 * suggestion; the base fee may rise 12.5 % a block); at most 0.01 ETH per operation; gas per field up to 3,000,000
 * (calls), 1,000,000 (account validation with deployment), 150,000 and 10,000 (the paymaster's
 * validation and post-op: VerifyingPaymaster uses ~35,000 and has no post-op); revocations up to
 * 500,000 call and 300,000 validation gas, 10 per account a day.
 */
export const DEFAULT_PAYMASTER_POLICY: PaymasterPolicy = {
  baseFeeMultiplier: 3n,
  minTipCap: parseGwei('2'),
  maxOperationCost: parseEther('0.01'),
  gas: {
    callGasLimit: 3_000_000n,
    verificationGasLimit: 1_000_000n,
    paymasterVerificationGasLimit: 150_000n,
    paymasterPostOpGasLimit: 10_000n,
  },
  revocationGas: { callGasLimit: 500_000n, verificationGasLimit: 300_000n },
  revocationsPerDay: 10,
}

/**
 * How `preVerificationGas` is bounded by the operation's size: a bundle of one pays the
 * transaction's 21,000 and the EntryPoint's per-operation overhead (~18,300), plus its calldata
 * at 16 gas a byte (as if no byte were zero) and 4 a word, plus 25 %. Chains that charge an L1
 * data fee through `preVerificationGas` (rollups) need a larger `overhead`.
 */
export const PRE_VERIFICATION_GAS = {
  overhead: 39_300n,
  perByte: 16n,
  perWord: 4n,
  marginPercent: 25n,
  /** The longest signature the account takes: a session key's (4 + 20 + 65 bytes). */
  signatureBytes: 89n,
  /** paymaster (20) + its two gas limits (16 each) + VerifyingPaymaster's data (64 + 65). */
  paymasterAndDataBytes: 181n,
} as const

/** The fields of an operation the policy reads. */
export type PolicyOperation = {
  factory?: string | null | undefined
  factoryData?: string | null | undefined
  callData: string
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
}

const hexBytes = (hex: string | null | undefined) => BigInt(Math.ceil(((hex?.length ?? 2) - 2) / 2))
const padded = (bytes: bigint) => 32n + ((bytes + 31n) / 32n) * 32n

/**
 * The size in bytes of the operation as `handleOps` carries it (its ABI-encoded
 * PackedUserOperation, with the longest signature and the paymaster's data).
 *
 * @example
 * packedOperationSize({ callData: '0x', … }) // 288 + 4 × 32 + padded fields
 */
export function packedOperationSize(
  op: Pick<PolicyOperation, 'factory' | 'factoryData' | 'callData'>,
): bigint {
  const initCode = op.factory ? 20n + hexBytes(op.factoryData) : 0n
  return (
    9n * 32n +
    padded(initCode) +
    padded(hexBytes(op.callData)) +
    padded(PRE_VERIFICATION_GAS.paymasterAndDataBytes) +
    padded(PRE_VERIFICATION_GAS.signatureBytes)
  )
}

/**
 * The most `preVerificationGas` the paymaster signs for this operation (see
 * {@link PRE_VERIFICATION_GAS}): about 70,000 for a first operation that deploys the account.
 *
 * @example
 * maxPreVerificationGas(op) // 71_255n
 */
export function maxPreVerificationGas(
  op: Pick<PolicyOperation, 'factory' | 'factoryData' | 'callData'>,
): bigint {
  const bytes = packedOperationSize(op)
  const { overhead, perByte, perWord, marginPercent } = PRE_VERIFICATION_GAS
  const needed = overhead + perByte * bytes + perWord * ((bytes + 31n) / 32n)
  return (needed * (100n + marginPercent)) / 100n
}

/** Which bounds apply: an ordinary operation's, or a session revocation's (tighter). */
export type OperationKind = 'operation' | 'revocation'

/**
 * Refuses (-32602) an operation with a gas limit over the policy's bound for its kind,
 * `preVerificationGas` over {@link maxPreVerificationGas}, or a tip over its fee cap.
 *
 * @example
 * checkGasLimits(op, DEFAULT_PAYMASTER_POLICY, 'operation')
 */
export function checkGasLimits(
  op: PolicyOperation,
  policy: PaymasterPolicy,
  kind: OperationKind,
): void {
  const bounds: Record<string, bigint> = {
    ...policy.gas,
    ...(kind === 'revocation' ? policy.revocationGas : {}),
    preVerificationGas: maxPreVerificationGas(op),
  }
  for (const [field, bound] of Object.entries(bounds)) {
    const value = op[field as keyof PolicyOperation] as bigint
    if (value > bound)
      throw new RpcMethodError(
        -32602,
        `Invalid params: userOperation.${field} ${value} is over what the paymaster sponsors (${bound}${field === 'preVerificationGas' ? " for this operation's size" : kind === 'revocation' ? ' for a session revocation' : ''})`,
      )
  }
  if (op.maxPriorityFeePerGas > op.maxFeePerGas)
    throw new RpcMethodError(
      -32602,
      'Invalid params: userOperation.maxPriorityFeePerGas is over its maxFeePerGas',
    )
}

/** The chain's fees now, as the paymaster reads them. */
export type ChainFees = {
  /** The highest base fee of the last blocks and the next one, in wei. */
  baseFee: bigint
  /** The chain's suggested priority fee (`eth_maxPriorityFeePerGas`), in wei. */
  suggestedTip: bigint
}

/** The most an operation's fees may be now, in wei per gas. */
export type FeeCaps = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

/**
 * The fee caps now: tip ≤ max(`minTipCap`, 3 × the suggested tip); max fee ≤ k × base fee + that.
 *
 * @example
 * feeCaps({ baseFee: parseGwei('10'), suggestedTip: parseGwei('1') }, DEFAULT_PAYMASTER_POLICY)
 * // { maxFeePerGas: 33 gwei, maxPriorityFeePerGas: 3 gwei }
 */
export function feeCaps(fees: ChainFees, policy: PaymasterPolicy): FeeCaps {
  const tip = fees.suggestedTip * TIP_MULTIPLIER
  const maxPriorityFeePerGas = tip > policy.minTipCap ? tip : policy.minTipCap
  return {
    maxFeePerGas: policy.baseFeeMultiplier * fees.baseFee + maxPriorityFeePerGas,
    maxPriorityFeePerGas,
  }
}

/**
 * Every gas limit of the operation at its `maxFeePerGas`: the most the EntryPoint can take from
 * the paymaster's deposit for it, in wei.
 *
 * @example
 * maxOperationCharge(op) // 1_200_000n * op.maxFeePerGas
 */
export function maxOperationCharge(op: PolicyOperation): bigint {
  return (
    (op.callGasLimit +
      op.verificationGasLimit +
      op.preVerificationGas +
      op.paymasterVerificationGasLimit +
      op.paymasterPostOpGasLimit) *
    op.maxFeePerGas
  )
}

/** The error code of a refusal for the operation's price (fees or cost over the policy). */
export const PRICE_REFUSED = -32005

/**
 * Refuses (-32005) fees over `caps`, or a maximum charge over the policy's per-operation cost;
 * answers the maximum charge (wei).
 *
 * @example
 * const charge = checkPrice(op, feeCaps(fees, policy), policy)
 */
export function checkPrice(op: PolicyOperation, caps: FeeCaps, policy: PaymasterPolicy): bigint {
  if (op.maxFeePerGas > caps.maxFeePerGas || op.maxPriorityFeePerGas > caps.maxPriorityFeePerGas)
    throw new RpcMethodError(PRICE_REFUSED, 'Gas fees above what the paymaster sponsors now', {
      maxFeePerGas: numberToHex(caps.maxFeePerGas),
      maxPriorityFeePerGas: numberToHex(caps.maxPriorityFeePerGas),
    })
  const charge = maxOperationCharge(op)
  if (charge > policy.maxOperationCost)
    throw new RpcMethodError(
      PRICE_REFUSED,
      'User operation could cost more than the paymaster sponsors per operation',
      { maxOperationCost: numberToHex(policy.maxOperationCost) },
    )
  return charge
}
