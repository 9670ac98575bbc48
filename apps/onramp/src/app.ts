/**
 * The HTTP routes of the local on-ramp provider (a card/bank checkout stand-in):
 * - server-to-server, with `Authorization: Bearer <apiKey>` (else 401 `UNAUTHORIZED`):
 *   - `GET /api/options` → `{ paymentMethods, paymentCurrencies: [{ id, limits: [{ id, min, max }] }],
 *     purchaseCurrencies: [{ id, name, symbol, decimals, networks: [{ name, display_name,
 *     chain_id, contract_address }] }] }`;
 *   - `POST /api/quote { purchaseCurrency, paymentCurrency, paymentMethod?, network, amount? |
 *     cryptoAmount? }` → `{ quoteId, paymentMethod, network, paymentTotal, paymentSubtotal,
 *     providerFee, networkFee, purchaseAmount }` (each `{ amount, currency }`);
 *   - `POST /api/orders { walletAddress, network, purchaseCurrency, paymentCurrency?,
 *     paymentMethod?, amount? | cryptoAmount?, partnerUserId, reference? }` → 201 the order with
 *     `url`, its checkout page;
 *   - `GET /api/orders/:id` → the order (`status` created | processing | complete | failed,
 *     `txHash`, the amounts, the destination); 404 `ORDER_NOT_FOUND`;
 * - for the buyer's browser: `GET /checkout?orderId=…` (the page) and `POST /checkout/pay` (its
 *   form: `orderId`, `cardNumber`, `amount` when the order has none), then 303 back to the page;
 * - `GET /health`.
 * Refusals are `{ code, message }` (HTML pages for the browser routes).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { type Address, getAddress, isAddressEqual } from 'viem'
import { z } from 'zod'
import {
  CHECKOUT_CSP,
  CHECKOUT_TEXT,
  checkoutPage,
  TEST_CARD_DECLINED,
  TEST_CARD_OK,
} from './checkoutPage.js'
import {
  checkOffer,
  NETWORKS,
  onrampOptions,
  type PricedQuote,
  PURCHASE_CURRENCIES,
  priceQuote,
  QuoteError,
  quoteJson,
} from './offering.js'
import { createOrders, type Order } from './orders.js'
import { type Payout, PayoutError } from './payout.js'

/** Defaults of {@link createOnrampProviderApp}. */
export const ONRAMP_DEFAULTS = {
  /** Orders are kept a day. */
  orderTtlMs: 24 * 60 * 60 * 1000,
  maxOrders: 10_000,
} as const

/** Options of {@link createOnrampProviderApp}. */
export type CreateOnrampProviderAppParameters = {
  /** The partner's secret for the server-to-server API. */
  apiKey: string
  /** The partner's public key; a checkout link naming another is refused. */
  publicKey: string
  /** Where the checkout pages are, as buyers reach them (e.g. `http://127.0.0.1:4900`). */
  publicUrl: string
  /** Sends what an order bought. */
  payout: Pick<Payout, 'send'>
  orderTtlMs?: number
  maxOrders?: number
  now?: () => number
}

class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

const Id = z.string().min(1).max(16)
const Amount = z.string().max(64)
const QuoteBody = z.strictObject({
  purchaseCurrency: Id,
  paymentCurrency: Id,
  paymentMethod: Id.optional(),
  network: z.string().min(1).max(64),
  amount: Amount.optional(),
  cryptoAmount: Amount.optional(),
})
const OrderBody = z.strictObject({
  walletAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be an EVM address'),
  network: z.string().min(1).max(64),
  purchaseCurrency: Id,
  paymentCurrency: Id.default('USD'),
  paymentMethod: Id.optional(),
  amount: Amount.optional(),
  cryptoAmount: Amount.optional(),
  partnerUserId: z.string().min(1).max(128),
  reference: z.string().min(1).max(128).optional(),
})

/** The fault switch's path (see {@link createOnrampProviderApp}). */
export const OUTAGE_PATH = '/api/test/outage'
const OutageBody = z.object({ down: z.boolean() })

/**
 * Builds the provider's Hono app (`startOnrampProvider` serves it; tests may call
 * `app.request`).
 *
 * @example
 * const app = createOnrampProviderApp({ apiKey, publicKey, publicUrl: 'http://127.0.0.1:4900', payout })
 * await app.request('/api/options', { headers: { authorization: `Bearer ${apiKey}` } })
 */
