/**
 * The blockchain data service end to end: a real anvil seeded by `@porthole/devnet`, the API
 * with its indexer on SQLite and PostgreSQL, real HTTP.
 */
import {
  DEV_ACCOUNTS,
  SEED_COLLECTIONS,
  type StartDevnetReturnType,
  startDevnet,
  TEST_TOKENS,
  testErc20Abi,
} from '@porthole/devnet'
import {
  BalanceResponse,
  FungiblePriceResponse,
  HistoryResponse,
  IdentityResponse,
  NftsResponse,
  SupportedChainsResponse,
  type Transaction,
} from '@porthole/shared'
import { createWalletClient, encodeFunctionData, http, parseUnits, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestDatabase, DRIVERS, type TestDatabase } from '../../test/databases.js'
import { freePort } from '../../test/freePort.js'
import { DEVNET_SPAM_COLLECTION, DEVNET_TOKENS } from '../chaindata/config.js'
import { type StartApiReturnType, startApi } from '../server.js'

const CHAIN = 'eip155:31337'
const PROJECT = 'porthole-demo'
const [A0, A1, A2, A3, A7, A8] = [0, 1, 2, 3, 7, 8].map((i) => DEV_ACCOUNTS[i]!.address) as [
  string,
  string,
  string,
  string,
  string,
  string,
]

