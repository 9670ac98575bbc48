import { DEPLOYER, type StartDevnetReturnType, startDevnet, testErc20Abi } from '@porthole/devnet'
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
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { CHECKOUT_TEXT } from './checkoutPage.js'
import { type StartOnrampProviderReturnType, startOnrampProvider } from './startOnrampProvider.js'
import { payCheckout } from './testClient.js'

const PUSD = DEVNET_TOKENS[0].address
let devnet: StartDevnetReturnType
let devnetB: StartDevnetReturnType
let provider: StartOnrampProviderReturnType

/** Gives the treasury 100 ETH and 1,000,000 pUSD on a devnet (pUSD minted by its owner). */
async function fundTreasury(rpcUrl: string) {
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: 50 })
  await client.request({
    method: 'anvil_setBalance' as never,
    params: [ONRAMP_TREASURY.address, toHex(parseEther('100'))] as never,
  })
  const owner = createWalletClient({
    account: privateKeyToAccount(DEPLOYER.privateKey),
    transport: http(rpcUrl),
  })
  const hash = await owner.writeContract({
    chain: null,
    address: PUSD,
    abi: testErc20Abi,
    functionName: 'mint',
    args: [ONRAMP_TREASURY.address, parseUnits('1000000', 6)],
  })
  await client.waitForTransactionReceipt({ hash })
}

beforeAll(async () => {
  ;[devnet, devnetB] = await Promise.all([
    startDevnet({ port: 0, silent: true }),
    startDevnet({ port: 0, chainId: 31338, silent: true }),
  ])
  await Promise.all([fundTreasury(devnet.rpcUrl), fundTreasury(devnetB.rpcUrl)])
  provider = await startOnrampProvider({
    port: 0,
    host: '127.0.0.1',
    rpcUrls: { 'eip155:31337': devnet.rpcUrl, 'eip155:31338': devnetB.rpcUrl },
  })
})
afterAll(async () => {
  await provider?.close()
  await Promise.all([devnet?.stop(), devnetB?.stop()])
})

