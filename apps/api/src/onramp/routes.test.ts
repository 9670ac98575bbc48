import { DEPLOYER, type StartDevnetReturnType, startDevnet, testErc20Abi } from '@porthole/devnet'
import {
  payCheckout,
  type StartOnrampProviderReturnType,
  startOnrampProvider,
} from '@porthole/onramp'
import {
  OnrampOptionsResponse,
  OnrampOrderResponse,
  OnrampQuoteResponse,
  OnrampUrlResponse,
} from '@porthole/shared'
import { DEVNET_TOKENS, ONRAMP_TREASURY } from '@porthole/shared/devnet'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  parseEther,
  parseUnits,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { freePort } from '../../test/freePort.js'
import { createTestApp, PROJECT_ID, type TestApp } from '../../test/testApp.js'
import { createProject } from '../projects/createProject.js'
import { setProjectFeatures } from '../projects/setProjectFeatures.js'
import { LOCAL_ONRAMP_PROVIDER, type OnrampConfig } from './config.js'

const PUSD = DEVNET_TOKENS[0].address
let devnet: StartDevnetReturnType
let provider: StartOnrampProviderReturnType
let t: TestApp

/** Gives the provider's treasury 100 ETH and 1,000,000 pUSD (minted by dev account 0). */
async function fundTreasury(rpcUrl: string) {
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: 50 })
  await client.request({
    method: 'anvil_setBalance' as never,
    params: [ONRAMP_TREASURY.address, toHex(parseEther('100'))] as never,
  })
  const hash = await createWalletClient({
    account: privateKeyToAccount(DEPLOYER.privateKey),
    transport: http(rpcUrl),
  }).writeContract({
    chain: null,
    address: PUSD,
    abi: testErc20Abi,
    functionName: 'mint',
    args: [ONRAMP_TREASURY.address, parseUnits('1000000', 6)],
  })
  await client.waitForTransactionReceipt({ hash })
}

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, silent: true })
  await fundTreasury(devnet.rpcUrl)
  provider = await startOnrampProvider({
    port: 0,
    host: '127.0.0.1',
    rpcUrls: { 'eip155:31337': devnet.rpcUrl },
  })
})
afterAll(async () => {
  await provider?.close()
  await devnet?.stop()
})
afterEach(async () => {
  await t?.close()
  t = undefined as unknown as TestApp
})

const config = (overrides: Partial<OnrampConfig> = {}): OnrampConfig => ({
  url: provider.url,
  apiKey: provider.apiKey,
  publicKey: provider.publicKey,
  provider: { ...LOCAL_ONRAMP_PROVIDER },
  timeoutMs: 5000,
  ...overrides,
})
const open = async (onramp: OnrampConfig | null = config()) =>
  (t = await createTestApp({ onramp }, { catalogue: false }))

async function json(response: Response | Promise<Response>) {
  const answer = await response
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> }
}

const quote = (body: Record<string, unknown>) =>
  json(
    t.post('/v1/onramp/quote', {
      purchaseCurrency: 'USDC',
      paymentCurrency: 'USD',
      amount: '50',
      network: 'eip155:31337',
      ...body,
    }),
  )

const newWallet = () => privateKeyToAccount(generatePrivateKey()).address

async function balances(address: Address) {
  const client = createPublicClient({ transport: http(devnet.rpcUrl) })
  const [eth, pusd] = await Promise.all([
    client.getBalance({ address }),
    client.readContract({
      address: PUSD,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address],
    }),
  ])
  return { eth, pusd }
}

const SPEC_FALLBACK_LIMITS = [
  { id: 'card', min: '10.00', max: '7500.00' },
  { id: 'ach_bank_account', min: '10.00', max: '25000.00' },
]

