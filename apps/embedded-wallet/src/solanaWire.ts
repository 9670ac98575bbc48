/**
 * The Solana transaction wire format, legacy and version 0, read and written by hand (a few
 * hundred bytes of code, where @solana/web3.js would be hundreds of kilobytes): a transaction is
 * a compact-u16 count of 64-byte signatures, then the message they sign. Decoding is strict —
 * canonical lengths, indexes in range, no duplicate accounts, no trailing bytes — so what the
 * card reads is exactly what the signer signs. Used by the signer Worker (to check what it signs)
 * and by the Solana requests of the frame.
 */
import { InvalidParamsError } from '@porthole/protocol'

/** The largest transaction the network accepts (bytes on the wire, signatures included). */
export const PACKET_DATA_SIZE = 1232

/** The three counts at the head of a message. */
export type MessageHeader = {
  numRequiredSignatures: number
  numReadonlySignedAccounts: number
  numReadonlyUnsignedAccounts: number
}

/** An instruction: its program and accounts as indexes into the message's accounts. */
export type CompiledInstruction = {
  programIdIndex: number
  accountKeyIndexes: number[]
  data: Uint8Array
}

/** Accounts a version 0 message loads from an address lookup table, by index. */
export type AddressTableLookup = {
  accountKey: Uint8Array
  writableIndexes: number[]
  readonlyIndexes: number[]
}

/** A decoded message. The first static account is the fee payer. */
export type Message = {
  version: 'legacy' | 0
  header: MessageHeader
  staticAccountKeys: Uint8Array[]
  recentBlockhash: Uint8Array
  instructions: CompiledInstruction[]
  addressTableLookups: AddressTableLookup[]
}

/** A decoded transaction: its signature slots and the exact bytes of its message. */
export type Transaction = {
  signatures: Uint8Array[]
  messageBytes: Uint8Array
  message: Message
}

const invalid = (reason: string) => new InvalidParamsError(`Invalid Solana transaction: ${reason}`)

function reader(bytes: Uint8Array) {
  let offset = 0
  const r = {
    get offset() {
      return offset
    },
    done: () => offset === bytes.length,
    byte(): number {
      if (offset >= bytes.length) throw invalid('truncated')
      return bytes[offset++] as number
    },
    take(length: number): Uint8Array {
      if (offset + length > bytes.length) throw invalid('truncated')
      const out = bytes.slice(offset, offset + length)
      offset += length
      return out
    },
    /** A compact-u16 (1 to 3 bytes, 7 bits each, canonical only). */
    shortVec(): number {
      let value = 0
      for (let i = 0; i < 3; i++) {
        const b = r.byte()
        value |= (b & 0x7f) << (7 * i)
        if ((b & 0x80) === 0) {
          if (i > 0 && b === 0) throw invalid('non-canonical length')
          if (value > 0xffff) throw invalid('length out of range')
          return value
        }
      }
      throw invalid('length out of range')
    },
  }
  return r
}

/**
 * Decodes a message (legacy or version 0), refusing anything the network would not accept as
 * one.
 *
 * @example
 * decodeMessage(tx.messageBytes).staticAccountKeys[0] // the fee payer's public key
 */
