/**
 * The local Solana chain (`@porthole/solana`) behind the API, over real HTTP: the RPC proxy
 * (`chainId=solana:<ref>`, its own method allowlist; web3.js reads and sends through it),
 * `/v1/supported-chains`, and SOL and SPL token balances.
 */
import {
  BalanceResponse,
  SOLANA_LOCAL_TOKEN,
  SOLANA_LOCALNET_CAIP,
  SOLANA_LOCALNET_GENESIS,
  SOLANA_TEST_ACCOUNTS,
} from '@porthole/shared'
import { type StartSolanaReturnType, startSolana } from '@porthole/solana'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
} from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../test/databases.js'
import { freePort } from '../../test/freePort.js'
import { resolveConfig } from '../config.js'
import { type StartApiReturnType, startApi } from '../server.js'
import { ChainUnavailableError } from './ChainData.js'
import { createSolanaBalances } from './solana.js'

const PROJECT = 'porthole-demo'
const CAIP = SOLANA_LOCALNET_CAIP
const [A0, A1, A2] = SOLANA_TEST_ACCOUNTS.map((a) => a.address) as [string, string, string]
const payer = Keypair.fromSeed(Buffer.from(SOLANA_TEST_ACCOUNTS[2].seed, 'hex'))

describe('the local Solana chain behind the API', () => {
  let solana: StartSolanaReturnType
  let api: StartApiReturnType
  let target: TestDatabase
  const get = (path: string) =>
    fetch(`${api.url}${path}${path.includes('?') ? '&' : '?'}projectId=${PROJECT}`)
  const balances = async (path: string) => {
    const response = await get(path)
    expect(response.status, await response.clone().text()).toBe(200)
    return BalanceResponse.parse(await response.json()).balances
  }
  const rpc = async (body: unknown, chainId = CAIP) => {
    const response = await fetch(`${api.url}/v1?chainId=${chainId}&projectId=${PROJECT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(response.status).toBe(200)
    return response.json()
  }

  beforeAll(async () => {
    solana = await startSolana({ port: 0, silent: true })
    target = await createTestDatabase('sqlite')
    api = await startApi({
      port: 0,
      databaseUrl: target.url,
      rateLimit: false,
      upstreams: { [CAIP]: solana.url },
      chainData: { chains: [], esplora: {} },
    })
  })
  afterAll(async () => {
    await api?.close()
    await solana?.stop()
    await target?.cleanup()
  })

  test('GET /v1/supported-chains lists the local Solana chain', async () => {
    const body = await (await get('/v1/supported-chains')).json()
    expect(body).toEqual({ http: [CAIP], ws: [] })
  })

  test('the RPC proxy forwards Solana reads, batches included', async () => {
    expect(await rpc({ jsonrpc: '2.0', id: 'g', method: 'getGenesisHash' })).toEqual({
      jsonrpc: '2.0',
      id: 'g',
      result: SOLANA_LOCALNET_GENESIS,
    })
    const [balance, tokens] = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'getBalance', params: [A0] },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'getTokenAccountsByOwner',
        params: [A0, { mint: SOLANA_LOCAL_TOKEN.mint }, { encoding: 'jsonParsed' }],
      },
    ])
    expect(balance.result.value).toBe(100 * LAMPORTS_PER_SOL)
    expect(tokens.result.value[0].account.data.parsed.info.tokenAmount.uiAmountString).toBe('1000')
  })

  test('the proxy refuses methods off the Solana allowlist, and Solana methods on EVM chains', async () => {
    const refused = { code: -32601, message: 'Requested RPC call is not allowed' }
    for (const method of ['requestAirdrop', 'getProgramAccounts', 'eth_chainId'])
      expect((await rpc({ jsonrpc: '2.0', id: 1, method, params: [A0, 1] })).error).toEqual(refused)
    const evm = await fetch(`${api.url}/v1?chainId=eip155:31337&projectId=${PROJECT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [A0] }),
    })
    expect((await evm.json()).error).toEqual(refused)
  })

  test('web3.js sends a transfer through the proxy and reads its status there', async () => {
    const connection = new Connection(`${api.url}/v1?chainId=${CAIP}&projectId=${PROJECT}`)
    const receiver = Keypair.generate().publicKey
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
    const transaction = new Transaction({
      feePayer: payer.publicKey,
      blockhash,
      lastValidBlockHeight,
    }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: receiver,
        lamports: LAMPORTS_PER_SOL,
      }),
    )
    transaction.sign(payer)
    const signature = await connection.sendRawTransaction(transaction.serialize())
    const { value } = await connection.getSignatureStatuses([signature])
    expect(value[0]).toMatchObject({ err: null, confirmationStatus: 'finalized' })
    expect(await connection.getBalance(receiver)).toBe(LAMPORTS_PER_SOL)
    // A preflight failure comes back as the chain's error, logs included.
    const tooMuch = new Transaction({
      feePayer: payer.publicKey,
      ...(await connection.getLatestBlockhash()),
    }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: receiver,
        lamports: 1000 * LAMPORTS_PER_SOL,
      }),
    )
    tooMuch.sign(payer)
    await expect(connection.sendRawTransaction(tooMuch.serialize())).rejects.toThrow(
      /custom program error: 0x1/,
    )
    // Only SOL: the new account holds no token.
    const [line, ...rest] = await balances(`/v1/account/${CAIP}:${receiver.toBase58()}/balance`)
    expect(rest).toEqual([])
    expect(line).toMatchObject({ symbol: 'SOL', quantity: { decimals: '9', numeric: '1' } })
  })

  test('a Solana account gets SOL (9 decimals, no address) and pUSD (its mint, 6 decimals)', async () => {
    const lines = await balances(`/v1/account/${CAIP}:${A0}/balance?currency=usd`)
    expect(lines).toEqual([
      {
        name: 'Solana',
        symbol: 'SOL',
        chainId: CAIP,
        price: 150,
        value: 15_000,
        quantity: { decimals: '9', numeric: '100' },
        iconUrl: `${api.url}/public/getTokenImage/sol?projectId=${PROJECT}`,
      },
      {
        name: 'Porthole USD',
        symbol: 'pUSD',
        chainId: CAIP,
        address: `${CAIP}:${SOLANA_LOCAL_TOKEN.mint}`,
        price: 1,
        value: 1000,
        quantity: { decimals: '6', numeric: '1000' },
        iconUrl: `${api.url}/public/getTokenImage/pusd?projectId=${PROJECT}`,
      },
    ])
  })

  test('a bare address with a solana chainId works too; a transfer shows after forceUpdate', async () => {
    const path = `/v1/account/${A1}/balance?chainId=${CAIP}`
    expect((await balances(path))[0]?.quantity.numeric).toBe('100')
    await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'sendTransaction',
      params: [await transferFromA2To(A1, 0.5 * LAMPORTS_PER_SOL), { encoding: 'base64' }],
    })
    expect((await balances(path))[0]?.quantity.numeric).toBe('100')
    expect((await balances(`${path}&forceUpdate=true`))[0]?.quantity.numeric).toBe('100.5')
  })

  test('addresses are checked: INVALID_REQUEST for a malformed one, UNSUPPORTED_CHAIN elsewhere', async () => {
    for (const bad of ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'O0Il', `${A0}x`]) {
      const response = await get(`/v1/account/${CAIP}:${bad}/balance`)
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({
        code: 'INVALID_REQUEST',
        details: `address: ${bad} is not a Solana address (32 to 44 base58 characters)`,
      })
    }
    const mainnet = await get(`/v1/account/solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${A0}/balance`)
    expect(mainnet.status).toBe(400)
    expect((await mainnet.json()).code).toBe('UNSUPPORTED_CHAIN')
    const differs = await get(
      `/v1/account/${CAIP}:${A0}/balance?chainId=solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`,
    )
    expect(differs.status).toBe(400)
    expect((await differs.json()).code).toBe('INVALID_REQUEST')
    // An EVM address is never read on the Solana chain.
    expect(
      await balances('/v1/account/0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266/balance'),
    ).toEqual([])
  })

  /** A signed transfer from test account 2, base64. */
  const transferFromA2To = async (to: string, lamports: number) => {
    const { result } = await rpc({ jsonrpc: '2.0', id: 1, method: 'getLatestBlockhash' })
    const transaction = new Transaction({
      feePayer: payer.publicKey,
      blockhash: result.value.blockhash,
      lastValidBlockHeight: result.value.lastValidBlockHeight,
    }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: new PublicKey(to),
        lamports,
      }),
    )
    transaction.sign(payer)
    return transaction.serialize().toString('base64')
  }
})

