/**
 * The chain as `@solana/web3.js` 1.x sees it: a `Connection` on a random port (PubSub on the
 * next), the genesis accounts, SOL and pUSD transfers confirmed over the WebSocket, history and
 * errors.
 */
import { SOLANA_LOCAL_TOKEN, SOLANA_LOCALNET_GENESIS, SOLANA_TEST_ACCOUNTS } from '@porthole/shared'
import {
  type AccountInfo,
  ComputeBudgetProgram,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { associatedTokenAddress, TOKEN_PROGRAM } from './internal/spl.js'
import { type StartSolanaReturnType, startSolana } from './startSolana.js'

const [A0, A1, A2] = SOLANA_TEST_ACCOUNTS.map((account) =>
  Keypair.fromSeed(Buffer.from(account.seed, 'hex')),
) as [Keypair, Keypair, Keypair]
const MINT = new PublicKey(SOLANA_LOCAL_TOKEN.mint)

/** SPL Token TransferChecked (instruction 12), encoded by hand. */
function transferChecked(from: Keypair, to: PublicKey, amount: bigint): TransactionInstruction {
  const data = Buffer.alloc(10)
  data[0] = 12
  data.writeBigUInt64LE(amount, 1)
  data[9] = SOLANA_LOCAL_TOKEN.decimals
  return new TransactionInstruction({
    programId: new PublicKey(TOKEN_PROGRAM),
    keys: [
      {
        pubkey: new PublicKey(associatedTokenAddress(from.publicKey.toBase58(), MINT.toBase58())),
        isSigner: false,
        isWritable: true,
      },
      { pubkey: MINT, isSigner: false, isWritable: false },
      {
        pubkey: new PublicKey(associatedTokenAddress(to.toBase58(), MINT.toBase58())),
        isSigner: false,
        isWritable: true,
      },
      { pubkey: from.publicKey, isSigner: true, isWritable: false },
    ],
    data,
  })
}

describe('startSolana with @solana/web3.js', () => {
  let solana: StartSolanaReturnType
  let connection: Connection

  beforeAll(async () => {
    solana = await startSolana({ port: 0, silent: true })
    connection = new Connection(solana.url, 'confirmed')
  })
  afterAll(async () => {
    await solana?.stop()
  })

  test('answers on a random port with the PubSub WebSocket on the next one', () => {
    const port = Number(new URL(solana.url).port)
    expect(port).toBeGreaterThan(0)
    expect(solana.wsUrl).toBe(`ws://127.0.0.1:${port + 1}`)
    expect(solana.caipNetworkId).toBe(`solana:${SOLANA_LOCALNET_GENESIS.slice(0, 32)}`)
  })

  test('reports the local genesis hash, a version and a block height', async () => {
    expect(await connection.getGenesisHash()).toBe(SOLANA_LOCALNET_GENESIS)
    expect((await connection.getVersion())['solana-core']).toMatch(/^\d+\.\d+\.\d+$/)
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
    expect(lastValidBlockHeight).toBe((await connection.getBlockHeight()) + 150)
    expect((await connection.isBlockhashValid(blockhash)).value).toBe(true)
  })

  test('getBalance shows 100 SOL on every test account', async () => {
    for (const account of SOLANA_TEST_ACCOUNTS)
      expect(await connection.getBalance(new PublicKey(account.address))).toBe(
        100 * LAMPORTS_PER_SOL,
      )
  })

  test('getTokenAccountsByOwner shows 1,000 pUSD in each test account', async () => {
    const byMint = await connection.getParsedTokenAccountsByOwner(A2.publicKey, { mint: MINT })
    expect(byMint.value).toHaveLength(1)
    const [entry] = byMint.value
    expect(entry!.pubkey.toBase58()).toBe(
      associatedTokenAddress(A2.publicKey.toBase58(), MINT.toBase58()),
    )
    expect(entry!.account.owner.toBase58()).toBe(TOKEN_PROGRAM)
    expect(entry!.account.data.parsed).toEqual({
      type: 'account',
      info: {
        isNative: false,
        mint: MINT.toBase58(),
        owner: A2.publicKey.toBase58(),
        state: 'initialized',
        tokenAmount: {
          amount: '1000000000',
          decimals: 6,
          uiAmount: 1000,
          uiAmountString: '1000',
        },
      },
    })
    const byProgram = await connection.getTokenAccountsByOwner(A2.publicKey, {
      programId: new PublicKey(TOKEN_PROGRAM),
    })
    expect(byProgram.value.map((e) => e.pubkey.toBase58())).toEqual([entry!.pubkey.toBase58()])
    // base64: the raw SPL layout, 165 bytes.
    expect(byProgram.value[0]!.account.data).toHaveLength(165)
  })

  test('a SOL transfer confirmed by sendAndConfirmTransaction moves the balances', async () => {
    const receiver = Keypair.generate().publicKey
    const before = await connection.getBalance(A0.publicKey)
    const signature = await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        SystemProgram.transfer({
          fromPubkey: A0.publicKey,
          toPubkey: receiver,
          lamports: 2 * LAMPORTS_PER_SOL,
        }),
      ),
      [A0],
    )
    expect(await connection.getBalance(receiver)).toBe(2 * LAMPORTS_PER_SOL)
    expect(await connection.getBalance(A0.publicKey)).toBe(before - 2 * LAMPORTS_PER_SOL - 5000)

    const {
      value: [status],
    } = await connection.getSignatureStatuses([signature])
    expect(status).toMatchObject({ err: null, confirmationStatus: 'finalized' })
    const transaction = await connection.getTransaction(signature, {
      maxSupportedTransactionVersion: 0,
    })
    expect(transaction?.meta?.fee).toBe(5000)
    expect(transaction?.meta?.err).toBeNull()
    expect(transaction?.meta?.postBalances[1]).toBe(2 * LAMPORTS_PER_SOL)
    expect(transaction?.version).toBe('legacy')

    const history = await connection.getSignaturesForAddress(receiver)
    expect(history.map((entry) => entry.signature)).toEqual([signature])
    const parsed = await connection.getParsedTransaction(signature, {
      maxSupportedTransactionVersion: 0,
    })
    expect(parsed?.transaction.message.instructions[0]).toMatchObject({
      program: 'system',
      parsed: {
        type: 'transfer',
        info: { source: A0.publicKey.toBase58(), destination: receiver.toBase58() },
      },
    })
  })

  test('the same transfer sent twice lands twice (each landing moves the blockhash on)', async () => {
    const receiver = Keypair.generate().publicKey
    const transfer = () =>
      new Transaction().add(
        SystemProgram.transfer({
          fromPubkey: A1.publicKey,
          toPubkey: receiver,
          lamports: LAMPORTS_PER_SOL,
        }),
      )
    const first = await sendAndConfirmTransaction(connection, transfer(), [A1])
    const second = await sendAndConfirmTransaction(connection, transfer(), [A1])
    expect(second).not.toBe(first)
    expect(await connection.getBalance(receiver)).toBe(2 * LAMPORTS_PER_SOL)
    const history = await connection.getSignaturesForAddress(A1.publicKey, { limit: 2 })
    expect(history.map((entry) => entry.signature)).toEqual([second, first])
  })

  test('a TransferChecked of pUSD between two test accounts succeeds', async () => {
    const signature = await sendAndConfirmTransaction(
      connection,
      new Transaction().add(transferChecked(A0, A1.publicKey, 10_000_000n)),
      [A0],
    )
    const balance = async (owner: PublicKey) =>
      (
        await connection.getTokenAccountBalance(
          new PublicKey(associatedTokenAddress(owner.toBase58(), MINT.toBase58())),
        )
      ).value.uiAmountString
    expect(await balance(A0.publicKey)).toBe('990')
    expect(await balance(A1.publicKey)).toBe('1010')
    const transaction = await connection.getTransaction(signature, {
      maxSupportedTransactionVersion: 0,
    })
    expect(
      Object.fromEntries(
        (transaction?.meta?.postTokenBalances ?? []).map((b) => [
          b.owner,
          b.uiTokenAmount.uiAmountString,
        ]),
      ),
    ).toEqual({ [A0.publicKey.toBase58()]: '990', [A1.publicKey.toBase58()]: '1010' })
    expect(transaction?.meta?.logMessages).toContain(`Program ${TOKEN_PROGRAM} success`)
  })

  test('a transaction the runtime rejects answers a preflight error with its logs', async () => {
    const error = await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        SystemProgram.transfer({
          fromPubkey: A2.publicKey,
          toPubkey: A1.publicKey,
          lamports: 1000 * LAMPORTS_PER_SOL,
        }),
      ),
      [A2],
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SendTransactionError)
    expect((error as Error).message).toContain(
      'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
    )
    expect((error as SendTransactionError).logs?.join('\n')).toContain('insufficient lamports')
    // Nothing was charged.
    expect(await connection.getBalance(A2.publicKey)).toBe(100 * LAMPORTS_PER_SOL)
  })

  test('a transaction with an unknown blockhash is refused with Blockhash not found', async () => {
    const transaction = new Transaction({
      feePayer: A2.publicKey,
      blockhash: Keypair.generate().publicKey.toBase58(),
      lastValidBlockHeight: 1000,
    }).add(
      SystemProgram.transfer({ fromPubkey: A2.publicKey, toPubkey: A1.publicKey, lamports: 1 }),
    )
    transaction.sign(A2)
    const error = await connection
      .sendRawTransaction(transaction.serialize())
      .catch((e: unknown) => e)
    expect((error as Error).message).toContain('Blockhash not found')
  })

  test('a v0 transaction lands; reading it needs maxSupportedTransactionVersion', async () => {
    const receiver = Keypair.generate().publicKey
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
    const transaction = new VersionedTransaction(
      new TransactionMessage({
        payerKey: A2.publicKey,
        recentBlockhash: blockhash,
        instructions: [
          ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000_000 }),
          SystemProgram.transfer({
            fromPubkey: A2.publicKey,
            toPubkey: receiver,
            lamports: LAMPORTS_PER_SOL,
          }),
        ],
      }).compileToV0Message(),
    )
    transaction.sign([A2])
    const simulation = await connection.simulateTransaction(transaction, { sigVerify: true })
    expect(simulation.value.err).toBeNull()
    expect(simulation.value.logs).toContain('Program 11111111111111111111111111111111 success')
    const signature = await connection.sendTransaction(transaction)
    await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight })
    // 5,000 per signature + 1 lamport per µ-lamport × 6,000 units (two builtin instructions).
    expect(await connection.getBalance(A2.publicKey)).toBe(
      100 * LAMPORTS_PER_SOL - LAMPORTS_PER_SOL - 5000 - 6000,
    )
    expect(
      (await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 }))?.meta
        ?.fee,
    ).toBe(11_000)
    await expect(connection.getTransaction(signature)).rejects.toThrow(
      /maxSupportedTransactionVersion/,
    )
  })

  test('simulateTransaction runs an unsigned transaction without sigVerify', async () => {
    const { blockhash } = await connection.getLatestBlockhash()
    const transaction = new VersionedTransaction(
      new TransactionMessage({
        payerKey: A2.publicKey,
        recentBlockhash: blockhash,
        instructions: [transferChecked(A2, A0.publicKey, 1n)],
      }).compileToV0Message(),
    )
    const ata = associatedTokenAddress(A2.publicKey.toBase58(), MINT.toBase58())
    const { value } = await connection.simulateTransaction(transaction, {
      sigVerify: false,
      accounts: { encoding: 'base64', addresses: [ata] },
    })
    expect(value.err).toBeNull()
    expect(value.unitsConsumed).toBeGreaterThan(0)
    // The token account as the simulation left it: 1 base unit less.
    const data = Buffer.from(value.accounts![0]!.data[0]!, 'base64')
    expect(data.readBigUInt64LE(64)).toBe(999_999_999n)
  })

  test('requestAirdrop funds a new account from the faucet', async () => {
    const receiver = Keypair.generate().publicKey
    const signature = await connection.requestAirdrop(receiver, 5 * LAMPORTS_PER_SOL)
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) })
    expect(await connection.getBalance(receiver)).toBe(5 * LAMPORTS_PER_SOL)
  })

  test('accountSubscribe notifies when a transaction changes the account', async () => {
    const receiver = Keypair.generate().publicKey
    let notified: AccountInfo<Buffer> | undefined
    const id = connection.onAccountChange(receiver, (info) => {
      notified = info
    })
    // The subscription travels on its own socket: send until a transfer lands after it.
    for (let sent = 1; !notified && sent <= 10; sent++) {
      await sendAndConfirmTransaction(
        connection,
        new Transaction().add(
          SystemProgram.transfer({
            fromPubkey: A1.publicKey,
            toPubkey: receiver,
            lamports: LAMPORTS_PER_SOL,
          }),
        ),
        [A1],
      )
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await connection.removeAccountChangeListener(id)
    // The account as one of the transfers left it: some whole number of SOL.
    expect(notified!.lamports).toBeGreaterThan(0)
    expect(notified!.lamports % LAMPORTS_PER_SOL).toBe(0)
    expect(notified!.owner.toBase58()).toBe(SystemProgram.programId.toBase58())
  })
})
