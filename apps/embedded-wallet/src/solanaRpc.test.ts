import { ed25519 } from '@noble/curves/ed25519'
import { formatSiwxMessage, SOLANA_LOCALNET_CAIP } from '@porthole/shared'
import { base58 } from '@scure/base'
import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { ApprovalContent } from './describe.js'

// The frame's Solana path with only its edges replaced: the session (who is signed in), the
// approval card (the user's answer), the signer Worker (by the same pure functions it runs) and
// `fetch` (the API's RPC proxy). Everything between — params, decoding, the card's content,
// signing, the signed bytes, sending — is the real code.
vi.mock('./session.js', () => ({
  address: vi.fn(),
  solanaAddress: vi.fn(),
  chainId: vi.fn(() => 31337),
}))
vi.mock('./approval.js', () => ({ requestApproval: vi.fn(), assertApprovalRoom: () => {} }))
vi.mock('./signer.js', () => ({
  signer: { signSolanaMessage: vi.fn(), signSolanaTransaction: vi.fn() },
}))

const Session = await import('./session.js')
const { requestApproval } = await import('./approval.js')
const { signer } = await import('./signer.js')
const { configureApi } = await import('./api.js')
const { handleRpc, setDappOrigin } = await import('./rpc.js')
const { solanaKeyOf } = await import('./keys.js')
const SolanaSign = await import('./solanaSign.js')
const { PREFLIGHT_COMMITMENTS } = await import('./solanaRpc.js')

const KEY = solanaKeyOf(new Uint8Array(32).fill(42))
const ME = new PublicKey(KEY.address)
const FRIEND = Keypair.fromSeed(new Uint8Array(32).fill(2)).publicKey
const STRANGER = Keypair.fromSeed(new Uint8Array(32).fill(3))
const REFERENCE = SOLANA_LOCALNET_CAIP.slice('solana:'.length)
const blockhash = new PublicKey(new Uint8Array(32).fill(9)).toBase58()
const API = 'http://127.0.0.1:4300'

const shown: string[] = []
const cards = () => vi.mocked(requestApproval).mock.calls.map(([content]) => content)
let rpcCalls: { url: URL; method: string; params: unknown[] }[] = []
/** The API's RPC proxy, stubbed at `fetch`: answers by JSON-RPC method. */
let rpcAnswers: Record<string, unknown> = {}

function request(method: string, params?: unknown, extra: Record<string, unknown> = {}) {
  return handleRpc(
    {
      id: '1',
      method,
      params,
      namespace: 'solana',
      chainId: REFERENCE,
      ...extra,
    },
    (m) => shown.push(m),
  )
}

const bs58 = (bytes: ArrayLike<number>) => base58.encode(Uint8Array.from(bytes))
const fromBs58 = (text: string) => base58.decode(text)
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')
const transfer = (feePayer = ME) =>
  new Transaction({ feePayer, recentBlockhash: blockhash }).add(
    SystemProgram.transfer({ fromPubkey: feePayer, toPubkey: FRIEND, lamports: 1_000_000 }),
  )
const unsigned = (tx: Transaction) =>
  base64(tx.serialize({ requireAllSignatures: false, verifySignatures: false }))

beforeEach(() => {
  configureApi({
    apiUrl: API,
    modalUrl: 'http://127.0.0.1:4100',
    walletUrl: 'http://wallet.localhost:4200',
    recoveryUrl: 'http://127.0.0.1:4700',
    projectId: 'porthole-demo',
  })
  setDappOrigin('http://localhost:4000')
  vi.mocked(Session.address).mockReturnValue('0x1111111111111111111111111111111111111111')
  vi.mocked(Session.solanaAddress).mockReturnValue(KEY.address)
  vi.mocked(requestApproval).mockResolvedValue(true)
  vi.mocked(signer.signSolanaMessage).mockImplementation(async (m) =>
    SolanaSign.signMessage(KEY, m),
  )
  vi.mocked(signer.signSolanaTransaction).mockImplementation(async (m) =>
    SolanaSign.signTransaction(KEY, m),
  )
  rpcCalls = []
  rpcAnswers = {}
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: URL, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { method: string; params: unknown[] }
      rpcCalls.push({ url: new URL(url), method: body.method, params: body.params })
      return Response.json(
        body.method in rpcAnswers
          ? { jsonrpc: '2.0', id: 1, result: rpcAnswers[body.method] }
          : { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } },
      )
    }),
  )
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.clearAllMocks()
  shown.length = 0
})

