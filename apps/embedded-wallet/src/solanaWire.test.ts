import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { describe, expect, test } from 'vitest'
import {
  decodeMessage,
  decodeTransaction,
  encodeTransaction,
  isMessage,
  PACKET_DATA_SIZE,
  sameBytes,
} from './solanaWire.js'

const payer = Keypair.fromSeed(new Uint8Array(32).fill(1))
const friend = Keypair.fromSeed(new Uint8Array(32).fill(2)).publicKey
const blockhash = new PublicKey(new Uint8Array(32).fill(9)).toBase58()

function legacy(): Uint8Array {
  const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
    SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: friend, lamports: 5 }),
  )
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false })
}

/** A v0 transfer whose recipient comes from a lookup table. */
function v0WithLookup(): { bytes: Uint8Array; table: PublicKey } {
  const table = Keypair.fromSeed(new Uint8Array(32).fill(3)).publicKey
  const lookup = new AddressLookupTableAccount({
    key: table,
    state: {
      deactivationSlot: BigInt('18446744073709551615'),
      lastExtendedSlot: 0,
      lastExtendedSlotStartIndex: 0,
      addresses: [Keypair.fromSeed(new Uint8Array(32).fill(4)).publicKey, friend],
    },
  })
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: blockhash,
    instructions: [
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: friend, lamports: 7 }),
    ],
  }).compileToV0Message([lookup])
  return { bytes: new VersionedTransaction(message).serialize(), table }
}

describe('the Solana wire format', () => {
  test('reads a legacy transaction as web3.js wrote it, and writes it back byte for byte', () => {
    const bytes = legacy()
    const tx = decodeTransaction(bytes)
    expect(tx.message.version).toBe('legacy')
    expect(tx.signatures).toHaveLength(1)
    expect(sameBytes(tx.message.staticAccountKeys[0], payer.publicKey.toBytes())).toBe(true)
    expect(new PublicKey(tx.message.recentBlockhash).toBase58()).toBe(blockhash)
    expect(tx.message.instructions).toHaveLength(1)
    expect(Buffer.from(encodeTransaction(tx)).equals(Buffer.from(bytes))).toBe(true)
    const compiled = Transaction.from(bytes).compileMessage().serialize()
    expect(Buffer.from(tx.messageBytes).equals(compiled)).toBe(true)
  })

  test('reads a version 0 transaction with its address table lookups', () => {
    const { bytes, table } = v0WithLookup()
    const tx = decodeTransaction(bytes)
    expect(tx.message.version).toBe(0)
    expect(tx.message.addressTableLookups).toEqual([
      { accountKey: table.toBytes(), writableIndexes: [1], readonlyIndexes: [] },
    ])
    expect(Buffer.from(encodeTransaction(tx)).equals(Buffer.from(bytes))).toBe(true)
    expect(
      Buffer.from(tx.messageBytes).equals(
        Buffer.from(VersionedTransaction.deserialize(bytes).message.serialize()),
      ),
    ).toBe(true)
  })

  test('refuses what the network would not accept as a transaction', () => {
    const bytes = legacy()
    const message = decodeTransaction(bytes).messageBytes
    expect(() => decodeMessage(Uint8Array.of(...message, 0))).toThrow('trailing bytes')
    expect(() => decodeMessage(message.slice(0, -1))).toThrow('truncated')
    expect(() => decodeTransaction(new Uint8Array(PACKET_DATA_SIZE + 1))).toThrow(
      `larger than ${PACKET_DATA_SIZE} bytes`,
    )
    // Two signature slots for one signer.
    expect(() => decodeTransaction(Uint8Array.of(2, ...new Uint8Array(128), ...message))).toThrow(
      'signature count does not match',
    )
    // A length written with a needless extra byte (0x01 as 0x81 0x00).
    expect(() => decodeTransaction(Uint8Array.of(0x81, 0x00, ...bytes.slice(1)))).toThrow(
      'non-canonical length',
    )
    expect(() => decodeMessage(Uint8Array.of(0x81, ...message))).toThrow(
      'version 1 is not supported',
    )
    // The instruction's program index (the system program, 2) pointed past the accounts.
    const badProgram = new Uint8Array(message)
    badProgram[badProgram.length - 1 - 12 - 1 - 2 - 1] = 9
    expect(() => decodeMessage(badProgram)).toThrow('bad program index')
  })

  test('tells a transaction message from text', () => {
    expect(isMessage(decodeTransaction(legacy()).messageBytes)).toBe(true)
    expect(isMessage(new TextEncoder().encode('Sign in to example.com'))).toBe(false)
    expect(isMessage(new Uint8Array(0))).toBe(false)
  })
})
