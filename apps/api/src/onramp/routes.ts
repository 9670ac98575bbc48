/**
 * The on-ramp endpoints (spec §7), behind the rate limit and project, for projects whose remote
 * features name the provider (else 403 `ONRAMP_DISABLED`):
 * - `GET /v1/onramp/options` → `{ paymentCurrencies: [{ id, limits: [{ id, min, max }] }],
 *   purchaseCurrencies: [{ id, name, symbol, networks: [{ name, display_name, chain_id,
 *   contract_address }] }], provider: { id, name }, fallback }`; the spec's fallback table
 *   (`fallback: true`) when the provider cannot answer;
 * - `POST /v1/onramp/quote { purchaseCurrency, paymentCurrency, amount, network, paymentMethod? }`
 *   → `{ networkFee, paymentSubtotal, paymentTotal, purchaseAmount, providerFee?, quoteId,
 *   fallback }` (amounts `{ amount, currency }`); a sample quote (`fallback: true`) when the
 *   provider cannot answer;
 * - `POST /v1/generators/onrampurl { destinationWallets: [{ address, blockchains?, assets? }],
 *   defaultNetwork, partnerUserId, defaultExperience: 'buy', presetCryptoAmount?,
 *   presetFiatAmount?, paymentCurrency? }` → `{ url, orderId }`: an order at the provider and
 *   its checkout link with the spec's query parameters;
 * - `GET /v1/onramp/orders/{orderId}` → `{ id, status, network, walletAddress,
 *   purchaseCurrency, purchaseAmount, paymentTotal, txHash, failureReason }` (orders of this
 *   project only).
 * Networks are CAIP-2 ids (`eip155:31337`) or the provider's network names (`porthole-devnet`).
 */
import type { Hono, MiddlewareHandler } from 'hono'
import { z } from 'zod'
import { ApiError } from '../errors.js'
import type { AppEnv } from '../http/AppEnv.js'
import { limitBody } from '../http/limitBody.js'
import { parseInput, readJson } from '../http/parseInput.js'
import { resolveRemoteFeatures } from '../projects/features.js'
import { canSampleQuote, ONRAMP_FALLBACK_OPTIONS, sampleQuote } from './fallback.js'
import {
  type OnrampLimit,
  type OnrampNetwork,
  type OnrampOptions,
  type OnrampProvider,
  type OnrampQuote,
  OnrampRefusedError,
  OnrampUnavailableError,
} from './OnrampProvider.js'
import { defaultDestinationCurrency, onrampUrl } from './onrampUrl.js'

/** Options of {@link onrampRoutes}. */
export type OnrampRoutesOptions = {
  /** The provider; null: none configured (options and quotes answer the fallback). */
  provider: OnrampProvider | null
  /** Who the fallback answers name when there is no provider; default meld. */
  fallbackProvider?: { id: string; name: string }
  /** How long the provider's options are reused; default 60 s (a failure: 5 s). */
  optionsTtlMs?: number
  now?: () => number
}

const CurrencyId = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,16}$/, 'a currency id (1-16 letters, digits, . _ -)')
const Network = z.string().regex(/^[A-Za-z0-9:_-]{1,80}$/, 'a CAIP-2 network id or a network name')
const FiatAmount = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, 'a decimal string with at most 2 decimals')
  .refine((value) => /[1-9]/.test(value), 'must be above 0')
const Method = z.string().regex(/^[a-z_]{1,32}$/, 'a payment method id')

const QuoteBody = z.object({
  purchaseCurrency: CurrencyId,
  paymentCurrency: CurrencyId,
  amount: FiatAmount,
  network: Network,
  paymentMethod: Method.optional(),
})

/** A preset amount: a decimal number or string above 0. */
const Preset = z
  .union([z.number().positive().finite(), z.string().max(40)])
  .transform((value) => String(value))
  .refine((value) => /^\d{1,30}(\.\d{1,18})?$/.test(value) && /[1-9]/.test(value), {
    message: 'a decimal number above 0',
  })

