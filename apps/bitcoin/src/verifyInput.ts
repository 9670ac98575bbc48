/**
 * Checks the signature of one transaction input against the output it spends, for the two
 * kinds of output the regtest's wallets use: P2WPKH (BIP143 sighash, ECDSA over secp256k1) and
 * P2TR key path (BIP341 sighash, BIP340 Schnorr). Every other kind of input is refused.
 */

import { equalBytes } from '@noble/curves/abstract/utils'
import { schnorr, secp256k1 } from '@noble/curves/secp256k1'
import { ripemd160 } from '@noble/hashes/legacy'
import { sha256 } from '@noble/hashes/sha2'
import { OutScript, type Transaction } from '@scure/btc-signer'
import { RPC_ERROR, TransactionRejectedError } from './errors.ts'

/** The output an input spends. */
export type Prevout = { script: Uint8Array; amount: bigint }

/** Input of {@link verifyInput}. */
export type VerifyInputParameters = {
  /** The whole transaction (`Transaction.fromRaw`), for the sighash. */
  tx: Transaction
  /** Which input. */
  index: number
  /** The outputs every input spends, in input order (BIP341 commits to all of them). */
  prevouts: readonly Prevout[]
  /** The input's scriptSig (must be empty: native segwit only). */
  scriptSig: Uint8Array
  /** The input's witness stack. */
  witness: readonly Uint8Array[]
}

const scriptFailed = (why: string) =>
  new TransactionRejectedError(RPC_ERROR.rejected, `mandatory-script-verify-flag-failed (${why})`)

/**
 * Throws {@link TransactionRejectedError} unless input `index` carries a valid signature for
 * the output it spends. Reasons are bitcoind's: `… (Script failed an OP_EQUALVERIFY operation)`
 * for a P2WPKH witness of another key, `… (Signature must be zero for failed CHECK(MULTI)SIG
 * operation)` for a bad ECDSA signature, `… (Invalid Schnorr signature)` for a bad Schnorr one.
 *
 * @example
 * verifyInput({ tx: Transaction.fromRaw(raw), index: 0, prevouts, scriptSig, witness })
 */
export function verifyInput({ tx, index, prevouts, scriptSig, witness }: VerifyInputParameters) {
  const prevout = prevouts[index]
  if (!prevout) throw new RangeError(`no prevout for input ${index}`)
  let decoded: ReturnType<typeof OutScript.decode> | undefined
  try {
    decoded = OutScript.decode(prevout.script)
  } catch {
    decoded = undefined
  }
  if (decoded?.type !== 'wpkh' && decoded?.type !== 'tr')
    throw new TransactionRejectedError(
      RPC_ERROR.rejected,
      'bad-txns-nonstandard-inputs (this regtest checks P2WPKH and P2TR key-path inputs only)',
    )
  if (scriptSig.length > 0) throw scriptFailed('Witness requires empty scriptSig')
  if (decoded.type === 'wpkh') verifyP2wpkh(tx, index, prevout, decoded.hash, witness)
  else verifyP2trKeyPath(tx, index, prevouts, decoded.pubkey, witness)
}

function verifyP2wpkh(
  tx: Transaction,
  index: number,
  prevout: Prevout,
  program: Uint8Array,
  witness: readonly Uint8Array[],
): void {
  const [signature, publicKey] = witness
  if (witness.length === 0) throw scriptFailed('Witness program was passed an empty witness')
  if (witness.length !== 2 || !signature || !publicKey)
    throw scriptFailed('Witness program hash mismatch')
  if (!equalBytes(ripemd160(sha256(publicKey)), program))
    throw scriptFailed('Script failed an OP_EQUALVERIFY operation')
  if (publicKey.length !== 33) throw scriptFailed('Using non-compressed keys in segwit')
  const hashType = signature[signature.length - 1] ?? 0
  if (![1, 2, 3].includes(hashType & 0x7f) || (hashType & 0x7c) !== 0)
    throw scriptFailed('Signature hash type missing or not understood')
  let parsed: ReturnType<typeof secp256k1.Signature.fromDER>
  try {
    parsed = secp256k1.Signature.fromDER(signature.subarray(0, -1))
  } catch {
    throw scriptFailed('Non-canonical DER signature')
  }
  if (parsed.hasHighS())
    throw scriptFailed('Non-canonical signature: S value is unnecessarily high')
  // BIP143: the script code of P2WPKH is the P2PKH script of the same key hash.
  const scriptCode = OutScript.encode({ type: 'pkh', hash: program })
  const digest = tx.preimageWitnessV0(index, scriptCode, hashType, prevout.amount)
  let valid = false
  try {
    valid = secp256k1.verify(parsed, digest, publicKey, { prehash: false })
  } catch {
    valid = false
  }
  if (!valid) throw scriptFailed('Signature must be zero for failed CHECK(MULTI)SIG operation')
}

function verifyP2trKeyPath(
  tx: Transaction,
  index: number,
  prevouts: readonly Prevout[],
  outputKey: Uint8Array,
  witness: readonly Uint8Array[],
): void {
  const stack = [...witness]
  // BIP341: with two or more elements, a last one starting with 0x50 is the annex.
  const annex = stack.length >= 2 && stack[stack.length - 1]?.[0] === 0x50 ? stack.pop() : undefined
  if (stack.length === 0) throw scriptFailed('Witness program was passed an empty witness')
  if (stack.length !== 1)
    throw new TransactionRejectedError(
      RPC_ERROR.rejected,
      'bad-txns-nonstandard-inputs (this regtest checks taproot key-path spends only)',
    )
  const signature = stack[0]!
  if (signature.length !== 64 && signature.length !== 65)
    throw scriptFailed('Invalid Schnorr signature size')
  const hashType = signature.length === 65 ? signature[64]! : 0
  if (signature.length === 65 && ![0x01, 0x02, 0x03, 0x81, 0x82, 0x83].includes(hashType))
    throw scriptFailed('Invalid Schnorr signature hash type')
  if ((hashType & 0x03) === 0x03 && index >= tx.outputsLength)
    throw scriptFailed('Invalid Schnorr signature hash type')
  const digest = tx.preimageWitnessV1(
    index,
    prevouts.map((p) => p.script),
    hashType,
    prevouts.map((p) => p.amount),
    -1,
    undefined,
    0xc0,
    annex,
  )
  let valid = false
  try {
    valid = schnorr.verify(signature.subarray(0, 64), digest, outputKey)
  } catch {
    valid = false
  }
  if (!valid) throw scriptFailed('Invalid Schnorr signature')
}