describe('Solana accounts', () => {
  test('getAccounts and requestAccounts answer the Solana address of the signed-in wallet', async () => {
    expect(await request('solana_getAccounts')).toEqual([{ pubkey: KEY.address }])
    expect(await request('solana_requestAccounts')).toEqual([{ pubkey: KEY.address }])
    vi.mocked(Session.solanaAddress).mockReturnValue(null)
    expect(await request('solana_getAccounts')).toEqual([])
    await expect(request('solana_requestAccounts')).rejects.toMatchObject({ code: 4100 })
  })
})

describe('solana_signMessage', () => {
  test('signs after approval; the signature verifies with ed25519 against the address', async () => {
    const message = new TextEncoder().encode('Sign in to localhost:4000\nNonce: 42')
    const { signature } = (await request('solana_signMessage', {
      message: bs58(message),
      pubkey: KEY.address,
    })) as { signature: string }
    expect(ed25519.verify(fromBs58(signature), message, ME.toBytes())).toBe(true)
    expect(shown).toEqual(['solana_signMessage'])
    expect(cards()[0]).toMatchObject({
      title: 'Sign message',
      origin: 'http://localhost:4000',
      fields: [{ label: 'Account', value: KEY.address, mono: true }],
      body: { label: 'Message', text: 'Sign in to localhost:4000\nNonce: 42' },
    })
  })

  test('refuses a pubkey that is not this wallet, before any card', async () => {
    await expect(
      request('solana_signMessage', { message: bs58([1, 2]), pubkey: FRIEND.toBase58() }),
    ).rejects.toMatchObject({ code: 4100, message: 'The requested account is not this wallet' })
    expect(requestApproval).not.toHaveBeenCalled()
  })

  test('rejection on the card is the standard 4001, and nothing is signed', async () => {
    vi.mocked(requestApproval).mockResolvedValue(false)
    await expect(
      request('solana_signMessage', { message: bs58([104, 105]), pubkey: KEY.address }),
    ).rejects.toMatchObject({ code: 4001, message: 'User rejected the request.' })
    expect(signer.signSolanaMessage).not.toHaveBeenCalled()
  })

  test('a sign-in message for another site is refused before any card (issue 25); one for the asking site is signed', async () => {
    const signIn = (domain: string) =>
      formatSiwxMessage('solana', {
        domain,
        address: KEY.address,
        uri: `https://${domain}`,
        version: '1',
        chainId: 'DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P',
        nonce: 'k2Jf8sLq0aZ',
        issuedAt: new Date().toISOString(),
      })
    await expect(
      request('solana_signMessage', {
        message: bs58(new TextEncoder().encode(signIn('bank.example'))),
        pubkey: KEY.address,
      }),
    ).rejects.toMatchObject({ code: 4100 })
    expect(requestApproval).not.toHaveBeenCalled()
    const own = new TextEncoder().encode(signIn('localhost:4000'))
    const { signature } = (await request('solana_signMessage', {
      message: bs58(own),
      pubkey: KEY.address,
    })) as { signature: string }
    expect(ed25519.verify(fromBs58(signature), own, ME.toBytes())).toBe(true)
  })

  test('a message that is a transaction is never signed as a message', async () => {
    const tx = transfer()
    const messageBytes = tx.compileMessage().serialize()
    await expect(
      request('solana_signMessage', { message: bs58(messageBytes), pubkey: KEY.address }),
    ).rejects.toMatchObject({ code: -32602, message: SolanaSign.MESSAGE_IS_TRANSACTION })
  })
})