const OnrampUrlBody = z.object({
  destinationWallets: z
    .array(
      z.object({
        address: z.string().min(1).max(128),
        blockchains: z.array(Network).max(32).optional(),
        assets: z.array(CurrencyId).max(32).optional(),
      }),
    )
    .min(1)
    .max(10),
  defaultNetwork: Network.optional(),
  partnerUserId: z
    .string()
    .regex(/^[\x21-\x7e]{1,128}$/, '1 to 128 printable characters without spaces'),
  defaultExperience: z.literal('buy').optional(),
  presetCryptoAmount: Preset.optional(),
  presetFiatAmount: Preset.optional(),
  paymentCurrency: CurrencyId.optional(),
  paymentMethod: Method.optional(),
})

const OrderId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'an order id')

const EVM_ADDRESS = /^(0x)?[0-9a-fA-F]{40}$/
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/**
 * The CAIP-2 id of a provider's network: `eip155:<chain_id>` for a numeric chain id, the chain
 * id itself when it is CAIP-2 already, else the network's name.
 *
 * @example
 * onrampNetworkId({ name: 'porthole-devnet', chain_id: '31337', … }) // 'eip155:31337'
 */
export function onrampNetworkId(network: OnrampNetwork): string {
  if (/^\d+$/.test(network.chain_id)) return `eip155:${network.chain_id}`
  if (network.chain_id.includes(':')) return network.chain_id
  return network.name
}

const matches = (network: OnrampNetwork, asked: string) =>
  asked === onrampNetworkId(network) || asked.toLowerCase() === network.name.toLowerCase()

/**
 * Mounts the on-ramp endpoints.
 *
 * @example
 * onrampRoutes(app, guard, { provider: onrampProviderOf(config) })
 */
