/**
 * The regtest over HTTP, as a wallet or explorer uses its Esplora API.
 */
import { BITCOIN_REGTEST_GENESIS, BITCOIN_TEST_ACCOUNTS } from '@porthole/shared'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { signedTransfer, testKeys } from '../test/keys.ts'
import { type StartBitcoinReturnType, startBitcoin } from './index.ts'

const [a0, a1, a2] = [testKeys(0), testKeys(1), testKeys(2)]

describe('the Esplora API', () => {
  let bitcoin: StartBitcoinReturnType
  const get = async (path: string) => {
    const response = await fetch(`${bitcoin.url}${path}`)
    expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200)
    return response.headers.get('content-type')?.startsWith('application/json')
      ? response.json()
      : response.text()
  }
  const post = (path: string, body: string) =>
    fetch(`${bitcoin.url}${path}`, { method: 'POST', body })
  const balance = async (address: string) => {
    const { chain_stats: c, mempool_stats: m } = await get(`/address/${address}`)
    return c.funded_txo_sum - c.spent_txo_sum + m.funded_txo_sum - m.spent_txo_sum
  }
  const firstUtxo = async (address: string) => {
    const [utxo] = (await get(`/address/${address}/utxo`)) as {
      txid: string
      vout: number
      value: number
    }[]
    if (!utxo) throw new Error(`no UTXO at ${address}`)
    return { txid: utxo.txid, vout: utxo.vout, value: BigInt(utxo.value) }
  }

  beforeAll(async () => {
    bitcoin = await startBitcoin({ port: 0, silent: true })
  })
  afterAll(() => bitcoin?.stop())

  test('starts on the regtest genesis with every test payment address holding 1 BTC', async () => {
    expect(bitcoin.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await get('/blocks/tip/height')).toBe('1')
    expect(await get('/block-height/0')).toBe(BITCOIN_REGTEST_GENESIS)
    const tip = await get('/blocks/tip/hash')
    expect((await get(`/block/${tip}`)).previousblockhash).toBe(BITCOIN_REGTEST_GENESIS)
    for (const account of BITCOIN_TEST_ACCOUNTS) {
      const body = await get(`/address/${account.payment.address}`)
      expect(body.chain_stats).toEqual({
        funded_txo_count: 1,
        funded_txo_sum: 100_000_000,
        spent_txo_count: 0,
        spent_txo_sum: 0,
        tx_count: 1,
      })
      const [utxo] = await get(`/address/${account.payment.address}/utxo`)
      expect(utxo).toMatchObject({
        value: 100_000_000,
        status: { confirmed: true, block_height: 1, block_hash: tip },
      })
      expect(await balance(account.ordinal.address)).toBe(0)
    }
  })

  test('a signed P2WPKH transfer is confirmed at once and both balances change', async () => {
    const from = await firstUtxo(a0.payment.address)
    const tx = signedTransfer({
      keys: a0,
      from,
      to: a1.payment.address,
      sats: 25_000_000n,
      fee: 500n,
    })
    const response = await post('/tx', tx.hex)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe(tx.id)
    expect(await balance(a0.payment.address)).toBe(100_000_000 - 25_000_000 - 500)
    expect(await balance(a1.payment.address)).toBe(125_000_000)
    expect(await get(`/tx/${tx.id}/hex`)).toBe(tx.hex)
    const json = await get(`/tx/${tx.id}`)
    expect(json).toMatchObject({
      txid: tx.id,
      fee: 500,
      status: { confirmed: true, block_height: 2 },
      vin: [{ txid: from.txid, vout: from.vout, is_coinbase: false }],
      vout: [
        {
          scriptpubkey_address: a1.payment.address,
          scriptpubkey_type: 'v0_p2wpkh',
          value: 25_000_000,
        },
        { scriptpubkey_address: a0.payment.address, value: 74_999_500 },
      ],
    })
    expect(json.vout[0].scriptpubkey_asm).toMatch(/^OP_0 OP_PUSHBYTES_20 [0-9a-f]{40}$/)
    const history = await get(`/address/${a1.payment.address}/txs`)
    expect(history.map((t: { txid: string }) => t.txid)[0]).toBe(tx.id)
    expect(await get(`/blocks/tip/height`)).toBe('2')
  })

  test('a P2TR key-path spend from a faucet payment is accepted', async () => {
    const faucet = await post(
      '/faucet',
      JSON.stringify({ address: a2.ordinal.address, sats: 80_000 }),
    )
    expect(faucet.status).toBe(200)
    expect(await balance(a2.ordinal.address)).toBe(80_000)
    const tx = signedTransfer({
      keys: a2,
      kind: 'ordinal',
      from: await firstUtxo(a2.ordinal.address),
      to: a2.payment.address,
      sats: 79_000n,
    })
    const response = await post('/tx', tx.hex)
    expect(await response.text()).toBe(tx.id)
    expect(await balance(a2.ordinal.address)).toBe(0)
    expect(await balance(a2.payment.address)).toBe(100_079_000)
    expect((await get(`/tx/${tx.id}`)).vin[0].prevout.scriptpubkey_type).toBe('v1_p2tr')
  })

  test('a double spend and a wrong-key signature are refused with 400', async () => {
    const from = await firstUtxo(a1.payment.address)
    const first = signedTransfer({ keys: a1, from, to: a2.payment.address, sats: 10_000n })
    const again = signedTransfer({ keys: a1, from, to: a0.payment.address, sats: 20_000n })
    expect((await post('/tx', first.hex)).status).toBe(200)
    const refused = await post('/tx', again.hex)
    expect(refused.status).toBe(400)
    expect(await refused.text()).toBe(
      'sendrawtransaction RPC error: {"code":-25,"message":"bad-txns-inputs-missingorspent"}',
    )

    // Account 0 signs a spend of account 1's coins: its key does not match the output.
    const stolen = await firstUtxo(a1.payment.address)
    const theft = signedTransfer({ keys: a0, from: stolen, to: a0.payment.address, sats: 1_000n })
    const wrongKey = await post('/tx', theft.hex)
    expect(wrongKey.status).toBe(400)
    expect(await wrongKey.text()).toContain('mandatory-script-verify-flag-failed')
    expect(await balance(a1.payment.address)).toBe(125_000_000 - 10_000 - 1_000)
  })

  test('answers CORS preflights and unknown things the way Esplora does', async () => {
    const preflight = await fetch(`${bitcoin.url}/tx`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:4000', 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect((await fetch(`${bitcoin.url}/address/nonsense`)).status).toBe(400)
    expect((await fetch(`${bitcoin.url}/tx/${'00'.repeat(32)}`)).status).toBe(404)
    expect((await post('/tx', 'zz')).status).toBe(400)
    const fees = await get('/fee-estimates')
    expect(fees['1']).toBeGreaterThanOrEqual(1)
    expect(
      (await post('/faucet', JSON.stringify({ address: 'bc1qnotregtest', sats: 1 }))).status,
    ).toBe(400)
  })
})