describe('solana_signTransaction', () => {
  test('a legacy transaction comes back signed: the signature verifies and the card named the transfer', async () => {
    const result = (await request('solana_signTransaction', {
      transaction: unsigned(transfer()),
    })) as { signature: string; transaction: string }
    const signed = Transaction.from(Buffer.from(result.transaction, 'base64'))
    expect(signed.verifySignatures()).toBe(true)
    expect(fromBs58(result.signature)).toEqual(new Uint8Array(signed.signature as Buffer))
    expect(signed.instructions).toHaveLength(1)
    expect(shown).toEqual(['solana_signTransaction'])
    const card = cards()[0] as ApprovalContent
    expect(card.title).toBe('Sign transaction')
    expect(card.fields).toContainEqual({ label: 'Fee payer', value: KEY.address, mono: true })
    expect(card.fields).toContainEqual({ label: 'Send', value: '0.001 SOL' })
    expect(card.fields).toContainEqual({ label: 'To', value: FRIEND.toBase58(), mono: true })
    expect(rpcCalls).toEqual([])
  })

  test('a version 0 transaction comes back signed; signatures of other signers are kept', async () => {
    const message = new TransactionMessage({
      payerKey: ME,
      recentBlockhash: blockhash,
      instructions: [
        SystemProgram.transfer({ fromPubkey: STRANGER.publicKey, toPubkey: FRIEND, lamports: 1 }),
      ],
    }).compileToV0Message()
    const tx = new VersionedTransaction(message)
    tx.sign([STRANGER])
    const result = (await request('solana_signTransaction', {
      transaction: base64(tx.serialize()),
    })) as { signature: string; transaction: string }
    const signed = VersionedTransaction.deserialize(Buffer.from(result.transaction, 'base64'))
    const bytes = signed.message.serialize()
    expect(signed.signatures).toHaveLength(2)
    expect(ed25519.verify(signed.signatures[0] as Uint8Array, bytes, ME.toBytes())).toBe(true)
    expect(
      ed25519.verify(signed.signatures[1] as Uint8Array, bytes, STRANGER.publicKey.toBytes()),
    ).toBe(true)
    expect(fromBs58(result.signature)).toEqual(signed.signatures[0])
  })

  test('a transaction another key pays for is refused, before any card', async () => {
    await expect(
      request('solana_signTransaction', { transaction: unsigned(transfer(STRANGER.publicKey)) }),
    ).rejects.toMatchObject({
      code: -32602,
      message: "The transaction's fee payer is not this wallet",
    })
    expect(requestApproval).not.toHaveBeenCalled()
    expect(signer.signSolanaTransaction).not.toHaveBeenCalled()
    // The signer refuses it on its own too.
    const messageBytes = transfer(STRANGER.publicKey).compileMessage().serialize()
    expect(() => SolanaSign.signTransaction(KEY, messageBytes)).toThrow(
      SolanaSign.FEE_PAYER_NOT_WALLET,
    )
  })

  test('rejection on the card is the standard 4001', async () => {
    vi.mocked(requestApproval).mockResolvedValue(false)
    await expect(
      request('solana_signTransaction', { transaction: unsigned(transfer()) }),
    ).rejects.toMatchObject({ code: 4001, message: 'User rejected the request.' })
    expect(signer.signSolanaTransaction).not.toHaveBeenCalled()
  })

  test('needs the network, and refuses what is not a transaction', async () => {
    await expect(
      request(
        'solana_signTransaction',
        { transaction: unsigned(transfer()) },
        { chainId: undefined },
      ),
    ).rejects.toMatchObject({ code: -32602 })
    await expect(
      request('solana_signTransaction', { transaction: 'bm90IGEgdHJhbnNhY3Rpb24=' }),
    ).rejects.toMatchObject({ code: -32602 })
    await expect(request('solana_signTransaction', { transaction: '%%%' })).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid transaction: base64 wire format expected',
    })
  })
})

describe('solana_signAllTransactions', () => {
  test('one card for all of them; each comes back signed', async () => {
    const second = new Transaction({ feePayer: ME, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: ME, toPubkey: STRANGER.publicKey, lamports: 2 }),
    )
    const { transactions } = (await request('solana_signAllTransactions', {
      transactions: [unsigned(transfer()), unsigned(second)],
    })) as { transactions: string[] }
    expect(transactions).toHaveLength(2)
    for (const text of transactions)
      expect(Transaction.from(Buffer.from(text, 'base64')).verifySignatures()).toBe(true)
    expect(requestApproval).toHaveBeenCalledOnce()
    expect(cards()[0]?.title).toBe('Sign 2 transactions')
  })

  test('refuses all of them when one is paid by another key', async () => {
    await expect(
      request('solana_signAllTransactions', {
        transactions: [unsigned(transfer()), unsigned(transfer(STRANGER.publicKey))],
      }),
    ).rejects.toMatchObject({ message: "The transaction's fee payer is not this wallet" })
    expect(requestApproval).not.toHaveBeenCalled()
  })
})

