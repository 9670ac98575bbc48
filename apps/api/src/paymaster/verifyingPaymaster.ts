/**
 * eth-infinitism's VerifyingPaymaster v0.7 (`@account-abstraction/contracts@0.7.0`), off chain:
 * the hash its `getHash` computes and the `paymasterData` it parses.
 */
import {
  type Address,
  concat,
  encodeAbiParameters,
  type Hex,
  keccak256,
  pad,
  sliceHex,
  toHex,
} from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'

/**
 * The fields of a v0.7 user operation the paymaster's hash covers (all but the signatures and
 * the paymaster data itself), as numbers and hex.
 */
export type SponsoredUserOperation = {
  sender: Address
  nonce: bigint
  factory?: Address | undefined
  factoryData?: Hex | undefined
  callData: Hex
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
}

/** Options of {@link verifyingPaymasterHash}. */
export type VerifyingPaymasterHashParameters = {
  userOperation: SponsoredUserOperation
  chainId: number
  paymaster: Address
  /** Unix seconds; 0 means no end. */
  validUntil: number
  /** Unix seconds. */
  validAfter: number
}

const uint128 = (value: bigint) => pad(toHex(value), { size: 16 })

/**
 * What `VerifyingPaymaster.getHash(userOp, validUntil, validAfter)` answers, computed exactly as
 * the contract does: keccak256 of abi.encode(sender, nonce, keccak256(initCode),
 * keccak256(callData), accountGasLimits, the paymaster's two gas limits as one uint256,
 * preVerificationGas, gasFees, chain id, paymaster, validUntil, validAfter). The verifying
 * signer signs it as an EIP-191 message.
 *
 * @example
 * const hash = verifyingPaymasterHash({ userOperation, chainId: 31337, paymaster, validUntil, validAfter: 0 })
 */
export function verifyingPaymasterHash(parameters: VerifyingPaymasterHashParameters): Hex {
  const { userOperation: op, chainId, paymaster, validUntil, validAfter } = parameters
  const initCode = op.factory ? concat([op.factory, op.factoryData ?? '0x']) : '0x'
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'uint48' },
        { type: 'uint48' },
      ],
      [
        op.sender,
        op.nonce,
        keccak256(initCode),
        keccak256(op.callData),
        concat([uint128(op.verificationGasLimit), uint128(op.callGasLimit)]),
        BigInt(
          concat([uint128(op.paymasterVerificationGasLimit), uint128(op.paymasterPostOpGasLimit)]),
        ),
        op.preVerificationGas,
        concat([uint128(op.maxPriorityFeePerGas), uint128(op.maxFeePerGas)]),
        BigInt(chainId),
        paymaster,
        validUntil,
        validAfter,
      ],
    ),
  )
}

/**
 * A signature that recovers to some address without reverting (low `s`, `v` 28): the stub
 * data's, so simulations run the paymaster's whole validation (which then reports a signature
 * failure) at the real data's length.
 */
export const STUB_SIGNATURE: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

/**
 * The `paymasterData` VerifyingPaymaster v0.7 reads: abi.encode(uint48 validUntil, uint48
 * validAfter), two 32-byte words (its `parsePaymasterAndData` decodes them so), then the
 * signature.
 *
 * @example
 * verifyingPaymasterData({ validUntil, validAfter: 0, signature }) // '0x…' (64 + 65 bytes)
 */
export function verifyingPaymasterData({
  validUntil,
  validAfter,
  signature,
}: {
  validUntil: number
  validAfter: number
  signature: Hex
}): Hex {
  return concat([
    encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter]),
    signature,
  ])
}

/**
 * Reads `paymasterData` back: its validity window and signature.
 *
 * @example
 * parseVerifyingPaymasterData(data) // { validUntil: 1767225600, validAfter: 0, signature: '0x…' }
 */
export function parseVerifyingPaymasterData(data: Hex): {
  validUntil: number
  validAfter: number
  signature: Hex
} {
  return {
    validUntil: Number(BigInt(sliceHex(data, 0, 32))),
    validAfter: Number(BigInt(sliceHex(data, 32, 64))),
    signature: sliceHex(data, 64),
  }
}

/** Options of {@link signSponsorship}. */
export type SignSponsorshipParameters = VerifyingPaymasterHashParameters & {
  /** The paymaster's verifying signer: an account or its private key. */
  signer: PrivateKeyAccount | Hex
}

/**
 * Signs a sponsorship: the paymaster's hash of the user operation as an EIP-191 message, packed
 * into `paymasterData`.
 *
 * @example
 * const paymasterData = await signSponsorship({ userOperation, chainId, paymaster, validUntil, validAfter: 0, signer: key })
 */
export async function signSponsorship(parameters: SignSponsorshipParameters): Promise<Hex> {
  const { signer, ...rest } = parameters
  const account = typeof signer === 'string' ? privateKeyToAccount(signer) : signer
  const signature = await account.signMessage({ message: { raw: verifyingPaymasterHash(rest) } })
  return verifyingPaymasterData({
    validUntil: rest.validUntil,
    validAfter: rest.validAfter,
    signature,
  })
}