export function onrampRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  {
    provider,
    fallbackProvider = { id: 'meld', name: 'Meld' },
    optionsTtlMs = 60_000,
    now = Date.now,
  }: OnrampRoutesOptions,
): void {
  const named = provider ? { id: provider.id, name: provider.name } : fallbackProvider
  const enabled: MiddlewareHandler<AppEnv> = async (c, next) => {
    const providers = resolveRemoteFeatures(c.var.project.features).onramp
    if (providers === false || !(providers as readonly string[]).includes(named.id))
      throw new ApiError('ONRAMP_DISABLED')
    await next()
  }
  for (const path of ['/v1/onramp/*', '/v1/generators/onrampurl']) app.use(path, ...guard, enabled)

  let cached: { options: OnrampOptions | null; until: number } | undefined
  /** The provider's options (reused a while), or null when it cannot give them. */
  const providerOptions = async (): Promise<OnrampOptions | null> => {
    if (!provider) return null
    if (cached && cached.until > now()) return cached.options
    try {
      const options = await provider.options()
      cached = { options, until: now() + optionsTtlMs }
    } catch (error) {
      if (!(error instanceof OnrampUnavailableError || error instanceof OnrampRefusedError))
        throw error
      cached = { options: null, until: now() + Math.min(optionsTtlMs, 5000) }
    }
    return cached.options
  }

  app.get('/v1/onramp/options', async (c) => {
    const options = await providerOptions()
    return c.json({
      paymentCurrencies: (options ?? ONRAMP_FALLBACK_OPTIONS).paymentCurrencies.map((p) => ({
        id: p.id,
        limits: p.limits.map((l) => ({ id: l.id, min: l.min, max: l.max })),
      })),
      purchaseCurrencies: (options ?? ONRAMP_FALLBACK_OPTIONS).purchaseCurrencies.map((p) => ({
        id: p.id,
        name: p.name,
        symbol: p.symbol,
        networks: p.networks.map((n) => ({
          name: n.name,
          display_name: n.display_name,
          chain_id: n.chain_id,
          contract_address: n.contract_address,
        })),
      })),
      provider: named,
      fallback: options === null,
    })
  })

  app.post('/v1/onramp/quote', limitBody(16 * 1024), async (c) => {
    const body = parseInput(QuoteBody, await readJson(c.req.raw))
    const options = await providerOptions()
    const paymentMethod = body.paymentMethod ?? 'card'
    checkAmount(
      options ?? ONRAMP_FALLBACK_OPTIONS,
      body.paymentCurrency,
      paymentMethod,
      body.amount,
    )
    const sample = (): OnrampQuote & { fallback: true } => {
      if (!canSampleQuote(body.purchaseCurrency, body.paymentCurrency))
        throw new ApiError('ONRAMP_UNSUPPORTED_CURRENCY', {
          details: `purchaseCurrency: ${body.purchaseCurrency} cannot be quoted while the provider is unavailable`,
        })
      return { ...sampleQuote({ ...body, paymentMethod }), fallback: true }
    }
    if (!options || !provider) return c.json(sample())
    const network = purchaseNetwork(options, body.purchaseCurrency, body.network)
    try {
      const quote = await provider.quote({
        purchaseCurrency: body.purchaseCurrency,
        paymentCurrency: body.paymentCurrency,
        paymentMethod,
        network: onrampNetworkId(network),
        amount: body.amount,
      })
      return c.json({
        networkFee: quote.networkFee,
        paymentSubtotal: quote.paymentSubtotal,
        paymentTotal: quote.paymentTotal,
        purchaseAmount: quote.purchaseAmount,
        ...(quote.providerFee ? { providerFee: quote.providerFee } : {}),
        quoteId: quote.quoteId,
        fallback: false,
      })
    } catch (error) {
      if (error instanceof OnrampRefusedError)
        throw new ApiError('ONRAMP_REFUSED', { details: error.message })
      if (error instanceof OnrampUnavailableError) return c.json(sample())
      throw error
    }
  })

  app.post('/v1/generators/onrampurl', limitBody(16 * 1024), async (c) => {
    const body = parseInput(OnrampUrlBody, await readJson(c.req.raw))
    if (body.presetCryptoAmount !== undefined && body.presetFiatAmount !== undefined)
      throw new ApiError('INVALID_REQUEST', {
        details: 'presetCryptoAmount, presetFiatAmount: give one of them',
      })
    const options = await providerOptions()
    if (!provider || !options) throw new ApiError('ONRAMP_UNAVAILABLE')
    const asked = body.defaultNetwork ?? body.destinationWallets[0]?.blockchains?.[0]
    if (!asked)
      throw new ApiError('INVALID_REQUEST', {
        details: 'defaultNetwork: required (or destinationWallets[0].blockchains)',
      })
    const index = body.destinationWallets.findIndex(
      (w) =>
        !w.blockchains?.length ||
        w.blockchains.some((b) => b.toLowerCase() === asked.toLowerCase()),
    )
    const wallet = body.destinationWallets[index]
    if (!wallet)
      throw new ApiError('INVALID_REQUEST', {
        details: `destinationWallets: none is for ${asked}`,
      })
    const purchaseCurrency = wallet.assets?.[0] ?? defaultDestinationCurrency(asked)
    const network = onrampNetworkId(purchaseNetwork(options, purchaseCurrency, asked))
    const walletAddress = destination(network, wallet.address, index)
    const paymentCurrency = body.paymentCurrency ?? 'USD'
    const paymentMethod = body.paymentMethod ?? 'card'
    const payment = checkPayment(options, paymentCurrency, paymentMethod)
    if (body.presetFiatAmount !== undefined) {
      if (!/^\d{1,12}(\.\d{1,2})?$/.test(body.presetFiatAmount))
        throw new ApiError('INVALID_REQUEST', {
          details: 'presetFiatAmount: at most 2 decimals',
        })
      checkLimit(payment.limit, paymentCurrency, paymentMethod, body.presetFiatAmount)
    }
    let order: { id: string; url: string }
    try {
      order = await provider.createOrder({
        walletAddress,
        network,
        purchaseCurrency,
        paymentCurrency,
        paymentMethod,
        ...(body.presetFiatAmount === undefined ? {} : { amount: body.presetFiatAmount }),
        ...(body.presetCryptoAmount === undefined ? {} : { cryptoAmount: body.presetCryptoAmount }),
        partnerUserId: body.partnerUserId,
        reference: c.var.project.id,
      })
    } catch (error) {
      if (error instanceof OnrampRefusedError)
        throw new ApiError('ONRAMP_REFUSED', { details: error.message })
      if (error instanceof OnrampUnavailableError)
        throw new ApiError('ONRAMP_UNAVAILABLE', { cause: error })
      throw error
    }
    return c.json({
      url: onrampUrl(order.url, {
        publicKey: provider.publicKey,
        destinationCurrencyCode: purchaseCurrency,
        walletAddress,
        externalCustomerId: body.partnerUserId,
      }),
      orderId: order.id,
    })
  })

  app.get('/v1/onramp/orders/:orderId', async (c) => {
    const id = parseInput(OrderId, c.req.param('orderId'))
    if (!provider) throw new ApiError('ONRAMP_UNAVAILABLE')
    const order = await provider.order(id).catch((error: unknown) => {
      if (error instanceof OnrampUnavailableError || error instanceof OnrampRefusedError)
        throw new ApiError('ONRAMP_UNAVAILABLE', { cause: error })
      throw error
    })
    // Another project's order is not this project's to follow.
    if (!order || order.reference !== c.var.project.id) throw new ApiError('ONRAMP_ORDER_NOT_FOUND')
    return c.json({
      id: order.id,
      status: order.status,
      network: order.network,
      walletAddress: order.walletAddress,
      purchaseCurrency: order.purchaseCurrency,
      purchaseAmount: order.purchaseAmount,
      paymentTotal: order.paymentTotal,
      txHash: order.txHash,
      failureReason: order.failureReason,
    })
  })
}