describe('solana_signAndSendTransaction', () => {
  test('sends the signed transaction through the API RPC proxy of the request network', async () => {
    rpcAnswers.sendTransaction = 'ignored'
    const { signature } = (await request('solana_signAndSendTransaction', {
      transaction: unsigned(transfer()),
      sendOptions: { skipPreflight: true, preflightCommitment: 'confirmed', bogus: 1 },
    })) as { signature: string }
    expect(cards()[0]?.title).toBe('Send transaction')
    expect(rpcCalls).toHaveLength(1)
    const [call] = rpcCalls as [(typeof rpcCalls)[number]]
    expect(call.url.origin + call.url.pathname).toBe(`${API}/v1`)
    expect(call.url.searchParams.get('chainId')).toBe(SOLANA_LOCALNET_CAIP)
    expect(call.url.searchParams.get('projectId')).toBe('porthole-demo')
    expect(call.method).toBe('sendTransaction')
    const [sent, options] = call.params as [string, unknown]
    expect(options).toEqual({
      skipPreflight: true,
      preflightCommitment: 'confirmed',
      encoding: 'base64',
    })
    const tx = Transaction.from(Buffer.from(sent, 'base64'))
    expect(tx.verifySignatures()).toBe(true)
    // The answer is the transaction's id: its first signature, the wallet's.
    expect(fromBs58(signature)).toEqual(new Uint8Array(tx.signature as Buffer))
  })

  test("each of the spec's eight preflight commitments is sent as the level it means; another is refused with nothing sent", async () => {
    rpcAnswers.sendTransaction = 'ignored'
    const sentAs: Record<string, unknown> = {}
    for (const name of Object.keys(PREFLIGHT_COMMITMENTS)) {
      rpcCalls.length = 0
      await request('solana_signAndSendTransaction', {
        transaction: unsigned(transfer()),
        sendOptions: { preflightCommitment: name },
      })
      const [call] = rpcCalls as [(typeof rpcCalls)[number]]
      sentAs[name] = (call.params[1] as { preflightCommitment?: string }).preflightCommitment
    }
    expect(sentAs).toEqual({
      processed: 'processed',
      confirmed: 'confirmed',
      finalized: 'finalized',
      recent: 'processed',
      single: 'confirmed',
      singleGossip: 'confirmed',
      root: 'finalized',
      max: 'finalized',
    })
    for (const bad of ['Confirmed', 'toString', 'constructor', 3]) {
      rpcCalls.length = 0
      await expect(
        request('solana_signAndSendTransaction', {
          transaction: unsigned(transfer()),
          sendOptions: { preflightCommitment: bad },
        }),
      ).rejects.toThrow(
        /^Invalid preflightCommitment: one of processed, confirmed, finalized, recent, single, singleGossip, root, max$/,
      )
      expect(rpcCalls).toHaveLength(0)
    }
  })

  test('a refusal of the network reaches the caller', async () => {
    await expect(
      request('solana_signAndSendTransaction', { transaction: unsigned(transfer()) }),
    ).rejects.toThrow('Method not found')
  })

  test('accounts from lookup tables are read through the proxy and named on the card', async () => {
    const table = Keypair.fromSeed(new Uint8Array(32).fill(5)).publicKey
    const filler = Keypair.fromSeed(new Uint8Array(32).fill(6)).publicKey
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
    // An address lookup table account: a 56-byte header, then the addresses.
    const data = new Uint8Array(56 + 64)
    data.set(filler.toBytes(), 56)
    data.set(FRIEND.toBytes(), 88)
    rpcAnswers.getAccountInfo = {
      value: {
        owner: 'AddressLookupTab1e1111111111111111111111111',
        data: [base64(data), 'base64'],
      },
    }
    rpcAnswers.sendTransaction = 'ok'
    await request('solana_signAndSendTransaction', {
      transaction: base64(new VersionedTransaction(message).serialize()),
    })
    expect(rpcCalls.map((c) => c.method)).toEqual(['getAccountInfo', 'sendTransaction'])
    expect(rpcCalls[0]?.params[0]).toBe(table.toBase58())
    expect(cards()[0]?.fields).toContainEqual({ label: 'To', value: FRIEND.toBase58(), mono: true })
  })
})

describe('routing by namespace', () => {
  test('Solana methods need the namespace; other methods are not allowed in it', async () => {
    await expect(
      handleRpc({ id: '1', method: 'solana_signMessage', params: {} }, () => {}),
    ).rejects.toMatchObject({
      code: 4200,
      message: "solana_signMessage needs the request's namespace 'solana'",
    })
    await expect(request('eth_sendTransaction', [{}])).rejects.toMatchObject({
      message: 'Requested RPC call is not allowed',
    })
    await expect(request('solana_signMessage', { message: bs58([1]) })).resolves.toHaveProperty(
      'signature',
    )
  })
})