describe.each(DRIVERS)('blockchain data service on %s', (driver) => {
  let devnet: StartDevnetReturnType
  let api: StartApiReturnType
  let target: TestDatabase
  let base: string

  const get = (path: string, project = PROJECT) =>
    fetch(
      `${base}${path}${path.includes('?') ? '&' : '?'}projectId=${project}&st=appkit&sv=html-test-1`,
    )
  const json = async (path: string) => {
    const response = await get(path)
    expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200)
    return response.json()
  }
  const allHistory = async (account: string, limit = 7) => {
    const pages: HistoryResponse[] = []
    let cursor: string | null = null
    do {
      const page = HistoryResponse.parse(
        await json(
          `/v1/account/${account}/history?chainId=${CHAIN}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
        ),
      )
      pages.push(page)
      cursor = page.next
    } while (cursor)
    return pages.flatMap((page) => page.data)
  }

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    devnet = await startDevnet({ port: 0, silent: true, seed: { apiUrl: base } })
    target = await createTestDatabase(driver)
    api = await startApi({
      port,
      databaseUrl: target.url,
      rateLimit: false,
      indexer: true,
      upstreams: { [CHAIN]: devnet.rpcUrl },
      chainData: {
        chains: [{ chainId: CHAIN, rpcUrl: devnet.rpcUrl, startBlock: 0, confirmations: 0 }],
        // EVM only: no Bitcoin regtest behind this API (see chaindata/bitcoin.test.ts), no
        // Solana chain (see chaindata/solana.test.ts).
        esplora: {},
        solana: {},
        pollIntervalMs: 50,
      },
    })
    await api.indexer!.catchUp(CHAIN)
  })
  afterAll(async () => {
    await api?.close()
    await devnet?.stop()
    await target?.cleanup()
  })

  test('the defaults of the API name the devnet tokens and spam collection the devnet seeds', () => {
    expect(DEVNET_TOKENS.map((t) => t.address)).toEqual(TEST_TOKENS.map((t) => t.address))
    expect(DEVNET_SPAM_COLLECTION).toBe(SEED_COLLECTIONS.find((c) => c.spam)!.address)
  })

  test('GET /v1/supported-chains lists the indexed chain', async () => {
    const body = SupportedChainsResponse.parse(await json('/v1/supported-chains'))
    expect(body).toEqual({ http: [CHAIN], ws: [] })
  })

  test('an unknown project is refused on every data endpoint', async () => {
    for (const path of [
      '/v1/supported-chains',
      `/v1/identity/${A0}`,
      `/v1/account/${A0}/balance?currency=usd`,
      `/v1/account/${A0}/history`,
      `/v1/account/${A0}/nfts`,
    ]) {
      const response = await get(path, 'no-such-project')
      expect(response.status, path).toBe(403)
      expect(await response.json()).toEqual({
        code: 'INVALID_PROJECT_ID',
        message: 'Invalid Project ID',
      })
    }
    const price = await fetch(`${base}/v1/fungible/price?projectId=no-such-project`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ currency: 'usd', addresses: [`${CHAIN}:${TEST_TOKENS[0].address}`] }),
    })
    expect(price.status).toBe(403)
  })

  test('GET /v1/identity answers no name yet, and 400 for an invalid address', async () => {
    expect(IdentityResponse.parse(await json(`/v1/identity/${A0}?sender=${A1}`))).toEqual({
      name: null,
      avatar: null,
    })
    const bad = await get('/v1/identity/0x1234')
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({
      code: 'INVALID_REQUEST',
      details: expect.stringContaining('EVM address'),
    })
  })

  test('GET /v1/account/{address}/balance reads ETH, pUSD and PRT from the chain with prices', async () => {
    const body = BalanceResponse.parse(
      await json(`/v1/account/${A0}/balance?currency=usd&chainId=${CHAIN}&forceUpdate=true`),
    )
    const bySymbol = new Map(body.balances.map((entry) => [entry.symbol, entry]))
    expect([...bySymbol.keys()].sort()).toEqual(['ETH', 'PRT', 'pUSD'])
    const eth = bySymbol.get('ETH')!
    expect(eth).toMatchObject({
      name: 'Ether',
      chainId: CHAIN,
      price: 3000,
      quantity: { decimals: '18' },
    })
    expect(eth.address).toBeUndefined()
    expect(Number(eth.quantity.numeric)).toBeGreaterThan(9000)
    expect(eth.value).toBeCloseTo(Number(eth.quantity.numeric) * 3000, 2)
    const pusd = bySymbol.get('pUSD')!
    expect(pusd).toMatchObject({
      address: `${CHAIN}:${TEST_TOKENS[0].address}`,
      price: 1,
      quantity: { decimals: '6' },
    })
    // 1,000,000 granted, +25 in each of 7 odd months, ±1000 in months 4 and 9, -5 two hours ago.
    expect(pusd.quantity.numeric).toBe(String(1_000_000 + 25 * 7 - 5))
    // PRT: +1234.5678 in months 13 and 3, -1234.5678 in month 8, -10 yesterday.
    expect(bySymbol.get('PRT')).toMatchObject({
      price: 0.25,
      quantity: { decimals: '18', numeric: '1001224.5678' },
    })
    // Token icons are served by the API with the caller's project.
    const icon = await fetch(pusd.iconUrl)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
    expect(pusd.iconUrl).toContain(`projectId=${PROJECT}`)
  })

  test('balance: every indexed chain without chainId, clear 400s for bad chains and addresses', async () => {
    const all = BalanceResponse.parse(await json(`/v1/account/${A1}/balance?currency=usd`))
    expect(new Set(all.balances.map((entry) => entry.chainId))).toEqual(new Set([CHAIN]))
    const unsupported = await get(`/v1/account/${A0}/balance?currency=usd&chainId=eip155:1`)
    expect(unsupported.status).toBe(400)
    expect(await unsupported.json()).toEqual({
      code: 'UNSUPPORTED_CHAIN',
      message: 'Unsupported chain',
      details: `eip155:1 is not supported (supported: ${CHAIN})`,
    })
    const malformed = await get(`/v1/account/${A0}/balance?chainId=solana`)
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toMatchObject({ code: 'INVALID_REQUEST' })
    const address = await get('/v1/account/0xnope/balance?currency=usd')
    expect(address.status).toBe(400)
    expect(await address.json()).toMatchObject({
      code: 'INVALID_REQUEST',
      details: expect.stringContaining('is not an EVM address'),
    })
    const currency = await get(`/v1/account/${A0}/balance?currency=eur`)
    expect(currency.status).toBe(400)
  })

  test('GET /v1/account/{account}/history pages the seeded transfers newest first', async () => {
    const data = await allHistory(A0)
    const times = data.map((tx) => Date.parse(tx.metadata.minedAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(new Set(data.map((tx) => tx.id)).size).toBe(data.length)
    const years = new Set(data.map((tx) => new Date(tx.metadata.minedAt).getUTCFullYear()))
    expect(years.has(new Date().getUTCFullYear() - 1)).toBe(true)

    const find = (predicate: (tx: Transaction) => boolean) => data.find(predicate)
    // The Pals minted to account 0 at the start: three mints of an NFT with an image.
    const palMints = data.filter(
      (tx) =>
        tx.metadata.operationType === 'mint' &&
        tx.transfers[0]?.nft_info?.name.startsWith('Porthole Pal'),
    )
    expect(palMints).toHaveLength(3)
    expect(palMints[0]!.transfers[0]).toMatchObject({
      direction: 'in',
      quantity: { numeric: '1' },
      nft_info: {
        flags: { is_spam: false },
        content: {
          preview: { url: expect.stringMatching(/\/nft\/v1\/porthole-pals\/\d\/image\.svg$/) },
        },
      },
    })
    // The spam voucher airdrop is flagged.
    const spam = find((tx) => tx.transfers.some((t) => t.nft_info?.flags.is_spam))!
    expect(spam.metadata.operationType).toBe('mint')
    expect(spam.transfers[0]!.nft_info!.name).toBe('Reward Voucher #1')
    // Pal #1 sent to account 2.
    const nftSend = find(
      (tx) =>
        tx.transfers[0]?.nft_info?.name === 'Porthole Pal #1' &&
        tx.metadata.operationType === 'send',
    )!
    expect(nftSend.metadata).toMatchObject({
      sentFrom: A0,
      sentTo: A2,
      status: 'confirmed',
      chain: CHAIN,
    })
    expect(nftSend.transfers[0]!.direction).toBe('out')
    // pUSD received from another account: counterparties, not the token contract.
    const pusdIn = find(
      (tx) =>
        tx.metadata.operationType === 'receive' &&
        tx.transfers[0]?.fungible_info?.symbol === 'pUSD',
    )!
    expect(pusdIn.transfers[0]).toMatchObject({
      direction: 'in',
      quantity: { numeric: '25' },
      price: 1,
      value: 25,
      fungible_info: {
        name: 'Porthole USD',
        icon: { url: expect.stringContaining('/public/getTokenImage/pusd?projectId=') },
      },
    })
    expect(pusdIn.metadata.sentTo).toBe(A0)
    // Native sends carry the nonce of the transaction.
    const ethOut = find(
      (tx) =>
        tx.metadata.operationType === 'send' && tx.transfers[0]?.fungible_info?.symbol === 'ETH',
    )!
    expect(ethOut.transfers[0]).toMatchObject({
      direction: 'out',
      quantity: { numeric: '0.2' },
      price: 3000,
    })
    expect(ethOut.metadata.nonce).toBeGreaterThan(0)
    // pUSD and PRT grants of the deployment are mints too.
    expect(
      data.filter((tx) => tx.metadata.operationType === 'mint' && tx.transfers[0]?.fungible_info),
    ).toHaveLength(2)
  })

  test('history: a CAIP-10 account equals the address; failed transfers say so; bad input is a 400', async () => {
    const plain = HistoryResponse.parse(await json(`/v1/account/${A3}/history`))
    const caip = HistoryResponse.parse(await json(`/v1/account/${CHAIN}:${A3}/history`))
    expect(caip).toEqual(plain)
    expect(plain.data.find((tx) => tx.metadata.status === 'failed')).toMatchObject({
      metadata: { operationType: 'send', sentTo: TEST_TOKENS[0].address },
      transfers: [{ direction: 'out', quantity: { numeric: '0.01' } }],
    })
    for (const [path, code] of [
      [`/v1/account/${A0}/history?cursor=not-a-cursor`, 'INVALID_REQUEST'],
      [`/v1/account/${A0}/history?limit=1000`, 'INVALID_REQUEST'],
      [`/v1/account/eip155:1:${A0}/history`, 'UNSUPPORTED_CHAIN'],
      [`/v1/account/solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${A0}/history`, 'UNSUPPORTED_CHAIN'],
      [`/v1/account/eip155:31337:0x12/history`, 'INVALID_REQUEST'],
      [`/v1/account/${CHAIN}:${A0}/history?chainId=eip155:31338`, 'INVALID_REQUEST'],
    ] as const) {
      const response = await get(path)
      expect(response.status, path).toBe(400)
      expect((await response.json()).code, path).toBe(code)
    }
  })

  test('a transfer made now appears once the indexer catches up', async () => {
    const wallet = createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS[7].privateKey),
      transport: http(devnet.rpcUrl),
    }).extend(publicActions)
    const hash = await wallet.sendTransaction({
      chain: null,
      to: TEST_TOKENS[0].address,
      data: encodeFunctionData({
        abi: testErc20Abi,
        functionName: 'transfer',
        args: [A8 as `0x${string}`, parseUnits('1.5', 6)],
      }),
    })
    const receipt = await wallet.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    await api.indexer!.waitFor(CHAIN, Number(receipt.blockNumber))
    const [latest] = HistoryResponse.parse(
      await json(`/v1/account/${A8}/history?chainId=${CHAIN}`),
    ).data
    expect(latest).toMatchObject({
      id: `${CHAIN}:${hash}`,
      metadata: { operationType: 'receive', hash, sentFrom: A7, sentTo: A8, status: 'confirmed' },
      transfers: [
        { direction: 'in', quantity: { numeric: '1.5' }, fungible_info: { symbol: 'pUSD' } },
      ],
    })
    expect(Math.abs(Date.parse(latest!.metadata.minedAt) - Date.now())).toBeLessThan(15_000)
    const sender = HistoryResponse.parse(await json(`/v1/account/${A7}/history`)).data[0]
    expect(sender?.metadata.operationType).toBe('send')
  })

  test('GET /v1/account/{address}/nfts lists current holdings with images, spam flagged', async () => {
    const body = NftsResponse.parse(await json(`/v1/account/${A0}/nfts?chainId=${CHAIN}`))
    const pals = body.data.filter((nft) => !nft.spam)
    expect(pals.map((nft) => nft.tokenId).sort()).toEqual(['2', '3', '4'])
    expect(pals[0]).toMatchObject({
      chainId: CHAIN,
      contract: `${CHAIN}:${SEED_COLLECTIONS[0].address}`,
      collection: { name: 'Porthole Pals', symbol: 'PALS' },
      name: expect.stringMatching(/^Porthole Pal #\d$/),
    })
    const spam = body.data.filter((nft) => nft.spam)
    expect(spam).toHaveLength(1)
    expect(spam[0]!.collection.name).toBe('Reward Vouchers')
    const image = await fetch(pals[0]!.imageUrl!)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/svg+xml')
    expect(await image.text()).toContain('<svg')
    // Paging: one per page, same set.
    const first = NftsResponse.parse(await json(`/v1/account/${A0}/nfts?limit=1`))
    expect(first.data).toHaveLength(1)
    expect(first.next).toEqual(expect.any(String))
    const second = NftsResponse.parse(
      await json(`/v1/account/${A0}/nfts?limit=1&cursor=${first.next}`),
    )
    expect(second.data[0]!.tokenId).not.toBe(first.data[0]!.tokenId)
  })

  test('an API with an external data provider forwards to it and runs no indexer', async () => {
    const front = await startApi({
      port: 0,
      databaseUrl: ':memory:',
      rateLimit: false,
      chainData: { externalUrl: `${base}?projectId=${PROJECT}` },
    })
    try {
      expect(front.indexer).toBeUndefined()
      const path = `/v1/account/${A0}/history?chainId=${CHAIN}&limit=5&projectId=${PROJECT}`
      const direct = await (await fetch(`${base}${path}`)).json()
      expect(direct.data).toHaveLength(5)
      expect(await (await fetch(`${front.url}${path}`)).json()).toEqual(direct)
      const chains = await fetch(`${front.url}/v1/supported-chains?projectId=${PROJECT}`)
      expect(await chains.json()).toEqual({ http: [CHAIN], ws: [] })
    } finally {
      await front.close()
    }
  })

  test('POST /v1/fungible/price prices native and tokens, refuses unknown chains', async () => {
    const post = (body: unknown) =>
      fetch(`${base}/v1/fungible/price?projectId=${PROJECT}&st=appkit&sv=html-test-1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const response = await post({
      projectId: PROJECT,
      currency: 'usd',
      addresses: [
        `${CHAIN}:${TEST_TOKENS[0].address}`,
        `${CHAIN}:${TEST_TOKENS[1].address}`,
        `${CHAIN}:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE`,
      ],
    })
    expect(response.status).toBe(200)
    const body = FungiblePriceResponse.parse(await response.json())
    expect(body.fungibles.map(({ symbol, price }) => [symbol, price])).toEqual([
      ['pUSD', 1],
      ['PRT', 0.25],
      ['ETH', 3000],
    ])
    const unsupported = await post({
      currency: 'usd',
      addresses: [`eip155:1:${TEST_TOKENS[0].address}`],
    })
    expect(unsupported.status).toBe(400)
    expect((await unsupported.json()).code).toBe('UNSUPPORTED_CHAIN')
    const malformed = await post({ currency: 'usd', addresses: ['nope'] })
    expect(malformed.status).toBe(400)
  })
})