export function createOnrampProviderApp(parameters: CreateOnrampProviderAppParameters): Hono {
  const now = parameters.now ?? Date.now
  const publicUrl = parameters.publicUrl.replace(/\/+$/, '')
  const orders = createOrders({
    ttlMs: parameters.orderTtlMs ?? ONRAMP_DEFAULTS.orderTtlMs,
    max: parameters.maxOrders ?? ONRAMP_DEFAULTS.maxOrders,
    now,
  })
  const keyDigest = digest(parameters.apiKey)
  let outage = false
  const app = new Hono()

  app.use('*', async (c, next) => {
    await next()
    c.header('Cache-Control', 'no-store')
    c.header('X-Content-Type-Options', 'nosniff')
    // Not `no-referrer`: browsers would then send `Origin: null` with the page's own form posts.
    c.header('Referrer-Policy', 'same-origin')
  })
  app.use(
    '*',
    bodyLimit({
      maxSize: 16 * 1024,
      onError: () => {
        throw new HttpError(413, 'BODY_TOO_LARGE', 'The request body is larger than 16 KiB')
      },
    }),
  )
  app.use('/api/*', async (c, next) => {
    const match = /^Bearer (.{1,256})$/.exec(c.req.header('authorization') ?? '')
    if (!match?.[1] || !timingSafeEqual(digest(match[1]), keyDigest))
      throw new HttpError(401, 'UNAUTHORIZED', 'Invalid API key')
    // An outage (below): every partner call but the switch itself answers 503.
    if (outage && c.req.path !== OUTAGE_PATH)
      throw new HttpError(503, 'UNAVAILABLE', 'The provider is down (simulated outage)')
    await next()
  })

  // The stand-in's fault switch, so that tests can see what Porthole does while a provider is
  // down: `{ down: true }` until `{ down: false }`. Same API key as every partner call.
  app.post(OUTAGE_PATH, async (c) => {
    const body = parse(OutageBody, await json(c.req.raw))
    outage = body.down
    return c.json({ down: outage })
  })

  app.get('/api/options', (c) => c.json(onrampOptions()))

  app.post('/api/quote', async (c) => {
    const body = parse(QuoteBody, await json(c.req.raw))
    const quote = priceQuote(body)
    return c.json({ quoteId: `q_${randomId()}`, ...quoteJson(quote) })
  })

  app.post('/api/orders', async (c) => {
    const body = parse(OrderBody, await json(c.req.raw))
    // Without an amount the buyer picks one at checkout.
    const offer = checkOffer(body)
    const quote =
      body.amount === undefined && body.cryptoAmount === undefined ? null : priceQuote(body)
    const order = orders.create({
      network: offer.network,
      purchaseCurrency: offer.token.id,
      paymentCurrency: offer.payment.id,
      paymentMethod: offer.method,
      walletAddress: getAddress(body.walletAddress),
      partnerUserId: body.partnerUserId,
      reference: body.reference ?? null,
      quote,
    })
    return c.json(describe(order), 201)
  })

  app.get('/api/orders/:id', (c) => c.json(describe(orderOf(c.req.param('id')))))

  app.get('/checkout', (c) => {
    const order = orders.get(c.req.query('orderId') ?? '')
    if (!order) return html(c, checkoutPage({ order: null }), 404)
    const { publicKey, walletAddress, externalCustomerId } = c.req.query()
    const matches =
      (publicKey === undefined || publicKey === parameters.publicKey) &&
      (walletAddress === undefined ||
        (/^0x[0-9a-fA-F]{40}$/.test(walletAddress) &&
          isAddressEqual(walletAddress as Address, order.walletAddress))) &&
      (externalCustomerId === undefined || externalCustomerId === order.partnerUserId)
    if (!matches)
      return html(
        c,
        checkoutPage({ order: null, message: { kind: 'alert', text: CHECKOUT_TEXT.mismatch } }),
        400,
      )
    return html(c, checkoutPage({ order }))
  })

  app.post('/checkout/pay', async (c) => {
    // Same-origin form posts only (a page elsewhere cannot pay an order it learnt the id of):
    // `Sec-Fetch-Site` where the browser sends it, else `Origin`.
    const site = c.req.header('sec-fetch-site')
    const origin = c.req.header('origin')
    if (
      site !== undefined
        ? site !== 'same-origin'
        : origin !== undefined && origin !== `http://${c.req.header('host')}`
    )
      return c.text('Forbidden: pay from the checkout page', 403)
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
    const field = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '')
    const order = orders.get(field('orderId'))
    if (!order) return html(c, checkoutPage({ order: null }), 404)
    const back = () => c.redirect(`/checkout?orderId=${encodeURIComponent(order.id)}`, 303)
    if (order.status !== 'created') return back()
    const cardNumber = field('cardNumber')
    const amount = field('amount').trim()
    const refuse = (text: string, status: ContentfulStatusCode) =>
      html(c, checkoutPage({ order, message: { kind: 'alert', text }, cardNumber, amount }), status)
    let quote: PricedQuote
    if (order.quote) quote = order.quote
    else
      try {
        quote = priceQuote({
          purchaseCurrency: order.purchaseCurrency,
          paymentCurrency: order.paymentCurrency,
          paymentMethod: order.paymentMethod,
          network: order.network,
          amount,
        })
      } catch (error) {
        if (error instanceof QuoteError) return refuse(error.message, 400)
        throw error
      }
    const digits = cardNumber.replace(/[\s-]/g, '')
    if (digits === TEST_CARD_DECLINED) return refuse(CHECKOUT_TEXT.declined, 402)
    if (digits !== TEST_CARD_OK) return refuse(CHECKOUT_TEXT.unknownCard, 400)
    // No await since `orders.get`: of two posts, one claims the order and the other goes back.
    if (!orders.claim(order, quote)) return back()
    try {
      const txHash = await parameters.payout.send({
        network: order.network,
        token: PURCHASE_CURRENCIES[order.purchaseCurrency],
        to: order.walletAddress,
        amount: quote.purchase,
        onSent: (hash) => orders.sent(order, hash),
      })
      orders.settle(order, { txHash })
    } catch (error) {
      if (error instanceof PayoutError) console.error(`[onramp] payout failed: ${error.message}`)
      else console.error('[onramp] payout failed', error)
      orders.settle(order, { failureReason: (error as Error).message })
    }
    return back()
  })

  app.get('/health', (c) => c.json({ ok: true, orders: orders.size() }))
  app.notFound((c) => c.json({ code: 'NOT_FOUND', message: 'Not found' }, 404))
  app.onError((error, c) => {
    if (error instanceof HttpError)
      return c.json({ code: error.code, message: error.message }, error.status)
    if (error instanceof QuoteError)
      return c.json({ code: error.code, message: error.message }, 400)
    console.error('[onramp]', error)
    return c.json({ code: 'INTERNAL', message: 'Internal error' }, 500)
  })

  function orderOf(id: string): Order {
    const order = orders.get(id)
    if (!order) throw new HttpError(404, 'ORDER_NOT_FOUND', 'No such order')
    return order
  }

  /** An order as the API answers it. */
  function describe(order: Order) {
    const quote = order.quote ? quoteJson(order.quote) : null
    const token = PURCHASE_CURRENCIES[order.purchaseCurrency]
    return {
      id: order.id,
      url: `${publicUrl}/checkout?orderId=${encodeURIComponent(order.id)}`,
      status: order.status,
      network: order.network,
      networkName: NETWORKS[order.network].display_name,
      walletAddress: order.walletAddress,
      purchaseCurrency: order.purchaseCurrency,
      purchaseSymbol: token.symbol,
      contractAddress: token.token,
      paymentCurrency: order.paymentCurrency,
      paymentMethod: order.paymentMethod,
      paymentTotal: quote?.paymentTotal ?? null,
      paymentSubtotal: quote?.paymentSubtotal ?? null,
      providerFee: quote?.providerFee ?? null,
      networkFee: quote?.networkFee ?? null,
      purchaseAmount: quote?.purchaseAmount ?? null,
      txHash: order.txHash,
      failureReason: order.failureReason,
      partnerUserId: order.partnerUserId,
      reference: order.reference,
      createdAt: new Date(order.createdAt).toISOString(),
      updatedAt: new Date(order.updatedAt).toISOString(),
    }
  }

  return app
}

function html(c: Context, body: string, status: ContentfulStatusCode = 200) {
  c.header('Content-Security-Policy', CHECKOUT_CSP)
  c.header('X-Frame-Options', 'DENY')
  return c.html(body, status)
}

const digest = (text: string) => createHash('sha256').update(text).digest()
const randomId = () => randomBytes(18).toString('base64url')

async function json(request: Request): Promise<unknown> {
  try {
    return await request.json()
  } catch {
    throw new HttpError(400, 'INVALID_BODY', 'The request body must be JSON')
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const field = issue?.path.join('.') || 'body'
  throw new HttpError(400, 'INVALID_BODY', `Invalid ${field}: ${issue?.message ?? 'invalid'}`)
}
