/**
 * Why the regtest refuses a transaction: bitcoind's reject reasons and RPC error codes, so a
 * tool that reads Bitcoin Core's (or Esplora's) errors reads ours.
 */

/** The bitcoind RPC error codes the regtest answers with. */
export const RPC_ERROR = {
  /** `RPC_DESERIALIZATION_ERROR`: the hex is not a transaction. */
  deserialization: -22,
  /** `RPC_VERIFY_ERROR`: inputs missing or already spent. */
  verify: -25,
  /** `RPC_VERIFY_REJECTED`: the transaction breaks a rule (amounts, signatures, scripts). */
  rejected: -26,
  /** `RPC_VERIFY_ALREADY_IN_CHAIN`. */
  alreadyInChain: -27,
} as const

/**
 * Thrown when the regtest refuses a transaction. `reason` is bitcoind's reject reason (e.g.
 * `bad-txns-inputs-missingorspent`), `code` its RPC error code; `message` is the line Esplora
 * answers `POST /tx` with: `sendrawtransaction RPC error: {"code":-25,"message":"…"}`.
 *
 * @example
 * try { chain.submit(hex) } catch (error) {
 *   if (error instanceof TransactionRejectedError) error.reason // 'bad-txns-in-belowout'
 * }
 */
export class TransactionRejectedError extends Error {
  override name = 'TransactionRejectedError' as const
  readonly code: number
  readonly reason: string
  constructor(code: number, reason: string) {
    super(`sendrawtransaction RPC error: ${JSON.stringify({ code, message: reason })}`)
    this.code = code
    this.reason = reason
  }
}
