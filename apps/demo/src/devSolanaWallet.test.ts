/**
 * The Solana dev wallet's pure parts: keys, the wire-format reader and signer (checked against
 * `@solana/web3.js`), prompts, and its Wallet Standard behaviour (permission, modes, events,
 * signing, sending) with a fake JSON-RPC.
 */
import { ed25519 } from '@noble/curves/ed25519'
import { SOLANA_TEST_ACCOUNTS } from '@porthole/shared'
import { base58, base64 } from '@scure/base'
import {
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { describe, expect, test, vi } from 'vitest'
import {
  createSolanaDevWallet,
  describeMessage,
  describeTransaction,
  parseTransaction,
  SOLANA_DEV_WALLET_CHAINS,
  signTransaction,
  solanaKeyOf,
} from './devSolanaWallet.ts'

const [account0, account1] = SOLANA_TEST_ACCOUNTS
const key0 = solanaKeyOf(account0.seed)
const BLOCKHASH = base58.encode(new Uint8Array(32).fill(7))

/** An unsigned SOL transfer from `from` (fee payer) to `to`, legacy or v0, serialized. */
function transfer(from: string, to: string, lamports: number, versioned = false): Uint8Array {
  const instruction = SystemProgram.transfer({
    fromPubkey: new PublicKey(from),
    toPubkey: new PublicKey(to),
    lamports,
  })
  if (versioned) {
    const message = new TransactionMessage({
      payerKey: new PublicKey(from),
      recentBlockhash: BLOCKHASH,
      instructions: [instruction],
    }).compileToV0Message()
    return new VersionedTransaction(message).serialize()
  }
  const tx = new Transaction({ feePayer: new PublicKey(from), recentBlockhash: BLOCKHASH })
  tx.add(instruction)
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false })
}

/** A wallet in `mode` with memory storage and a fake JSON-RPC. */
function makeWallet(
  options: { mode?: 'approve' | 'reject' | 'prompt'; confirm?: () => boolean } = {},
  store = new Map<string, string>(),
) {
  const rpc = vi.fn(async (_url: string, init: RequestInit) => {
    const { method, params } = JSON.parse(String(init.body)) as {
      method: string
      params: unknown[]
    }
    if (method === 'sendTransaction') {
      const [wire] = params as [string]
      const { signatures } = parseTransaction(base64.decode(wire))
      return Response.json({
        jsonrpc: '2.0',
        id: 1,
        result: base58.encode(signatures[0] as Uint8Array),
      })
    }
    if (method === 'getSignatureStatuses')
      return Response.json({
        jsonrpc: '2.0',
        id: 1,
        result: { value: [{ confirmationStatus: 'confirmed', err: null }] },
      })
    return Response.json({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'nope' } })
  })
  const made = createSolanaDevWallet({
    mode: options.mode ?? 'approve',
    ...(options.confirm ? { confirm: options.confirm } : {}),
    origin: 'http://localhost:4000',
    storage: { getItem: (key) => store.get(key) ?? null, setItem: (k, v) => store.set(k, v) },
    fetch: rpc as unknown as typeof fetch,
  })
  return { ...made, rpc, store, features: made.wallet.features }
}

describe('keys and the wire format', () => {
  test('the default keys are the local chain’s funded test accounts', () => {
    for (const account of SOLANA_TEST_ACCOUNTS)
      expect(solanaKeyOf(account.seed).address).toBe(account.address)
    expect(() => solanaKeyOf('abcd')).toThrow(/32 bytes/)
  })

  test('reads legacy and v0 transactions as @solana/web3.js writes them', () => {
    for (const versioned of [false, true]) {
      const parsed = parseTransaction(
        transfer(account0.address, account1.address, 10_000_000, versioned),
      )
      expect(parsed.version).toBe(versioned ? 0 : 'legacy')
      expect(parsed.signers).toEqual([account0.address])
      expect(parsed.instructions).toHaveLength(1)
      expect(parsed.instructions[0]?.programId).toBe(SystemProgram.programId.toBase58())
      expect(describeTransaction(parsed)).toBe(
        `Send 0.01 SOL to ${account1.address}\nFee payer: ${account0.address}`,
      )
    }
  })

  test('signs into its own slot; @solana/web3.js verifies the signature', () => {
    const legacy = signTransaction(transfer(account0.address, account1.address, 1), key0)
    expect(Transaction.from(legacy).verifySignatures()).toBe(true)
    const v0 = VersionedTransaction.deserialize(
      signTransaction(transfer(account0.address, account1.address, 1, true), key0),
    )
    expect(
      ed25519.verify(v0.signatures[0] as Uint8Array, v0.message.serialize(), key0.publicKey),
    ).toBe(true)
  })

  test('a transaction our key does not sign, or a broken one, is refused with -32602', () => {
    const other = Keypair.generate().publicKey.toBase58()
    expect(() => signTransaction(transfer(other, account1.address, 1), key0)).toThrow(
      expect.objectContaining({ code: -32602 }),
    )
    expect(() => parseTransaction(new Uint8Array([1, 2, 3]))).toThrow(
      expect.objectContaining({ code: -32602 }),
    )
  })

  test('messages show as text, or as hex when they are not UTF-8', () => {
    expect(describeMessage(new TextEncoder().encode('Hello'))).toBe('Hello')
    expect(describeMessage(new Uint8Array([0xff, 0x00]))).toBe('0xff00')
  })
})

