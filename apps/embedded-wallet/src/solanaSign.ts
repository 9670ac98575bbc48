/**
 * Solana signatures as the signer Worker makes them, pure and testable: ed25519 over a message
 * the user approved, or over a transaction message whose fee payer is the wallet. The checks
 * here repeat the frame's own (defence in depth): the Worker signs no bytes that are a
 * transaction unless asked to sign them as one.
 */
import { ed25519 } from '@noble/curves/ed25519'
import { InvalidParamsError } from '@porthole/protocol'
import type { SolanaKey } from './keys.js'
import { decodeMessage, isMessage, sameBytes } from './solanaWire.js'

/** The refusal of a transaction someone else pays for (and so signs first). */
export const FEE_PAYER_NOT_WALLET = "The transaction's fee payer is not this wallet"

/** The refusal of a message that is a transaction in disguise. */
export const MESSAGE_IS_TRANSACTION =
  'This message is a Solana transaction: it can only be signed as a transaction'

/**
 * The signature of a message (`solana_signMessage`): ed25519 over its bytes as given.
 *
 * @example
 * const signature = signMessage(key, new TextEncoder().encode('hello'))
 */
export function signMessage(key: SolanaKey, message: Uint8Array): Uint8Array {
  if (isMessage(message)) throw new InvalidParamsError(MESSAGE_IS_TRANSACTION)
  return ed25519.sign(message, key.seed)
}

/**
 * The wallet's signature of a transaction message; the wallet must be its fee payer (the
 * first account, whose signature is the transaction's id).
 *
 * @example
 * const signature = signTransaction(key, tx.messageBytes)
 */
export function signTransaction(key: SolanaKey, messageBytes: Uint8Array): Uint8Array {
  const message = decodeMessage(messageBytes)
  if (!sameBytes(message.staticAccountKeys[0], key.publicKey))
    throw new InvalidParamsError(FEE_PAYER_NOT_WALLET)
  return ed25519.sign(messageBytes, key.seed)
}
