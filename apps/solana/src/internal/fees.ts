/**
 * The fee of a message as the runtime charges it: 5,000 lamports per signature (precompile
 * signatures included) plus the priority fee, the compute-unit price (micro-lamports) times the
 * compute-unit limit, rounded up. Without `SetComputeUnitLimit` the limit is 3,000 units per
 * builtin-program instruction and 200,000 per other instruction, at most 1,400,000.
 */

/** Lamports per signature. */
export const LAMPORTS_PER_SIGNATURE = 5000n

const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111'
const PRECOMPILES = new Set([
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
])
const BUILTINS = new Set([
  '11111111111111111111111111111111',
  COMPUTE_BUDGET,
  'Vote111111111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  ...PRECOMPILES,
])
const MAX_COMPUTE_UNITS = 1_400_000n

/** What the fee depends on: the signer count and each instruction's program and data. */
export type FeeMessage = {
  numRequiredSignatures: number
  instructions: readonly { programId: string; data: Uint8Array }[]
}

/**
 * The lamports a message costs its fee payer.
 *
 * @example
 * messageFee({ numRequiredSignatures: 1, instructions: [{ programId: SYSTEM, data }] }) // 5000n
 */
export function messageFee({ numRequiredSignatures, instructions }: FeeMessage): bigint {
  let signatures = BigInt(numRequiredSignatures)
  let price = 0n
  let limit: bigint | undefined
  let defaultLimit = 0n
  for (const { programId, data } of instructions) {
    defaultLimit += BUILTINS.has(programId) ? 3000n : 200_000n
    if (PRECOMPILES.has(programId) && data.length > 0) signatures += BigInt(data[0]!)
    if (programId !== COMPUTE_BUDGET) continue
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
    if (data[0] === 2 && data.length >= 5) limit = BigInt(view.getUint32(1, true))
    if (data[0] === 3 && data.length >= 9) price = view.getBigUint64(1, true)
  }
  const units = [limit ?? defaultLimit, MAX_COMPUTE_UNITS].reduce((a, b) => (a < b ? a : b))
  return signatures * LAMPORTS_PER_SIGNATURE + (price * units + 999_999n) / 1_000_000n
}
