import { SOLANA_LOCAL_TOKEN, SOLANA_LOCALNET_CAIP } from '@porthole/shared'
import {
  AddressLookupTableAccount,
  ComputeBudgetProgram,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { describe, expect, test } from 'vitest'
import { HIDDEN_WARNING } from './describe.js'
import {
  describeSolanaMessage,
  describeSolanaTransactions,
  solanaMessageText,
  solanaNetworkOf,
  summarizeTransaction,
  TOKEN_PROGRAM,
} from './solanaDescribe.js'
import { decodeTransaction } from './solanaWire.js'

const ME = Keypair.fromSeed(new Uint8Array(32).fill(1)).publicKey
const FRIEND = Keypair.fromSeed(new Uint8Array(32).fill(2)).publicKey
const blockhash = new PublicKey(new Uint8Array(32).fill(9)).toBase58()
const ORIGIN = 'http://localhost:4000'
const localnet = solanaNetworkOf(SOLANA_LOCALNET_CAIP.slice('solana:'.length))

function summary(...instructions: TransactionInstruction[]) {
  const tx = new Transaction({ feePayer: ME, recentBlockhash: blockhash }).add(...instructions)
  const bytes = tx.serialize({ requireAllSignatures: false, verifySignatures: false })
  return summarizeTransaction(decodeTransaction(bytes).message)
}

const card = (send: boolean, ...summaries: ReturnType<typeof summary>[]) =>
  describeSolanaTransactions({ send, origin: ORIGIN, network: localnet, summaries })

describe('Solana transaction cards', () => {
  test('a SOL transfer names the network, the fee payer, the amount in SOL and the recipient', () => {
    const content = card(
      false,
      summary(
        SystemProgram.transfer({
          fromPubkey: ME,
          toPubkey: FRIEND,
          lamports: LAMPORTS_PER_SOL / 2,
        }),
      ),
    )
    expect(content.title).toBe('Sign transaction')
    expect(content.origin).toBe(ORIGIN)
    expect(content.fields).toEqual([
      { label: 'Network', value: `Porthole Solana Localnet (${SOLANA_LOCALNET_CAIP})` },
      { label: 'Fee payer', value: ME.toBase58(), mono: true },
      { label: 'Send', value: '0.5 SOL' },
      { label: 'To', value: FRIEND.toBase58(), mono: true },
      { label: 'Network fee', value: '0.000005 SOL' },
    ])
    expect(content.warnings).toEqual([])
    expect(content.body).toBeUndefined()
  })

  test('a pUSD TransferChecked reads as an amount of the token to a token account', () => {
    const source = Keypair.fromSeed(new Uint8Array(32).fill(5)).publicKey
    const destination = Keypair.fromSeed(new Uint8Array(32).fill(6)).publicKey
    const data = new Uint8Array(10)
    data[0] = 12
    new DataView(data.buffer).setBigUint64(1, 25_500_000n, true)
    data[9] = 6
    const content = card(
      true,
      summary(
        new TransactionInstruction({
          programId: new PublicKey(TOKEN_PROGRAM),
          keys: [
            { pubkey: source, isSigner: false, isWritable: true },
            { pubkey: new PublicKey(SOLANA_LOCAL_TOKEN.mint), isSigner: false, isWritable: false },
            { pubkey: destination, isSigner: false, isWritable: true },
            { pubkey: ME, isSigner: true, isWritable: false },
          ],
          data: Buffer.from(data),
        }),
      ),
    )
    expect(content.title).toBe('Send transaction')
    expect(content.fields).toContainEqual({ label: 'Send', value: '25.5 pUSD' })
    expect(content.fields).toContainEqual({
      label: 'Token',
      value: SOLANA_LOCAL_TOKEN.mint,
      mono: true,
    })
    expect(content.fields).toContainEqual({
      label: 'To token account',
      value: destination.toBase58(),
      mono: true,
    })
    expect(content.fields.map((f) => f.label)).not.toContain('Token owner')
  })

  test('other instructions are counted, warned about and listed whole; compute budget sets the fee', () => {
    const program = Keypair.fromSeed(new Uint8Array(32).fill(7)).publicKey
    const content = card(
      false,
      summary(
        ComputeBudgetProgram.setComputeUnitLimit({ units: 100_000 }),
        ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1000 }),
        SystemProgram.transfer({ fromPubkey: ME, toPubkey: FRIEND, lamports: 1 }),
        new TransactionInstruction({
          programId: program,
          keys: [{ pubkey: FRIEND, isSigner: false, isWritable: true }],
          data: Buffer.from([0xab, 0xcd]),
        }),
      ),
    )
    expect(content.fields).toContainEqual({ label: 'Other', value: '1 other instruction' })
    // 5,000 lamports for the signature, 1,000 µlamports × 100,000 units = 100 lamports priority.
    expect(content.fields).toContainEqual({ label: 'Network fee', value: '0.0000051 SOL' })
    expect(content.warnings).toEqual([
      'This asks to run 1 instruction the wallet cannot read (listed below). Approve only if you trust this site.',
    ])
    expect(content.body).toEqual({
      label: 'Other instructions',
      text: `Instruction 4: program ${program.toBase58()}\n  account ${FRIEND.toBase58()}\n  data 0xabcd`,
    })
  })

  test('a transfer from another account names it, and several transactions share one card', () => {
    const other = Keypair.fromSeed(new Uint8Array(32).fill(8)).publicKey
    const first = summary(
      SystemProgram.transfer({ fromPubkey: other, toPubkey: FRIEND, lamports: 2 }),
    )
    expect(first.otherSigners).toBe(1)
    const content = card(
      false,
      first,
      summary(SystemProgram.transfer({ fromPubkey: ME, toPubkey: FRIEND, lamports: 3 })),
    )
    expect(content.title).toBe('Sign 2 transactions')
    expect(content.fields).toContainEqual({
      label: 'Transaction 1: From',
      value: other.toBase58(),
      mono: true,
    })
    expect(content.fields).toContainEqual({ label: 'Transaction 1: Other signers', value: '1' })
    expect(content.fields).toContainEqual({
      label: 'Transaction 2: Send',
      value: '0.000000003 SOL',
    })
  })

  test('accounts from lookup tables are named once the tables are read, and flagged when not', () => {
    const table = Keypair.fromSeed(new Uint8Array(32).fill(3)).publicKey
    const filler = Keypair.fromSeed(new Uint8Array(32).fill(4)).publicKey
    const message = new TransactionMessage({
      payerKey: ME,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: ME, toPubkey: FRIEND, lamports: 1 })],
    }).compileToV0Message([
      new AddressLookupTableAccount({
        key: table,
        state: {
          deactivationSlot: BigInt('18446744073709551615'),
          lastExtendedSlot: 0,
          lastExtendedSlotStartIndex: 0,
          addresses: [filler, FRIEND],
        },
      }),
    ])
    const decoded = decodeTransaction(new VersionedTransaction(message).serialize()).message
    const unread = card(false, summarizeTransaction(decoded))
    expect(unread.fields).toContainEqual({
      label: 'To',
      value: `lookup table ${table.toBase58()} #1`,
      mono: true,
    })
    expect(unread.warnings).toContain(
      'Some accounts come from address lookup tables the wallet could not read.',
    )
    const read = card(
      false,
      summarizeTransaction(
        decoded,
        new Map([[table.toBase58(), [filler.toBase58(), FRIEND.toBase58()]]]),
      ),
    )
    expect(read.fields).toContainEqual({ label: 'To', value: FRIEND.toBase58(), mono: true })
    expect(read.warnings).toEqual([])
  })
})