describe('with the provider up', () => {
  test('options: the provider’s currencies, limits and networks, and who it is', async () => {
    await open()
    const { status, body } = await json(t.get('/v1/onramp/options'))
    expect(status).toBe(200)
    const options = OnrampOptionsResponse.parse(body)
    expect(options.fallback).toBe(false)
    expect(options.provider).toEqual({ id: 'meld', name: 'Porthole test checkout' })
    expect(options.paymentCurrencies.map((p) => p.id)).toEqual(['USD', 'EUR'])
    expect(options.paymentCurrencies[0]?.limits).toEqual([
      { id: 'card', min: '5.00', max: '5000.00' },
      { id: 'ach_bank_account', min: '5.00', max: '20000.00' },
    ])
    const usdc = options.purchaseCurrencies.find((p) => p.id === 'USDC')
    expect(usdc).toEqual({
      id: 'USDC',
      name: 'Porthole USD',
      symbol: 'pUSD',
      networks: [
        {
          name: 'porthole-devnet',
          display_name: 'Porthole Devnet',
          chain_id: '31337',
          contract_address: PUSD,
        },
        {
          name: 'porthole-devnet-b',
          display_name: 'Porthole Devnet B',
          chain_id: '31338',
          contract_address: PUSD,
        },
      ],
    })
  })

  test('quote: the provider’s price for a network given by id or name', async () => {
    await open()
    const { status, body } = await quote({})
    expect(status).toBe(200)
    const parsed = OnrampQuoteResponse.parse(body)
    expect(parsed).toMatchObject({
      networkFee: { amount: '0.10', currency: 'USD' },
      paymentSubtotal: { amount: '49.15', currency: 'USD' },
      paymentTotal: { amount: '50.00', currency: 'USD' },
      purchaseAmount: { amount: '49.15', currency: 'USDC' },
      fallback: false,
    })
    expect(parsed.quoteId).toMatch(/^q_/)
    expect(body.providerFee).toEqual({ amount: '0.75', currency: 'USD' })
    const byName = await quote({
      purchaseCurrency: 'ETH',
      paymentCurrency: 'EUR',
      amount: '100.00',
      network: 'porthole-devnet-b',
    })
    expect(byName.body.purchaseAmount).toEqual({ amount: '0.0352944', currency: 'ETH' })
  })

  test('quote: bad input gets a clear 400', async () => {
    await open()
    for (const amount of ['0', '0.00', '-5', '5.123', 'ten', '', 50]) {
      const answer = await quote({ amount })
      expect(answer.status, String(amount)).toBe(400)
      expect(answer.body.code, String(amount)).toBe('INVALID_REQUEST')
      expect(answer.body.details, String(amount)).toMatch(/^amount: /)
    }
    expect(await quote({ amount: '4.99' })).toEqual({
      status: 400,
      body: {
        code: 'ONRAMP_AMOUNT_OUT_OF_RANGE',
        message: 'Amount must be between 5.00 and 5000.00 USD',
        details: 'amount: 4.99 is outside the card limits',
        min: '5.00',
        max: '5000.00',
        currency: 'USD',
        paymentMethod: 'card',
      },
    })
    expect((await quote({ amount: '6000', paymentMethod: 'ach_bank_account' })).status).toBe(200)
    expect((await quote({ paymentCurrency: 'GBP' })).body).toEqual({
      code: 'ONRAMP_UNSUPPORTED_CURRENCY',
      message: 'Currency not supported for on-ramp',
      details: 'paymentCurrency: GBP is not offered (USD, EUR)',
    })
    expect((await quote({ purchaseCurrency: 'BTC' })).body).toMatchObject({
      code: 'ONRAMP_UNSUPPORTED_CURRENCY',
      details: 'purchaseCurrency: BTC is not offered (USDC, ETH)',
    })
    expect((await quote({ network: 'eip155:1' })).body).toEqual({
      code: 'ONRAMP_UNSUPPORTED_NETWORK',
      message: 'Network not supported for on-ramp',
      details: 'network: USDC is not offered on eip155:1 (eip155:31337, eip155:31338)',
    })
    expect((await quote({ paymentMethod: 'paypal' })).body).toMatchObject({
      code: 'INVALID_REQUEST',
      details: 'paymentMethod: paypal is not offered for USD (card, ach_bank_account)',
    })
    expect((await quote({ network: undefined })).body.code).toBe('INVALID_REQUEST')
    const notJson = await t.post('/v1/onramp/quote', '{nope')
    expect(notJson.status).toBe(400)
    const text = await t.post('/v1/onramp/quote', 'x', { 'content-type': 'text/plain' })
    expect(text.status).toBe(415)
  })

  test('onrampurl → checkout → Pay: the order completes and the wallet holds exactly what was bought', async () => {
    await open()
    const wallet = newWallet()
    const { status, body } = await json(
      t.post('/v1/generators/onrampurl', {
        destinationWallets: [{ address: wallet, blockchains: ['eip155:31337'], assets: ['USDC'] }],
        defaultNetwork: 'eip155:31337',
        partnerUserId: wallet,
        defaultExperience: 'buy',
        presetFiatAmount: 50,
      }),
    )
    expect(status, JSON.stringify(body)).toBe(200)
    const { url, orderId } = OnrampUrlResponse.parse(body)
    const link = new URL(url)
    expect(link.origin).toBe(provider.url)
    expect(link.pathname).toBe('/checkout')
    expect(Object.fromEntries(link.searchParams)).toEqual({
      orderId,
      publicKey: provider.publicKey,
      destinationCurrencyCode: 'USDC',
      walletAddress: wallet,
      externalCustomerId: wallet,
    })

    const before = OnrampOrderResponse.parse(
      (await json(t.get(`/v1/onramp/orders/${orderId}`))).body,
    )
    expect(before).toMatchObject({ id: orderId, status: 'created', txHash: null })

    const paid = await payCheckout({ url })
    expect(paid.html).toContain('Payment complete — you can close this window')
    const { body: after } = await json(t.get(`/v1/onramp/orders/${orderId}`))
    expect(after).toMatchObject({
      id: orderId,
      status: 'complete',
      network: 'eip155:31337',
      walletAddress: wallet,
      purchaseCurrency: 'USDC',
      purchaseAmount: { amount: '49.15', currency: 'USDC' },
      paymentTotal: { amount: '50.00', currency: 'USD' },
      failureReason: null,
    })
    expect(after.txHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await balances(wallet)).pusd).toBe(49_150_000n)
  })

  test('onrampurl for an exact ETH amount, the network named by the wallet', async () => {
    await open()
    const wallet = newWallet()
    const { status, body } = await json(
      t.post('/v1/generators/onrampurl', {
        destinationWallets: [
          { address: newWallet(), blockchains: ['porthole-devnet-b'] },
          { address: wallet.slice(2), blockchains: ['porthole-devnet'], assets: ['ETH'] },
        ],
        defaultNetwork: 'porthole-devnet',
        partnerUserId: 'user-7',
        presetCryptoAmount: '0.02',
      }),
    )
    expect(status, JSON.stringify(body)).toBe(200)
    const { url } = OnrampUrlResponse.parse(body)
    expect(new URL(url).searchParams.get('destinationCurrencyCode')).toBe('ETH')
    expect(new URL(url).searchParams.get('walletAddress')).toBe(wallet)
    expect((await payCheckout({ url })).html).toContain('Payment complete')
    expect((await balances(wallet)).eth).toBe(parseEther('0.02'))
  })

  test('onrampurl: bad input gets a clear 400 and creates nothing', async () => {
    await open()
    const wallet = newWallet()
    const post = (body: Record<string, unknown>) =>
      json(
        t.post('/v1/generators/onrampurl', {
          destinationWallets: [{ address: wallet }],
          defaultNetwork: 'eip155:31337',
          partnerUserId: 'user-1',
          defaultExperience: 'buy',
          ...body,
        }),
      )
    const refusals: [Record<string, unknown>, string, RegExp | string][] = [
      [{ destinationWallets: [] }, 'INVALID_REQUEST', /^destinationWallets: /],
      [
        { destinationWallets: [{ address: '0x1234' }] },
        'INVALID_REQUEST',
        'destinationWallets.0.address: not an EVM address (40 hex digits, optional 0x)',
      ],
      [{ defaultExperience: 'send' }, 'INVALID_REQUEST', /^defaultExperience: /],
      [{ partnerUserId: 'has space' }, 'INVALID_REQUEST', /^partnerUserId: /],
      [
        { presetFiatAmount: 20, presetCryptoAmount: 1 },
        'INVALID_REQUEST',
        'presetCryptoAmount, presetFiatAmount: give one of them',
      ],
      [{ presetFiatAmount: -1 }, 'INVALID_REQUEST', /^presetFiatAmount: /],
      [{ presetFiatAmount: '12.345' }, 'INVALID_REQUEST', 'presetFiatAmount: at most 2 decimals'],
      [
        { presetFiatAmount: '1' },
        'ONRAMP_AMOUNT_OUT_OF_RANGE',
        'amount: 1 is outside the card limits',
      ],
      [
        { defaultNetwork: 'eip155:1' },
        'ONRAMP_UNSUPPORTED_NETWORK',
        /^network: USDC is not offered on eip155:1/,
      ],
      // Spec §7: SOL is the default on Solana; this provider does not sell it.
      [
        { defaultNetwork: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' },
        'ONRAMP_UNSUPPORTED_CURRENCY',
        'purchaseCurrency: SOL is not offered (USDC, ETH)',
      ],
      [
        { defaultNetwork: undefined },
        'INVALID_REQUEST',
        'defaultNetwork: required (or destinationWallets[0].blockchains)',
      ],
      [
        { destinationWallets: [{ address: wallet, blockchains: ['eip155:31338'] }] },
        'INVALID_REQUEST',
        'destinationWallets: none is for eip155:31337',
      ],
    ]
    for (const [body, code, details] of refusals) {
      const answer = await post(body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body.code, JSON.stringify(body)).toBe(code)
      if (typeof details === 'string') expect(answer.body.details).toBe(details)
      else expect(answer.body.details).toMatch(details)
    }
    expect((await balances(wallet)).pusd).toBe(0n)
  })

  test('orders: unknown ids and other projects’ orders are not found', async () => {
    await open()
    const created = await json(
      t.post('/v1/generators/onrampurl', {
        destinationWallets: [{ address: newWallet() }],
        defaultNetwork: 'eip155:31337',
        partnerUserId: 'user-1',
        presetFiatAmount: '20',
      }),
    )
    const orderId = created.body.orderId as string
    expect(await json(t.get('/v1/onramp/orders/ord_unknown'))).toEqual({
      status: 404,
      body: { code: 'ONRAMP_ORDER_NOT_FOUND', message: 'Order not found' },
    })
    expect((await t.get('/v1/onramp/orders/not%20an%20id')).status).toBe(400)
    await createProject(t.db, { id: 'other-project', origins: ['http://localhost:4000'] })
    const other = await t.get(`/v1/onramp/orders/${orderId}?projectId=other-project`)
    expect(other.status).toBe(404)
    expect((await t.get(`/v1/onramp/orders/${orderId}`)).status).toBe(200)
  })

  test('a project with the on-ramp off is refused', async () => {
    await open()
    await setProjectFeatures(t.db, { projectId: PROJECT_ID, features: { onramp: false } })
    for (const answer of [
      await json(t.get('/v1/onramp/options')),
      await quote({}),
      await json(t.post('/v1/generators/onrampurl', {})),
    ])
      expect(answer).toEqual({
        status: 403,
        body: { code: 'ONRAMP_DISABLED', message: 'On-ramp is not enabled for the project' },
      })
    // Another provider than the project names is off too.
    await setProjectFeatures(t.db, { projectId: PROJECT_ID, features: { onramp: ['coinbase'] } })
    expect((await t.get('/v1/onramp/options')).status).toBe(403)
  })
})

