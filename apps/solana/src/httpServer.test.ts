/**
 * The JSON-RPC endpoint over raw HTTP: batches, notifications, CORS, error codes, base58 wire
 * transactions, account encodings.
 */
import { createHash } from 'node:crypto'
import { SOLANA_LOCAL_TOKEN, SOLANA_LOCALNET_GENESIS, SOLANA_TEST_ACCOUNTS } from '@porthole/shared'
import { base58, base64 } from '@scure/base'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type StartSolanaReturnType, startSolana } from './startSolana.js'

const payer = Keypair.fromSeed(Buffer.from(SOLANA_TEST_ACCOUNTS[1].seed, 'hex'))

describe('the JSON-RPC endpoint', () => {
  let solana: StartSolanaReturnType
  let id = 0
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(solana.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field
  const call = async (method: string, params?: unknown[]): Promise<any> => {
    const response = await post({ jsonrpc: '2.0', id: ++id, method, params })
    expect(response.status).toBe(200)
    return response.json()
  }
  const signedTransfer = async (lamports: number) => {
    const { result } = await call('getLatestBlockhash')
    const transaction = new Transaction({
      feePayer: payer.publicKey,
      blockhash: result.value.blockhash,
      lastValidBlockHeight: result.value.lastValidBlockHeight,
    }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports,
      }),
    )
    transaction.sign(payer)
    return transaction.serialize()
  }

  beforeAll(async () => {
    solana = await startSolana({ port: 0, silent: true, slotMs: 0 })
  })
  afterAll(async () => {
    await solana?.stop()
  })

  test('getGenesisHash is base58 of sha256("porthole-solana-localnet")', async () => {
    const hash = base58.encode(createHash('sha256').update('porthole-solana-localnet').digest())
    expect(hash).toBe(SOLANA_LOCALNET_GENESIS)
    expect((await call('getGenesisHash')).result).toBe(SOLANA_LOCALNET_GENESIS)
  })

  test('a batch is answered in order, notifications are not answered', async () => {
    const response = await post([
      { jsonrpc: '2.0', id: 'a', method: 'getHealth' },
      { jsonrpc: '2.0', method: 'getSlot' },
      { jsonrpc: '2.0', id: 7, method: 'getBalance', params: [SOLANA_TEST_ACCOUNTS[2].address] },
    ])
    const body = await response.json()
    expect(body).toEqual([
      { jsonrpc: '2.0', id: 'a', result: 'ok' },
      {
        jsonrpc: '2.0',
        id: 7,
        result: { context: { apiVersion: expect.any(String), slot: 0 }, value: 100_000_000_000 },
      },
    ])
    expect((await post({ jsonrpc: '2.0', method: 'getSlot' })).status).toBe(204)
  })

  test('an unknown method is -32601, malformed JSON -32700, a bad address -32602', async () => {
    expect((await call('getClusterNodes')).error).toEqual({
      code: -32601,
      message: 'Method not found',
    })
    expect((await call('toString')).error.code).toBe(-32601)
    expect(await (await post('{')).json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    })
    expect((await call('getBalance', ['not-an-address'])).error).toEqual({
      code: -32602,
      message: 'Invalid param: Invalid',
    })
    expect((await post([])).status).toBe(200)
    expect((await (await post([])).json()).error.code).toBe(-32600)
  })

  test('answers CORS preflights for any origin, and GET /health', async () => {
    const preflight = await fetch(solana.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:4000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,solana-client',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type,solana-client')
    expect(
      (await post({ jsonrpc: '2.0', id: 1, method: 'getHealth' })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBe('*')
    const health = await fetch(`${solana.url}/health`)
    expect(await health.text()).toBe('ok')
  })

  test('sendTransaction takes base58 (the default) and answers the base58 signature', async () => {
    const wire = await signedTransfer(1_000_000)
    const { result } = await call('sendTransaction', [base58.encode(wire)])
    expect(result).toBe(base58.encode(Transaction.from(wire).signature!))
    const statuses = await call('getSignatureStatuses', [[result]])
    expect(statuses.result.value[0]).toMatchObject({
      err: null,
      status: { Ok: null },
      confirmationStatus: 'finalized',
    })
    // The same bytes again: already processed.
    const again = await call('sendTransaction', [base64.encode(wire), { encoding: 'base64' }])
    expect(again.error).toMatchObject({
      code: -32002,
      message: 'Transaction simulation failed: This transaction has already been processed',
    })
  })

  test('a transfer that fails while executing lands with skipPreflight, charged and failed', async () => {
    const wire = await signedTransfer(1_000_000_000_000)
    const { result: signature } = await call('sendTransaction', [
      base64.encode(wire),
      { encoding: 'base64', skipPreflight: true },
    ])
    const { result } = await call('getTransaction', [signature, { encoding: 'json' }])
    expect(result.meta.err).toEqual({ InstructionError: [0, { Custom: 1 }] })
    expect(result.meta.status).toEqual({ Err: { InstructionError: [0, { Custom: 1 }] } })
    expect(result.meta.preBalances[0] - result.meta.postBalances[0]).toBe(5000)
    const history = await call('getSignaturesForAddress', [
      payer.publicKey.toBase58(),
      { limit: 1 },
    ])
    expect(history.result[0]).toMatchObject({
      signature,
      err: { InstructionError: [0, { Custom: 1 }] },
    })
  })

  test('a bad signature is -32003, a garbled transaction -32602', async () => {
    const wire = await signedTransfer(1)
    wire[10] = (wire[10]! + 1) % 256
    expect((await call('sendTransaction', [base58.encode(wire)])).error).toEqual({
      code: -32003,
      message: 'Transaction signature verification failure',
    })
    const garbled = await call('sendTransaction', ['AQID', { encoding: 'base64' }])
    expect(garbled.error.code).toBe(-32602)
    expect(garbled.error.message).toMatch(/^invalid transaction: /)
    // Bytes web3.js would still read (a trailing byte) are refused before the runtime sees them.
    const trailing = Buffer.concat([await signedTransfer(1_000_000), Buffer.from([0])])
    const refused = await call('sendTransaction', [
      trailing.toString('base64'),
      { encoding: 'base64' },
    ])
    expect(refused.error).toEqual({
      code: -32602,
      message: 'invalid transaction: failed to deserialize VersionedTransaction: not canonical',
    })
    expect((await call('getHealth')).result).toBe('ok')
  })

  test('getAccountInfo encodes the pUSD mint in base64 and jsonParsed', async () => {
    const raw = await call('getAccountInfo', [SOLANA_LOCAL_TOKEN.mint, { encoding: 'base64' }])
    const data = base64.decode(raw.result.value.data[0])
    expect(data).toHaveLength(82)
    expect(raw.result.value.owner).toBe('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')
    const parsed = await call('getAccountInfo', [
      SOLANA_LOCAL_TOKEN.mint,
      { encoding: 'jsonParsed' },
    ])
    expect(parsed.result.value.data).toEqual({
      program: 'spl-token',
      space: 82,
      parsed: {
        type: 'mint',
        info: {
          decimals: 6,
          freezeAuthority: null,
          isInitialized: true,
          mintAuthority: SOLANA_TEST_ACCOUNTS[0].address,
          supply: '3000000000',
        },
      },
    })
    // rentEpoch is u64::MAX, written with every digit.
    expect(
      await (
        await post({
          jsonrpc: '2.0',
          id: 1,
          method: 'getAccountInfo',
          params: [SOLANA_LOCAL_TOKEN.mint],
        })
      ).text(),
    ).toContain('"rentEpoch":18446744073709551615')
    const missing = await call('getAccountInfo', [Keypair.generate().publicKey.toBase58()])
    expect(missing.result.value).toBeNull()
  })

  test('getMultipleAccounts, getTokenSupply and getMinimumBalanceForRentExemption', async () => {
    const { result } = await call('getMultipleAccounts', [
      [SOLANA_TEST_ACCOUNTS[2].address, new PublicKey(0).toBase58()],
      { encoding: 'base64' },
    ])
    expect(result.value[0].lamports).toBe(100_000_000_000)
    expect(result.value[1].executable).toBe(true)
    expect((await call('getTokenSupply', [SOLANA_LOCAL_TOKEN.mint])).result.value).toEqual({
      amount: '3000000000',
      decimals: 6,
      uiAmount: 3000,
      uiAmountString: '3000',
    })
    expect((await call('getMinimumBalanceForRentExemption', [165])).result).toBe(2_039_280)
  })

  test('getFeeForMessage prices a message; an unknown blockhash answers null', async () => {
    const wire = await signedTransfer(1)
    const message = Transaction.from(wire).serializeMessage()
    expect((await call('getFeeForMessage', [message.toString('base64')])).result.value).toBe(5000)
    const stale = Transaction.from(wire)
    stale.recentBlockhash = Keypair.generate().publicKey.toBase58()
    const value = (await call('getFeeForMessage', [stale.serializeMessage().toString('base64')]))
      .result.value
    expect(value).toBeNull()
  })

  test('requestAirdrop is answered with the signature of a faucet transfer', async () => {
    const receiver = Keypair.generate().publicKey.toBase58()
    const { result: signature } = await call('requestAirdrop', [receiver, 3_000_000_000])
    const { result } = await call('getTransaction', [signature, { encoding: 'jsonParsed' }])
    expect(result.transaction.message.instructions[0].parsed).toEqual({
      type: 'transfer',
      info: { source: expect.any(String), destination: receiver, lamports: 3_000_000_000 },
    })
    expect((await call('getBalance', [receiver])).result.value).toBe(3_000_000_000)
  })

  test('each landed transaction starts a new slot with a new blockhash', async () => {
    const before = await call('getLatestBlockhash')
    const sent = await call('sendTransaction', [base58.encode(await signedTransfer(1_000_000))])
    expect(sent.result).toEqual(expect.any(String))
    const after = await call('getLatestBlockhash')
    expect(after.result.context.slot).toBe(before.result.context.slot + 1)
    expect(after.result.value.blockhash).not.toBe(before.result.value.blockhash)
    expect((await call('isBlockhashValid', [before.result.value.blockhash])).result.value).toBe(
      true,
    )
  })
})