export function decodeMessage(bytes: Uint8Array): Message {
  const r = reader(bytes)
  let version: Message['version'] = 'legacy'
  if (((bytes[0] ?? 0) & 0x80) !== 0) {
    const prefix = r.byte() & 0x7f
    if (prefix !== 0) throw invalid(`version ${prefix} is not supported`)
    version = 0
  }
  const header: MessageHeader = {
    numRequiredSignatures: r.byte(),
    numReadonlySignedAccounts: r.byte(),
    numReadonlyUnsignedAccounts: r.byte(),
  }
  const staticAccountKeys = Array.from({ length: r.shortVec() }, () => r.take(32))
  const recentBlockhash = r.take(32)
  const instructions = Array.from({ length: r.shortVec() }, () => ({
    programIdIndex: r.byte(),
    accountKeyIndexes: Array.from({ length: r.shortVec() }, () => r.byte()),
    data: r.take(r.shortVec()),
  }))
  const addressTableLookups: AddressTableLookup[] =
    version === 0
      ? Array.from({ length: r.shortVec() }, () => ({
          accountKey: r.take(32),
          writableIndexes: Array.from({ length: r.shortVec() }, () => r.byte()),
          readonlyIndexes: Array.from({ length: r.shortVec() }, () => r.byte()),
        }))
      : []
  if (!r.done()) throw invalid('trailing bytes')

  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = header
  if (numRequiredSignatures === 0) throw invalid('no signer')
  if (numReadonlySignedAccounts >= numRequiredSignatures)
    throw invalid('the fee payer must be writable')
  if (numRequiredSignatures + numReadonlyUnsignedAccounts > staticAccountKeys.length)
    throw invalid('header names more accounts than it has')
  const seen = new Set<string>()
  for (const key of staticAccountKeys) {
    const id = key.join()
    if (seen.has(id)) throw invalid('duplicate account')
    seen.add(id)
  }
  let total = staticAccountKeys.length
  for (const lookup of addressTableLookups) {
    if (lookup.writableIndexes.length + lookup.readonlyIndexes.length === 0)
      throw invalid('empty address table lookup')
    total += lookup.writableIndexes.length + lookup.readonlyIndexes.length
  }
  if (total > 256) throw invalid('too many accounts')
  for (const instruction of instructions) {
    // Programs are static accounts, never the fee payer.
    if (instruction.programIdIndex === 0 || instruction.programIdIndex >= staticAccountKeys.length)
      throw invalid('bad program index')
    if (instruction.accountKeyIndexes.some((index) => index >= total))
      throw invalid('account index out of range')
  }
  return {
    version,
    header,
    staticAccountKeys,
    recentBlockhash,
    instructions,
    addressTableLookups,
  }
}

/**
 * Whether the bytes are a whole transaction message. A message to sign must not be one: its
 * signature would be a valid transaction signature the card never showed as a transaction.
 *
 * @example
 * isMessage(new TextEncoder().encode('Sign in to example.com')) // false
 */
export function isMessage(bytes: Uint8Array): boolean {
  try {
    decodeMessage(bytes)
    return true
  } catch {
    return false
  }
}

/**
 * Decodes a transaction from its wire bytes; it has exactly one signature slot per required
 * signer (empty slots are zeros).
 *
 * @example
 * const { message, messageBytes } = decodeTransaction(base64.decode(params.transaction))
 */
export function decodeTransaction(bytes: Uint8Array): Transaction {
  if (bytes.length > PACKET_DATA_SIZE)
    throw invalid(`larger than ${PACKET_DATA_SIZE} bytes (${bytes.length})`)
  const r = reader(bytes)
  const signatures = Array.from({ length: r.shortVec() }, () => r.take(64))
  const messageBytes = bytes.slice(r.offset)
  const message = decodeMessage(messageBytes)
  if (signatures.length !== message.header.numRequiredSignatures)
    throw invalid('signature count does not match the signers')
  return { signatures, messageBytes, message }
}

function shortVec(value: number): number[] {
  const out: number[] = []
  for (;;) {
    const low = value & 0x7f
    value >>= 7
    if (value === 0) {
      out.push(low)
      return out
    }
    out.push(low | 0x80)
  }
}

/**
 * The wire bytes of a transaction.
 *
 * @example
 * encodeTransaction({ ...tx, signatures: [signature, ...tx.signatures.slice(1)] })
 */
export function encodeTransaction(
  tx: Pick<Transaction, 'signatures' | 'messageBytes'>,
): Uint8Array {
  const head = shortVec(tx.signatures.length)
  const out = new Uint8Array(head.length + 64 * tx.signatures.length + tx.messageBytes.length)
  out.set(head)
  tx.signatures.forEach((signature, i) => {
    if (signature.length !== 64) throw invalid('a signature is 64 bytes')
    out.set(signature, head.length + 64 * i)
  })
  out.set(tx.messageBytes, head.length + 64 * tx.signatures.length)
  return out
}

/** Whether two keys (or signatures) are the same bytes. */
export function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return !!a && !!b && a.length === b.length && a.every((byte, i) => byte === b[i])
}