describe('with the provider down', () => {
  const down = async () => config({ url: `http://127.0.0.1:${await freePort()}` })

  test('options answer the spec’s fallback limits and default currency', async () => {
    for (const onramp of [await down(), config({ apiKey: 'wrong-key' })]) {
      await open(onramp)
      const { status, body } = await json(t.get('/v1/onramp/options'))
      expect(status).toBe(200)
      expect(OnrampOptionsResponse.parse(body)).toEqual({
        paymentCurrencies: [
          { id: 'USD', limits: SPEC_FALLBACK_LIMITS },
          { id: 'EUR', limits: SPEC_FALLBACK_LIMITS },
        ],
        purchaseCurrencies: [
          {
            id: 'USDC',
            name: 'USD Coin',
            symbol: 'USDC',
            networks: [
              {
                name: 'ethereum-mainnet',
                display_name: 'Ethereum',
                chain_id: '1',
                contract_address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
              },
              {
                name: 'polygon-mainnet',
                display_name: 'Polygon',
                chain_id: '137',
                contract_address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
              },
            ],
          },
        ],
        provider: { id: 'meld', name: 'Porthole test checkout' },
        fallback: true,
      })
      await t.close()
    }
  })

  test('quotes are sample data within the fallback limits; orders are unavailable', async () => {
    await open(await down())
    const sample = await quote({})
    expect(sample.status).toBe(200)
    expect(OnrampQuoteResponse.parse(sample.body)).toEqual({
      networkFee: { amount: '0.00', currency: 'USD' },
      paymentSubtotal: { amount: '49.25', currency: 'USD' },
      paymentTotal: { amount: '50.00', currency: 'USD' },
      purchaseAmount: { amount: '49.25', currency: 'USDC' },
      quoteId: 'fallback',
      fallback: true,
    })
    expect((await quote({ purchaseCurrency: 'ETH', amount: '3000' })).body.purchaseAmount).toEqual({
      amount: '0.985',
      currency: 'ETH',
    })
    expect((await quote({ amount: '9.99' })).body).toMatchObject({
      code: 'ONRAMP_AMOUNT_OUT_OF_RANGE',
      message: 'Amount must be between 10.00 and 7500.00 USD',
    })
    expect((await quote({ amount: '7500.01' })).status).toBe(400)
    expect((await quote({ amount: '25000', paymentMethod: 'ach_bank_account' })).status).toBe(200)
    expect(
      (
        await quote({
          paymentCurrency: 'EUR',
          amount: '25000.01',
          paymentMethod: 'ach_bank_account',
        })
      ).status,
    ).toBe(400)
    expect((await quote({ purchaseCurrency: 'DOGE' })).body.code).toBe(
      'ONRAMP_UNSUPPORTED_CURRENCY',
    )

    const url = await json(
      t.post('/v1/generators/onrampurl', {
        destinationWallets: [{ address: newWallet() }],
        defaultNetwork: 'eip155:31337',
        partnerUserId: 'user-1',
      }),
    )
    expect(url).toEqual({
      status: 503,
      body: { code: 'ONRAMP_UNAVAILABLE', message: 'On-ramp provider unavailable' },
    })
    expect((await t.get('/v1/onramp/orders/ord_x')).status).toBe(503)
  })

  test('without a provider configured, the fallback names the default provider', async () => {
    await open(null)
    const { body } = await json(t.get('/v1/onramp/options'))
    expect(body).toMatchObject({ provider: { id: 'meld', name: 'Meld' }, fallback: true })
    expect((await quote({})).body.fallback).toBe(true)
  })
})