/** The network `asked` for of a purchase currency the options offer. */
function purchaseNetwork(options: OnrampOptions, currency: string, asked: string): OnrampNetwork {
  const offered = options.purchaseCurrencies.find((p) => p.id === currency)
  if (!offered)
    throw new ApiError('ONRAMP_UNSUPPORTED_CURRENCY', {
      details: `purchaseCurrency: ${currency} is not offered (${options.purchaseCurrencies.map((p) => p.id).join(', ')})`,
    })
  const network = offered.networks.find((n) => matches(n, asked))
  if (!network)
    throw new ApiError('ONRAMP_UNSUPPORTED_NETWORK', {
      details: `network: ${currency} is not offered on ${asked} (${offered.networks.map(onrampNetworkId).join(', ')})`,
    })
  return network
}

/** The limits of a payment currency and method the options offer. */
function checkPayment(
  options: OnrampOptions,
  currency: string,
  method: string,
): { limit: OnrampLimit } {
  const payment = options.paymentCurrencies.find((p) => p.id === currency)
  if (!payment)
    throw new ApiError('ONRAMP_UNSUPPORTED_CURRENCY', {
      details: `paymentCurrency: ${currency} is not offered (${options.paymentCurrencies.map((p) => p.id).join(', ')})`,
    })
  const limit = payment.limits.find((l) => l.id === method)
  if (!limit)
    throw new ApiError('INVALID_REQUEST', {
      details: `paymentMethod: ${method} is not offered for ${currency} (${payment.limits.map((l) => l.id).join(', ')})`,
    })
  return { limit }
}

function checkAmount(options: OnrampOptions, currency: string, method: string, amount: string) {
  checkLimit(checkPayment(options, currency, method).limit, currency, method, amount)
}

/** Refuses an amount outside `[min, max]` with the range in the message. */
function checkLimit(limit: OnrampLimit, currency: string, method: string, amount: string) {
  const value = Number(amount)
  if (value >= Number(limit.min) && value <= Number(limit.max)) return
  throw new ApiError('ONRAMP_AMOUNT_OUT_OF_RANGE', {
    message: `Amount must be between ${limit.min} and ${limit.max} ${currency}`,
    details: `amount: ${amount} is outside the ${method} limits`,
    fields: { min: limit.min, max: limit.max, currency, paymentMethod: method },
  })
}

/** The destination address for `network`, checked (EVM: 0x-prefixed; Solana: base58). */
function destination(network: string, address: string, index: number): string {
  const where = `destinationWallets.${index}.address`
  if (network.startsWith('eip155:')) {
    if (!EVM_ADDRESS.test(address))
      throw new ApiError('INVALID_REQUEST', {
        details: `${where}: not an EVM address (40 hex digits, optional 0x)`,
      })
    return `0x${address.replace(/^0x/, '')}`
  }
  if (network.startsWith('solana:') && !SOLANA_ADDRESS.test(address))
    throw new ApiError('INVALID_REQUEST', {
      details: `${where}: not a Solana address (32 to 44 base58 characters)`,
    })
  return address
}
