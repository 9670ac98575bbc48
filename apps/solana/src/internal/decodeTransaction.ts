/**
 * Wire transactions (legacy and v0) taken apart: signatures, the exact message bytes they sign,
 * header, keys, blockhash, instructions and address-table lookups.
 */
import { base58 } from '@scure/base'
import { VersionedTransaction } from '@solana/web3.js'

/** The largest wire transaction (a packet's payload). */
export const MAX_TRANSACTION_SIZE = 1232

/** A compiled instruction: indexes into the transaction's account keys. */
export type CompiledInstruction = { programIdIndex: number; accounts: number[]; data: Uint8Array }

/** An address-table lookup of a v0 message. */
export type AddressTableLookup = {
  accountKey: string
  writableIndexes: number[]
  readonlyIndexes: number[]
}

/** A decoded wire transaction. */
export type DecodedTransaction = {
  wire: Uint8Array
  signatures: Uint8Array[]
  /** The first signature, base58: the transaction's id. */
  signature: string
  version: 'legacy' | 0
  /** The message as signed. */
  messageBytes: Uint8Array
  header: {
    numRequiredSignatures: number
    numReadonlySignedAccounts: number
    numReadonlyUnsignedAccounts: number
  }
  staticKeys: string[]
  recentBlockhash: string
  instructions: CompiledInstruction[]
  lookups: AddressTableLookup[]
}

/**
 * Thrown for bytes that are not a well-formed transaction.
 *
 * @example
 * if (error instanceof InvalidTransactionError) // answer -32602 invalid transaction
 */
export class InvalidTransactionError extends Error {
  override name = 'InvalidTransactionError' as const
}

/**
 * Decodes a wire transaction.
 *
 * @example
 * const { signature, staticKeys } = decodeTransaction(bytes)
 */
export function decodeTransaction(wire: Uint8Array): DecodedTransaction {
  if (wire.length > MAX_TRANSACTION_SIZE)
    throw new InvalidTransactionError(
      `transaction too large: ${wire.length} bytes (max: ${MAX_TRANSACTION_SIZE})`,
    )
  let transaction: VersionedTransaction
  try {
    transaction = VersionedTransaction.deserialize(wire)
  } catch (error) {
    throw new InvalidTransactionError(
      `failed to deserialize VersionedTransaction: ${error instanceof Error ? error.message : error}`,
    )
  }
  const { message } = transaction
  const [count, prefix] = shortVec(wire)
  const messageBytes = wire.slice(prefix + 64 * count)
  // Only canonical bytes go on to the runtime (its decoder is stricter than web3.js's, and a
  // message it cannot decode would take the process down): the message must re-encode to itself.
  if (!sameBytes(message.serialize(), messageBytes))
    throw new InvalidTransactionError('failed to deserialize VersionedTransaction: not canonical')
  const header = message.header
  const staticKeys = message.staticAccountKeys.map((key) => key.toBase58())
  const instructions = message.compiledInstructions.map((ix) => ({
    programIdIndex: ix.programIdIndex,
    accounts: [...ix.accountKeyIndexes],
    data: Uint8Array.from(ix.data),
  }))
  const lookups = message.addressTableLookups.map((lookup) => ({
    accountKey: lookup.accountKey.toBase58(),
    writableIndexes: [...lookup.writableIndexes],
    readonlyIndexes: [...lookup.readonlyIndexes],
  }))
  const loadedCount = lookups.reduce(
    (n, lookup) => n + lookup.writableIndexes.length + lookup.readonlyIndexes.length,
    0,
  )
  const keyCount = staticKeys.length + loadedCount
  const sane =
    count === header.numRequiredSignatures &&
    count > 0 &&
    header.numRequiredSignatures <= staticKeys.length &&
    header.numReadonlySignedAccounts < header.numRequiredSignatures &&
    header.numReadonlyUnsignedAccounts <= staticKeys.length - header.numRequiredSignatures &&
    instructions.every(
      (ix) =>
        ix.programIdIndex > 0 &&
        ix.programIdIndex < staticKeys.length &&
        ix.accounts.every((index) => index < keyCount),
    )
  if (!sane)
    throw new InvalidTransactionError('Transaction failed to sanitize accounts offsets correctly')
  return {
    wire,
    signatures: transaction.signatures.map((signature) => Uint8Array.from(signature)),
    signature: base58.encode(transaction.signatures[0]!),
    version: message.version,
    messageBytes,
    header: {
      numRequiredSignatures: header.numRequiredSignatures,
      numReadonlySignedAccounts: header.numReadonlySignedAccounts,
      numReadonlyUnsignedAccounts: header.numReadonlyUnsignedAccounts,
    },
    staticKeys,
    recentBlockhash: message.recentBlockhash,
    instructions,
    lookups,
  }
}

/**
 * Whether static key `index` is writable by the message header.
 *
 * @example
 * isStaticWritable(decoded, 0) // true: the fee payer
 */
export function isStaticWritable(decoded: DecodedTransaction, index: number): boolean {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } =
    decoded.header
  if (index < numRequiredSignatures)
    return index < numRequiredSignatures - numReadonlySignedAccounts
  return index < decoded.staticKeys.length - numReadonlyUnsignedAccounts
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i])
}

/** A compact-u16 length prefix: its value and its size in bytes. */
function shortVec(bytes: Uint8Array): [number, number] {
  let value = 0
  for (let i = 0; i < 3; i++) {
    const byte = bytes[i] ?? 0
    value |= (byte & 0x7f) << (7 * i)
    if ((byte & 0x80) === 0) return [value, i + 1]
  }
  return [value, 3]
}