async function api(path: string, body?: unknown, key = provider.apiKey) {
  const response = await fetch(`${provider.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const newWallet = () => privateKeyToAccount(generatePrivateKey()).address

async function balances(rpcUrl: string, address: Address) {
  const client = createPublicClient({ transport: http(rpcUrl) })
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

async function order(body: Record<string, unknown>) {
  const created = await api('/api/orders', {
    network: 'eip155:31337',
    purchaseCurrency: 'USDC',
    partnerUserId: 'user-1',
    ...body,
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return created.body as { id: string; url: string; status: string }
}

describe('the server-to-server API', () => {
  test('refuses a missing or wrong API key', async () => {
    for (const key of ['', 'wrong-key', `${provider.apiKey}x`]) {
      const answer = await api('/api/options', undefined, key)
      expect(answer).toEqual({
        status: 401,
        body: { code: 'UNAUTHORIZED', message: 'Invalid API key' },
      })
    }
    expect((await api('/api/orders', { network: 'eip155:31337' }, 'wrong')).status).toBe(401)
  })

  test('the outage switch: every partner call answers 503 until it is turned off', async () => {
    expect((await api('/api/test/outage', { down: true }, 'wrong')).status).toBe(401)
    expect(await api('/api/test/outage', { down: 'yes' })).toMatchObject({ status: 400 })
    expect(await api('/api/test/outage', { down: true })).toEqual({
      status: 200,
      body: { down: true },
    })
    try {
      expect((await api('/api/options')).status).toBe(503)
      expect((await api('/api/orders', { network: 'eip155:31337' })).status).toBe(503)
    } finally {
      expect((await api('/api/test/outage', { down: false })).body).toEqual({ down: false })
    }
    expect((await api('/api/options')).status).toBe(200)
  })

  test('options: methods, currencies with limits, tokens on both devnets', async () => {
    const { status, body } = await api('/api/options')
    expect(status).toBe(200)
    expect(body.paymentMethods).toEqual([
      { id: 'card', name: 'Debit or credit card' },
      { id: 'ach_bank_account', name: 'Bank transfer (ACH)' },
    ])
    expect(body.paymentCurrencies).toContainEqual({
      id: 'EUR',
      limits: [
        { id: 'card', min: '5.00', max: '4500.00' },
        { id: 'ach_bank_account', min: '5.00', max: '18000.00' },
      ],
    })
    const [usdc, eth] = body.purchaseCurrencies as {
      id: string
      symbol: string
      networks: { chain_id: string; contract_address: string }[]
    }[]
    expect(usdc?.networks.map((n) => [n.chain_id, n.contract_address])).toEqual([
      ['31337', PUSD],
      ['31338', PUSD],
    ])
    expect(eth?.symbol).toBe('ETH')
  })

  test('quote: the price table and fees, or a clear refusal', async () => {
    const quote = await api('/api/quote', {
      purchaseCurrency: 'USDC',
      paymentCurrency: 'USD',
      amount: '50',
      network: 'eip155:31337',
    })
    expect(quote.status).toBe(200)
    expect(quote.body).toMatchObject({
      networkFee: { amount: '0.10', currency: 'USD' },
      providerFee: { amount: '0.75', currency: 'USD' },
      paymentSubtotal: { amount: '49.15', currency: 'USD' },
      paymentTotal: { amount: '50.00', currency: 'USD' },
      purchaseAmount: { amount: '49.15', currency: 'USDC' },
    })
    expect(quote.body.quoteId).toMatch(/^q_[\w-]{24}$/)
    const eth = await api('/api/quote', {
      purchaseCurrency: 'ETH',
      paymentCurrency: 'USD',
      amount: '3000.50',
      network: 'eip155:31338',
    })
    // 3000.50 − 45.01 fee − 0.50 network fee = 2954.99 USD = 0.98499666… ETH
    expect(eth.body.purchaseAmount).toEqual({ amount: '0.984996666666666666', currency: 'ETH' })

    const tooMuch = await api('/api/quote', {
      purchaseCurrency: 'USDC',
      paymentCurrency: 'USD',
      amount: '6000',
      network: 'eip155:31337',
    })
    expect(tooMuch).toEqual({
      status: 400,
      body: {
        code: 'AMOUNT_OUT_OF_RANGE',
        message: 'Amount must be between 5.00 and 5000.00 USD for card (asked 6000.00)',
      },
    })
    const badBody = await api('/api/quote', { purchaseCurrency: 'USDC', amount: 5 })
    expect(badBody.status).toBe(400)
    expect(badBody.body.code).toBe('INVALID_BODY')
  })

  test('unknown orders are not found', async () => {
    expect(await api('/api/orders/ord_nope')).toEqual({
      status: 404,
      body: { code: 'ORDER_NOT_FOUND', message: 'No such order' },
    })
    const page = await fetch(`${provider.url}/checkout?orderId=ord_nope`)
    expect(page.status).toBe(404)
    expect(await page.text()).toContain(CHECKOUT_TEXT.notFound)
    expect((await payCheckout({ url: `${provider.url}/checkout?orderId=ord_nope` })).status).toBe(
      404,
    )
  })

  test('orders check their destination, network and amount', async () => {
    const bad = await api('/api/orders', {
      walletAddress: '0x1234',
      network: 'eip155:31337',
      purchaseCurrency: 'USDC',
      partnerUserId: 'u',
    })
    expect(bad.body).toEqual({
      code: 'INVALID_BODY',
      message: 'Invalid walletAddress: must be an EVM address',
    })
    const network = await api('/api/orders', {
      walletAddress: newWallet(),
      network: 'eip155:1',
      purchaseCurrency: 'USDC',
      partnerUserId: 'u',
      amount: '50',
    })
    expect(network.body.code).toBe('UNSUPPORTED_NETWORK')
    const small = await api('/api/orders', {
      walletAddress: newWallet(),
      network: 'eip155:31337',
      purchaseCurrency: 'USDC',
      partnerUserId: 'u',
      amount: '1',
    })
    expect(small.body.code).toBe('AMOUNT_OUT_OF_RANGE')
  })
})

describe('checkout', () => {
  test('order → page → pay: the wallet receives exactly the pUSD bought', async () => {
    const wallet = newWallet()
    const created = await order({ walletAddress: wallet, amount: '50', reference: 'project-1' })
    expect(created.id).toMatch(/^ord_[\w-]{24}$/)
    expect(created.url).toBe(`${provider.url}/checkout?orderId=${created.id}`)
    expect(created).toMatchObject({
      status: 'created',
      walletAddress: wallet,
      purchaseAmount: { amount: '49.15', currency: 'USDC' },
      paymentTotal: { amount: '50.00', currency: 'USD' },
      reference: 'project-1',
      txHash: null,
    })

    const link = `${created.url}&publicKey=${provider.publicKey}&destinationCurrencyCode=USDC&walletAddress=${wallet}&externalCustomerId=user-1`
    const page = await fetch(link)
    expect(page.status).toBe(200)
    const csp = page.headers.get('content-security-policy') ?? ''
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[\w+/=]+'; form-action 'self'/)
    expect(csp).not.toContain('script-src')
    const html = await page.text()
    expect(html).not.toContain('<script')
    for (const text of [
      '50.00 USD',
      '0.75 USD',
      '0.10 USD',
      '49.15 pUSD',
      'Porthole Devnet',
      wallet,
    ])
      expect(html).toContain(text)
    expect(html).toContain(`<label for="card-number">${CHECKOUT_TEXT.cardLabel}</label>`)
    expect(html).toContain(`<button type="submit">${CHECKOUT_TEXT.pay}</button>`)

    const before = await balances(devnet.rpcUrl, wallet)
    const paid = await payCheckout({ url: link, cardNumber: '4242 4242 4242 4242' })
    expect(paid.status).toBe(303)
    expect(paid.html).toContain(CHECKOUT_TEXT.complete)
    const after = await balances(devnet.rpcUrl, wallet)
    expect(after.pusd - before.pusd).toBe(49_150_000n)
    expect(after.eth).toBe(before.eth)

    const status = await api(`/api/orders/${created.id}`)
    expect(status.body).toMatchObject({ status: 'complete', failureReason: null })
    expect(status.body.txHash).toMatch(/^0x[0-9a-f]{64}$/)
    const receipt = await createPublicClient({
      transport: http(devnet.rpcUrl),
    }).getTransactionReceipt({ hash: status.body.txHash as `0x${string}` })
    expect(receipt.from.toLowerCase()).toBe(ONRAMP_TREASURY.address.toLowerCase())
    // Paying again does nothing more.
    expect((await payCheckout({ url: link })).html).toContain(CHECKOUT_TEXT.complete)
    expect((await balances(devnet.rpcUrl, wallet)).pusd).toBe(after.pusd)
  })

  test('ETH on the second devnet, for an exact crypto amount', async () => {
    const wallet = newWallet()
    const created = await order({
      walletAddress: wallet,
      network: 'eip155:31338',
      purchaseCurrency: 'ETH',
      paymentCurrency: 'EUR',
      cryptoAmount: '0.05',
    })
    expect(created).toMatchObject({ purchaseAmount: { amount: '0.05', currency: 'ETH' } })
    const paid = await payCheckout({ url: created.url })
    expect(paid.html).toContain(CHECKOUT_TEXT.complete)
    expect((await balances(devnetB.rpcUrl, wallet)).eth).toBe(parseEther('0.05'))
    expect((await balances(devnet.rpcUrl, wallet)).eth).toBe(0n)
  })

  test('a declined card shows why and leaves the order payable', async () => {
    const wallet = newWallet()
    const created = await order({ walletAddress: wallet, amount: '20' })
    const declined = await payCheckout({ url: created.url, cardNumber: '4000 0000 0000 0002' })
    expect(declined.status).toBe(402)
    expect(declined.html).toContain(`<p role="alert">${CHECKOUT_TEXT.declined}</p>`)
    const unknown = await payCheckout({ url: created.url, cardNumber: '1234' })
    expect(unknown.status).toBe(400)
    expect(unknown.html).toContain(CHECKOUT_TEXT.unknownCard)
    expect((await api(`/api/orders/${created.id}`)).body.status).toBe('created')
    expect((await balances(devnet.rpcUrl, wallet)).pusd).toBe(0n)
    expect((await payCheckout({ url: created.url })).html).toContain(CHECKOUT_TEXT.complete)
    expect((await balances(devnet.rpcUrl, wallet)).pusd).toBe(19_600_000n)
  })

  test('an order pays once, however many times Pay is pressed at once', async () => {
    const wallet = newWallet()
    const created = await order({ walletAddress: wallet, amount: '100' })
    const results = await Promise.all(
      Array.from({ length: 5 }, () => payCheckout({ url: created.url })),
    )
    expect(results.map((r) => r.status)).toEqual([303, 303, 303, 303, 303])
    expect(results.some((r) => r.html.includes(CHECKOUT_TEXT.complete))).toBe(true)
    for (const r of results)
      expect(
        r.html.includes(CHECKOUT_TEXT.complete) || r.html.includes(CHECKOUT_TEXT.processing),
      ).toBe(true)
    // 100 − 1.50 − 0.10 = 98.40 pUSD, once.
    expect((await balances(devnet.rpcUrl, wallet)).pusd).toBe(98_400_000n)
  })

  test('an order without an amount takes it at checkout, within the limits', async () => {
    const wallet = newWallet()
    const created = await order({ walletAddress: wallet })
    expect(created).toMatchObject({ purchaseAmount: null, paymentTotal: null })
    const page = await (await fetch(created.url)).text()
    expect(page).toContain('<label for="amount">Amount (USD)</label>')
    const low = await payCheckout({ url: created.url, amount: '2' })
    expect(low.status).toBe(400)
    expect(low.html).toContain('Amount must be between 5.00 and 5000.00 USD for card (asked 2.00)')
    const paid = await payCheckout({ url: created.url, amount: '10' })
    expect(paid.html).toContain(CHECKOUT_TEXT.complete)
    expect((await balances(devnet.rpcUrl, wallet)).pusd).toBe(9_750_000n)
  })

  test('a link that names another wallet, customer or partner is refused', async () => {
    const created = await order({ walletAddress: newWallet(), amount: '10' })
    for (const extra of [
      `walletAddress=${newWallet()}`,
      'externalCustomerId=someone-else',
      'publicKey=another-partner',
    ]) {
      const page = await fetch(`${created.url}&${extra}`)
      expect(page.status, extra).toBe(400)
      expect(await page.text()).toContain(CHECKOUT_TEXT.mismatch)
    }
  })

  test('a payment posted from another site is refused', async () => {
    const wallet = newWallet()
    const created = await order({ walletAddress: wallet, amount: '10' })
    const response = await fetch(`${provider.url}/checkout/pay`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://attacker.example',
      },
      body: new URLSearchParams({ orderId: created.id, cardNumber: '4242424242424242' }),
      redirect: 'manual',
    })
    expect(response.status).toBe(403)
    const crossSite = await fetch(`${provider.url}/checkout/pay`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: provider.url,
        'sec-fetch-site': 'cross-site',
      },
      body: new URLSearchParams({ orderId: created.id, cardNumber: '4242424242424242' }),
      redirect: 'manual',
    })
    expect(crossSite.status).toBe(403)
    expect((await api(`/api/orders/${created.id}`)).body.status).toBe('created')
    // The page's own post, as a browser may send it (an opaque Origin, Sec-Fetch-Site).
    const own = await fetch(`${provider.url}/checkout/pay`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'null',
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams({ orderId: created.id, cardNumber: '4242424242424242' }),
      redirect: 'manual',
    })
    expect(own.status).toBe(303)
    expect((await api(`/api/orders/${created.id}`)).body.status).toBe('complete')
    expect((await balances(devnet.rpcUrl, wallet)).pusd).toBe(9_750_000n)
  })

  test('an empty treasury fails the order with the reason, and it pays no more', async () => {
    const poor = await startOnrampProvider({
      port: 0,
      host: '127.0.0.1',
      rpcUrls: { 'eip155:31337': devnet.rpcUrl },
      treasuryKey: generatePrivateKey(),
    })
    try {
      const created = await fetch(`${poor.url}/api/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${poor.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          walletAddress: newWallet(),
          network: 'eip155:31337',
          purchaseCurrency: 'USDC',
          partnerUserId: 'u',
          amount: '10',
        }),
      }).then((r) => r.json() as Promise<{ id: string; url: string }>)
      const paid = await payCheckout({ url: created.url })
      expect(paid.html).toContain(
        'Payment failed: The provider&#39;s treasury holds 0 pUSD on Porthole Devnet, less than the 9.75 bought. You were not charged.',
      )
      const status = await fetch(`${poor.url}/api/orders/${created.id}`, {
        headers: { authorization: `Bearer ${poor.apiKey}` },
      }).then((r) => r.json() as Promise<{ status: string }>)
      expect(status.status).toBe('failed')
      const again = await payCheckout({ url: created.url })
      expect(again.html).toContain('Payment failed: ')
      expect(again.html).not.toContain('<button')
    } finally {
      await poor.close()
    }
  })
})