describe('Solana message cards', () => {
  test('show UTF-8 text as text, anything else as hex, and hidden characters made visible', () => {
    expect(solanaMessageText(new TextEncoder().encode('Sign in to example.com\nNonce: 1'))).toBe(
      'Sign in to example.com\nNonce: 1',
    )
    expect(solanaMessageText(Uint8Array.of(0xff, 0x00, 0x10))).toBe('0xff0010')
    expect(solanaMessageText(Uint8Array.of(0x68, 0x00))).toBe('0x6800')
    const content = describeSolanaMessage({
      message: new TextEncoder().encode('pay\u202Eevil'),
      account: ME.toBase58(),
      origin: ORIGIN,
    })
    expect(content).toEqual({
      title: 'Sign message',
      origin: ORIGIN,
      fields: [{ label: 'Account', value: ME.toBase58(), mono: true }],
      body: { label: 'Message', text: 'pay⟨U+202E⟩evil' },
      warnings: [HIDDEN_WARNING],
    })
  })

  test('networks Porthole knows are named; others are called a Solana network', () => {
    expect(solanaNetworkOf('5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp').name).toBe('Solana')
    expect(solanaNetworkOf('EtWTRABZaYq6iMfeYKouRu166VU2xqa1')).toEqual({
      caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      name: 'Solana network',
    })
  })
})