describe('Solana configuration and failures', () => {
  test('the local chain (endpoints().solana) is an upstream and a balance network outside production', () => {
    const config = resolveConfig({}, {})
    expect(config.upstreams[CAIP]).toBe('http://127.0.0.1:8899')
    expect(config.chainData.solana).toEqual({ [CAIP]: 'http://127.0.0.1:8899' })
    const moved = resolveConfig({}, { PORTHOLE_SOLANA_RPC: 'http://127.0.0.1:9899' })
    expect(moved.chainData.solana).toEqual({ [CAIP]: 'http://127.0.0.1:9899' })
    expect(resolveConfig({ production: true }, {}).chainData.solana).toEqual({})
    expect(config.chainData.knownTokens[CAIP]?.map((t) => t.address)).toEqual([
      SOLANA_LOCAL_TOKEN.mint,
    ])
  })

  test('a chain that does not answer is ChainUnavailableError', async () => {
    const reader = createSolanaBalances({
      solana: { [CAIP]: `http://127.0.0.1:${await freePort()}` },
      cacheMs: 0,
      timeoutMs: 2000,
    })
    await expect(reader.balances(CAIP, A2, true)).rejects.toThrow(ChainUnavailableError)
    await expect(reader.balances('solana:other', A2, true)).rejects.toThrow('has no Solana RPC')
  })
})