describe('the wallet', () => {
  test('declares the Wallet Standard shape Porthole lists as Solana', () => {
    const { wallet } = makeWallet()
    expect(wallet.name).toBe('Porthole Solana Dev Wallet')
    expect(wallet.icon).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(wallet.chains).toEqual(['solana:localnet', 'solana:devnet'])
    expect(Object.keys(wallet.features).sort()).toEqual([
      'solana:signAndSendTransaction',
      'solana:signMessage',
      'solana:signTransaction',
      'standard:connect',
      'standard:disconnect',
      'standard:events',
    ])
    expect(wallet.accounts).toEqual([])
  })

  test('connect asks (prompt mode), remembers the grant, and a silent connect never asks', async () => {
    const confirm = vi.fn(() => true)
    const store = new Map<string, string>()
    const { features } = makeWallet({ mode: 'prompt', confirm }, store)
    expect((await features['standard:connect'].connect({ silent: true })).accounts).toEqual([])
    expect(confirm).not.toHaveBeenCalled()
    const { accounts } = await features['standard:connect'].connect()
    expect(confirm).toHaveBeenCalledWith(
      `Porthole Solana Dev Wallet\n\nConnect http://localhost:4000 to ${account0.address}?`,
    )
    expect(accounts[0]).toMatchObject({
      address: account0.address,
      chains: [...SOLANA_DEV_WALLET_CHAINS],
    })
    // A reload: the same storage, granted without asking.
    const again = makeWallet({ mode: 'prompt', confirm }, store)
    expect(
      (await again.features['standard:connect'].connect({ silent: true })).accounts,
    ).toHaveLength(1)
    expect(confirm).toHaveBeenCalledTimes(1)
  })

  test('reject mode refuses with 4001; nothing is signed before a grant (4100)', async () => {
    const { features } = makeWallet({ mode: 'reject' })
    await expect(features['standard:connect'].connect()).rejects.toMatchObject({ code: 4001 })
    await expect(
      features['solana:signMessage'].signMessage({
        account: { address: account0.address },
        message: new Uint8Array([1]),
      }),
    ).rejects.toMatchObject({ code: 4100 })
  })

  test('signMessage: ed25519 over the message bytes', async () => {
    const { features } = makeWallet()
    const [account] = (await features['standard:connect'].connect()).accounts
    const message = new TextEncoder().encode('Sign in to the demo')
    const [output] = await features['solana:signMessage'].signMessage({
      account: account as never,
      message,
    })
    expect(output?.signedMessage).toEqual(message)
    expect(ed25519.verify(output?.signature as Uint8Array, message, key0.publicKey)).toBe(true)
  })

  test('signTransaction signs each input; signAndSendTransaction sends base64 and answers the signature', async () => {
    const { features, rpc } = makeWallet()
    const [account] = (await features['standard:connect'].connect()).accounts
    const [a, b] = await features['solana:signTransaction'].signTransaction(
      { account: account as never, transaction: transfer(account0.address, account1.address, 1) },
      { account: account as never, transaction: transfer(account0.address, account1.address, 2) },
    )
    for (const signed of [a, b])
      expect(Transaction.from(signed?.signedTransaction as Uint8Array).verifySignatures()).toBe(
        true,
      )

    const transaction = transfer(account0.address, account1.address, 5_000)
    const [sent] = await features['solana:signAndSendTransaction'].signAndSendTransaction({
      account: account as never,
      transaction,
      chain: 'solana:localnet',
      options: { skipPreflight: true, commitment: 'confirmed', mode: 'serial' },
    })
    const [url, init] = rpc.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('http://127.0.0.1:8899')
    const body = JSON.parse(String(init.body))
    expect(body.method).toBe('sendTransaction')
    expect(body.params[1]).toEqual({ skipPreflight: true, encoding: 'base64' })
    const wire = base64.decode(body.params[0])
    expect(Transaction.from(wire).verifySignatures()).toBe(true)
    expect(sent?.signature).toEqual(parseTransaction(wire).signatures[0])
    // commitment: it waited for the status.
    expect(JSON.parse(String((rpc.mock.calls[1] as [string, RequestInit])[1].body)).method).toBe(
      'getSignatureStatuses',
    )
  })

  test('an unknown chain is refused before anything is signed', async () => {
    const { features } = makeWallet()
    const [account] = (await features['standard:connect'].connect()).accounts
    await expect(
      features['solana:signAndSendTransaction'].signAndSendTransaction({
        account: account as never,
        transaction: transfer(account0.address, account1.address, 1),
        chain: 'solana:mainnet',
      }),
    ).rejects.toMatchObject({ code: -32602 })
  })

  test('events: disconnect and account switches emit change; another tab’s grant applies here', async () => {
    const { features, controls, store } = makeWallet()
    const seen: string[][] = []
    features['standard:events'].on('change', ({ accounts }) =>
      seen.push(accounts.map((a) => a.address)),
    )
    await features['standard:connect'].connect()
    controls.switchAccount(1)
    await features['standard:disconnect'].disconnect()
    expect(seen).toEqual([[account0.address], [account1.address], []])
    expect(JSON.parse(store.get('porthole-solana-dev-wallet') ?? '{}')).toEqual({
      permitted: false,
      account: 1,
    })
    controls.sync(JSON.stringify({ permitted: true, account: 1 }))
    expect(seen.at(-1)).toEqual([account1.address])
  })
})
