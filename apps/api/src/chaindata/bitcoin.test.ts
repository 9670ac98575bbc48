/**
 * BTC balances end to end: the local regtest (`@porthole/bitcoin`) behind the API's balance
 * endpoint, over real HTTP.
 */
import { type StartBitcoinReturnType, startBitcoin } from '@porthole/bitcoin'
import { BalanceResponse, BITCOIN_REGTEST_CAIP, BITCOIN_TEST_ACCOUNTS } from '@porthole/shared'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../test/databases.js'
import { resolveConfig } from '../config.js'
import { type StartApiReturnType, startApi } from '../server.js'
import { normalizeBitcoinAddress } from './bitcoin.js'
import { InvalidChainDataConfigError } from './config.js'

const PROJECT = 'porthole-demo'
const MAINNET = 'bip122:000000000019d6689c085ae165831e93'
const [payment0, payment1] = BITCOIN_TEST_ACCOUNTS.map((a) => a.payment.address) as [string, string]

describe('BTC balances from the regtest', () => {
  let bitcoin: StartBitcoinReturnType
  let api: StartApiReturnType
  let target: TestDatabase
  const get = (path: string) =>
    fetch(`${api.url}${path}${path.includes('?') ? '&' : '?'}projectId=${PROJECT}`)
  const balances = async (path: string) => {
    const response = await get(path)
    expect(response.status, await response.clone().text()).toBe(200)
    return BalanceResponse.parse(await response.json()).balances
  }

  beforeAll(async () => {
    bitcoin = await startBitcoin({ port: 0, silent: true })
    target = await createTestDatabase('sqlite')
    api = await startApi({
      port: 0,
      databaseUrl: target.url,
      rateLimit: false,
      chainData: { chains: [], esplora: { [BITCOIN_REGTEST_CAIP]: bitcoin.url } },
    })
  })
  afterAll(async () => {
    await api?.close()
    await bitcoin?.stop()
    await target?.cleanup()
  })

  test('GET /v1/supported-chains lists the regtest', async () => {
    const body = await (await get('/v1/supported-chains')).json()
    expect(body.http).toContain(BITCOIN_REGTEST_CAIP)
  })

  test('a bip122 account gets its BTC balance in the native shape (8 decimals)', async () => {
    const [line, ...rest] = await balances(
      `/v1/account/${BITCOIN_REGTEST_CAIP}:${payment0}/balance?currency=usd`,
    )
    expect(rest).toEqual([])
    expect(line).toEqual({
      name: 'Bitcoin',
      symbol: 'BTC',
      chainId: BITCOIN_REGTEST_CAIP,
      price: 100_000,
      value: 100_000,
      quantity: { decimals: '8', numeric: '1' },
      iconUrl: `${api.url}/public/getTokenImage/btc?projectId=${PROJECT}`,
    })
  })

  test('a payment shows after forceUpdate (answers are cached like EVM balances)', async () => {
    const path = `/v1/account/${BITCOIN_REGTEST_CAIP}:${payment1}/balance`
    expect((await balances(path))[0]?.quantity.numeric).toBe('1')
    const paid = await fetch(`${bitcoin.url}/faucet`, {
      method: 'POST',
      body: JSON.stringify({ address: payment1, sats: 50_000 }),
    })
    expect(paid.status).toBe(200)
    expect((await balances(path))[0]?.quantity.numeric).toBe('1')
    expect((await balances(`${path}?forceUpdate=true`))[0]?.quantity.numeric).toBe('1.0005')
  })

  test('a bare address with a bip122 chainId works too, in any case', async () => {
    const [line] = await balances(
      `/v1/account/${payment0.toUpperCase()}/balance?chainId=${BITCOIN_REGTEST_CAIP}`,
    )
    expect(line?.quantity.numeric).toBe('1')
  })

  test('EVM accounts are not read on the regtest, nor Bitcoin accounts on EVM chains', async () => {
    expect(
      await balances('/v1/account/0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266/balance'),
    ).toEqual([])
    const mixed = await get(
      `/v1/account/0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266/balance?chainId=${BITCOIN_REGTEST_CAIP}`,
    )
    expect(mixed.status).toBe(400)
    expect((await mixed.json()).code).toBe('INVALID_REQUEST')
  })

  test('a foreign address is INVALID_REQUEST, an unserved network UNSUPPORTED_CHAIN', async () => {
    const wrong = await get(
      `/v1/account/${BITCOIN_REGTEST_CAIP}:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq/balance`,
    )
    expect(wrong.status).toBe(400)
    expect((await wrong.json()).code).toBe('INVALID_REQUEST')
    const mainnet = await get(
      `/v1/account/${MAINNET}:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq/balance`,
    )
    expect(mainnet.status).toBe(400)
    expect((await mainnet.json()).code).toBe('UNSUPPORTED_CHAIN')
  })

  test('a regtest that does not answer is CHAIN_UNAVAILABLE', async () => {
    const gone = await startBitcoin({ port: 0, silent: true })
    await gone.stop()
    const down = await startApi({
      port: 0,
      db: api.db,
      seedDemo: false,
      rateLimit: false,
      chainData: { chains: [], esplora: { [BITCOIN_REGTEST_CAIP]: gone.url } },
    })
    try {
      const response = await fetch(
        `${down.url}/v1/account/${BITCOIN_REGTEST_CAIP}:${payment0}/balance?projectId=${PROJECT}`,
      )
      expect(response.status).toBe(503)
      expect((await response.json()).code).toBe('CHAIN_UNAVAILABLE')
    } finally {
      await down.close()
    }
  })
})

describe('Esplora configuration', () => {
  test('defaults to the local regtest (endpoints().bitcoin) outside production', () => {
    expect(resolveConfig({}, {}).chainData.esplora).toEqual({
      [BITCOIN_REGTEST_CAIP]: 'http://127.0.0.1:18443',
    })
    expect(
      resolveConfig({}, { PORTHOLE_BITCOIN_URL: 'http://127.0.0.1:9999' }).chainData.esplora,
    ).toEqual({ [BITCOIN_REGTEST_CAIP]: 'http://127.0.0.1:9999' })
    expect(resolveConfig({ production: true }, {}).chainData.esplora).toEqual({})
  })

  test('PORTHOLE_ESPLORA_UPSTREAMS adds networks; anything but bip122 → URL is refused', () => {
    const env = { PORTHOLE_ESPLORA_UPSTREAMS: `{"${MAINNET}":"https://mempool.space/api"}` }
    expect(resolveConfig({}, env).chainData.esplora).toEqual({
      [BITCOIN_REGTEST_CAIP]: 'http://127.0.0.1:18443',
      [MAINNET]: 'https://mempool.space/api',
    })
    expect(() =>
      resolveConfig({}, { PORTHOLE_ESPLORA_UPSTREAMS: '{"eip155:1":"https://x.example"}' }),
    ).toThrow(InvalidChainDataConfigError)
  })

  test('addresses are checked against their network', () => {
    expect(normalizeBitcoinAddress(BITCOIN_REGTEST_CAIP, payment0.toUpperCase())).toBe(payment0)
    expect(normalizeBitcoinAddress(BITCOIN_REGTEST_CAIP, `${payment0.slice(0, -1)}x`)).toBe(
      undefined,
    )
    expect(normalizeBitcoinAddress(MAINNET, 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe(
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    )
  })
})
