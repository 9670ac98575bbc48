/**
 * What the local on-ramp provider sells and at what price: payment methods and currencies with
 * their limits, the tokens it buys on the two devnets, a fixed price table and its fees. Pure
 * functions; the HTTP app answers with them.
 *
 * Prices: 1 pUSD (sold as `USDC`) = 1 USD, 1 ETH = 3000 USD, 1 EUR = 1.08 USD. Fees: 1.5 % of
 * the amount paid (the spec's on-ramp fee range is 1–2 %) plus a network fee (0.10 USD for pUSD,
 * 0.50 USD for ETH, in the payment currency). `amount` is what the card is charged (the payment
 * total): the fees come out of it, the rest buys the token.
 */
import { DEVNET_TOKENS } from '@porthole/shared/devnet'
import { type Address, formatUnits, parseUnits } from 'viem'

/** How a buyer pays. */
export type PaymentMethod = 'card' | 'ach_bank_account'

/** The payment methods, in the order options list them. */
export const PAYMENT_METHODS: readonly PaymentMethod[] = ['card', 'ach_bank_account']

/** A fiat currency the provider takes. */
export type PaymentCurrency = {
  id: 'USD' | 'EUR'
  /** Micro-USD per unit (1 EUR = 1.08 USD). */
  usdMicro: bigint
  /** Per method: min and max amount, in cents. */
  limits: Readonly<Record<PaymentMethod, { min: bigint; max: bigint }>>
}

/**
 * The fiat currencies with their per-method limits (deliberately not the spec's fallback
 * table, so a client can tell this provider's answer from the fallback).
 *
 * @example
 * PAYMENT_CURRENCIES.USD.limits.card // { min: 500n, max: 500000n } (5.00 to 5000.00)
 */
export const PAYMENT_CURRENCIES = {
  USD: {
    id: 'USD',
    usdMicro: 1_000_000n,
    limits: {
      card: { min: 5_00n, max: 5_000_00n },
      ach_bank_account: { min: 5_00n, max: 20_000_00n },
    },
  },
  EUR: {
    id: 'EUR',
    usdMicro: 1_080_000n,
    limits: {
      card: { min: 5_00n, max: 4_500_00n },
      ach_bank_account: { min: 5_00n, max: 18_000_00n },
    },
  },
} as const satisfies Record<string, PaymentCurrency>

/** A fiat currency id. */
export type PaymentCurrencyId = keyof typeof PAYMENT_CURRENCIES

/** The contract address options give a native token (as the convert endpoints do). */
export const NATIVE_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' as const

const [pUSD] = DEVNET_TOKENS

/** A token the provider sells. */
export type PurchaseCurrency = {
  id: 'USDC' | 'ETH'
  name: string
  symbol: string
  decimals: number
  /** The ERC-20 contract (the same on both devnets), or null for the native token. */
  token: Address | null
  /** Micro-USD per whole token. */
  usdMicro: bigint
  /** The network fee, in micro-USD. */
  networkFeeUsdMicro: bigint
}

/**
 * The tokens sold: `USDC` is delivered as the devnets' pUSD, `ETH` as native ether.
 *
 * @example
 * PURCHASE_CURRENCIES.USDC.symbol // 'pUSD'
 */
export const PURCHASE_CURRENCIES = {
  USDC: {
    id: 'USDC',
    name: pUSD.name,
    symbol: pUSD.symbol,
    decimals: pUSD.decimals,
    token: pUSD.address,
    usdMicro: 1_000_000n,
    networkFeeUsdMicro: 100_000n,
  },
  ETH: {
    id: 'ETH',
    name: 'Ether',
    symbol: 'ETH',
    decimals: 18,
    token: null,
    usdMicro: 3_000_000_000n,
    networkFeeUsdMicro: 500_000n,
  },
} as const satisfies Record<string, PurchaseCurrency>

/** A token id. */
export type PurchaseCurrencyId = keyof typeof PURCHASE_CURRENCIES

/**
 * The networks tokens arrive on (CAIP-2 id → spec §3 network fields).
 *
 * @example
 * NETWORKS['eip155:31337'].display_name // 'Porthole Devnet'
 */
export const NETWORKS = {
  'eip155:31337': { name: 'porthole-devnet', display_name: 'Porthole Devnet', chain_id: '31337' },
  'eip155:31338': {
    name: 'porthole-devnet-b',
    display_name: 'Porthole Devnet B',
    chain_id: '31338',
  },
} as const

/** A network id (CAIP-2). */
export type NetworkId = keyof typeof NETWORKS

/** The provider fee, in tenths of a percent (1.5 %). */
export const PROVIDER_FEE_PERMILLE = 15n

/** Why a quote (or order) was refused; `code` is the HTTP answer's. */
export class QuoteError extends Error {
  override name = 'QuoteError' as const
  constructor(
    readonly code:
      | 'INVALID_AMOUNT'
      | 'AMOUNT_OUT_OF_RANGE'
      | 'UNSUPPORTED_PAYMENT_CURRENCY'
      | 'UNSUPPORTED_PAYMENT_METHOD'
      | 'UNSUPPORTED_PURCHASE_CURRENCY'
      | 'UNSUPPORTED_NETWORK',
    message: string,
  ) {
    super(message)
  }
}

/** What a quote is asked for: a fiat `amount` (the total charged) or a `cryptoAmount` to buy. */
export type PriceQuoteParameters = {
  purchaseCurrency: string
  paymentCurrency: string
  paymentMethod?: string | undefined
  network: string
  /** Decimal string, at most 2 decimals. */
  amount?: string | undefined
  /** Decimal string in whole tokens. */
  cryptoAmount?: string | undefined
}

/** A priced quote (amounts in cents of the payment currency, the token in base units). */
export type PricedQuote = {
  paymentMethod: PaymentMethod
  paymentCurrency: PaymentCurrencyId
  purchaseCurrency: PurchaseCurrencyId
  network: NetworkId
  paymentTotal: bigint
  providerFee: bigint
  networkFee: bigint
  paymentSubtotal: bigint
  /** Token base units delivered. */
  purchase: bigint
}

const FIAT = /^\d{1,9}(\.\d{1,2})?$/
const DECIMAL = /^\d{1,30}(\.\d{1,18})?$/

/** The currencies, method and network of a purchase, checked. */
export type Offer = {
  payment: PaymentCurrency & { id: PaymentCurrencyId }
  method: PaymentMethod
  token: PurchaseCurrency & { id: PurchaseCurrencyId }
  network: NetworkId
}

/**
 * Checks what is bought, on which network, paid how (not the amount).
 *
 * @example
 * checkOffer({ purchaseCurrency: 'ETH', paymentCurrency: 'EUR', network: 'eip155:31338' }).token.symbol // 'ETH'
 */
export function checkOffer(
  parameters: Omit<PriceQuoteParameters, 'amount' | 'cryptoAmount'>,
): Offer {
  const payment = lookup(PAYMENT_CURRENCIES, parameters.paymentCurrency)
  if (!payment)
    throw new QuoteError(
      'UNSUPPORTED_PAYMENT_CURRENCY',
      `Payment currency ${parameters.paymentCurrency} is not supported (${Object.keys(PAYMENT_CURRENCIES).join(', ')})`,
    )
  const method = (parameters.paymentMethod ?? 'card') as PaymentMethod
  if (!PAYMENT_METHODS.includes(method))
    throw new QuoteError(
      'UNSUPPORTED_PAYMENT_METHOD',
      `Payment method ${parameters.paymentMethod} is not supported (${PAYMENT_METHODS.join(', ')})`,
    )
  const token = lookup(PURCHASE_CURRENCIES, parameters.purchaseCurrency)
  if (!token)
    throw new QuoteError(
      'UNSUPPORTED_PURCHASE_CURRENCY',
      `Purchase currency ${parameters.purchaseCurrency} is not supported (${Object.keys(PURCHASE_CURRENCIES).join(', ')})`,
    )
  if (!lookup(NETWORKS, parameters.network))
    throw new QuoteError(
      'UNSUPPORTED_NETWORK',
      `Network ${parameters.network} is not supported (${Object.keys(NETWORKS).join(', ')})`,
    )
  return { payment, method, token, network: parameters.network as NetworkId }
}

/**
 * Prices a purchase. A fiat `amount` is the total charged; a `cryptoAmount` is delivered
 * exactly, charged the least total (in cents) that covers it. The total must lie within the
 * method's limits.
 *
 * @example
 * const quote = priceQuote({ purchaseCurrency: 'USDC', paymentCurrency: 'USD', network: 'eip155:31337', amount: '50' })
 * // paymentTotal 5000n, providerFee 75n, networkFee 10n, paymentSubtotal 4915n, purchase 49_150_000n (49.15 pUSD)
 */
export function priceQuote(parameters: PriceQuoteParameters): PricedQuote {
  const { payment, method, token, network } = checkOffer(parameters)
  if (parameters.amount !== undefined && parameters.cryptoAmount !== undefined)
    throw new QuoteError('INVALID_AMOUNT', 'Give amount or cryptoAmount, not both')
  const networkFee = divRound(token.networkFeeUsdMicro * 100n, payment.usdMicro)
  const base = {
    paymentMethod: method,
    paymentCurrency: payment.id,
    purchaseCurrency: token.id,
    network,
  }
  let quote: PricedQuote
  if (parameters.amount !== undefined) {
    if (!FIAT.test(parameters.amount) || parseUnits(parameters.amount, 2) === 0n)
      throw new QuoteError(
        'INVALID_AMOUNT',
        'amount must be a decimal number above 0 with at most 2 decimal places',
      )
    quote = forward({
      ...base,
      total: parseUnits(parameters.amount, 2),
      networkFee,
      payment,
      token,
    })
  } else if (parameters.cryptoAmount !== undefined) {
    const wanted = DECIMAL.test(parameters.cryptoAmount)
      ? parseUnits(parameters.cryptoAmount, token.decimals)
      : 0n
    if (wanted === 0n || !sameValue(parameters.cryptoAmount, wanted, token.decimals))
      throw new QuoteError(
        'INVALID_AMOUNT',
        `cryptoAmount must be a decimal number above 0 with at most ${token.decimals} decimal places`,
      )
    // The subtotal that buys `wanted`, then the least total whose subtotal covers it.
    const subtotal = divCeil(
      wanted * 100n * token.usdMicro,
      payment.usdMicro * 10n ** BigInt(token.decimals),
    )
    let total = divCeil((subtotal + networkFee) * 1000n, 1000n - PROVIDER_FEE_PERMILLE)
    while (total - fee(total) - networkFee < subtotal) total += 1n
    while (total > 1n && total - 1n - fee(total - 1n) - networkFee >= subtotal) total -= 1n
    quote = { ...forward({ ...base, total, networkFee, payment, token }), purchase: wanted }
  } else throw new QuoteError('INVALID_AMOUNT', 'amount or cryptoAmount is required')
  const limit = payment.limits[method]
  if (quote.paymentTotal < limit.min || quote.paymentTotal > limit.max)
    throw new QuoteError(
      'AMOUNT_OUT_OF_RANGE',
      `Amount must be between ${formatCents(limit.min)} and ${formatCents(limit.max)} ${payment.id} for ${method} (asked ${formatCents(quote.paymentTotal)})`,
    )
  return quote
}

/** A quote as JSON (`POST /api/quote`, orders). */
export type QuoteJson = {
  paymentMethod: PaymentMethod
  network: NetworkId
  paymentTotal: { amount: string; currency: string }
  paymentSubtotal: { amount: string; currency: string }
  providerFee: { amount: string; currency: string }
  networkFee: { amount: string; currency: string }
  purchaseAmount: { amount: string; currency: string }
}

/**
 * A priced quote as decimal strings (fiat with 2 decimals; the token in whole units).
 *
 * @example
 * quoteJson(priceQuote({ … amount: '50' })).purchaseAmount // { amount: '49.15', currency: 'USDC' }
 */
export function quoteJson(quote: PricedQuote): QuoteJson {
  const fiat = (cents: bigint) => ({ amount: formatCents(cents), currency: quote.paymentCurrency })
  return {
    paymentMethod: quote.paymentMethod,
    network: quote.network,
    paymentTotal: fiat(quote.paymentTotal),
    paymentSubtotal: fiat(quote.paymentSubtotal),
    providerFee: fiat(quote.providerFee),
    networkFee: fiat(quote.networkFee),
    purchaseAmount: {
      amount: formatUnits(quote.purchase, PURCHASE_CURRENCIES[quote.purchaseCurrency].decimals),
      currency: quote.purchaseCurrency,
    },
  }
}

/**
 * Cents as a decimal string with 2 decimals.
 *
 * @example
 * formatCents(123456n) // '1234.56'
 */
export function formatCents(cents: bigint): string {
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`
}

/**
 * The options answer (`GET /api/options`): payment currencies with per-method limits, payment
 * methods, and the tokens with their networks (spec §3 fields).
 *
 * @example
 * onrampOptions().purchaseCurrencies[0].networks[0].chain_id // '31337'
 */
export function onrampOptions() {
  return {
    paymentMethods: PAYMENT_METHODS.map((id) => ({
      id,
      name: id === 'card' ? 'Debit or credit card' : 'Bank transfer (ACH)',
    })),
    paymentCurrencies: Object.values(PAYMENT_CURRENCIES).map((currency) => ({
      id: currency.id,
      limits: PAYMENT_METHODS.map((id) => ({
        id,
        min: formatCents(currency.limits[id].min),
        max: formatCents(currency.limits[id].max),
      })),
    })),
    purchaseCurrencies: Object.values(PURCHASE_CURRENCIES).map((token) => ({
      id: token.id,
      name: token.name,
      symbol: token.symbol,
      decimals: token.decimals,
      networks: Object.values(NETWORKS).map((network) => ({
        ...network,
        contract_address: token.token ?? NATIVE_ADDRESS,
      })),
    })),
  }
}

function forward(input: {
  paymentMethod: PaymentMethod
  paymentCurrency: PaymentCurrencyId
  purchaseCurrency: PurchaseCurrencyId
  network: NetworkId
  total: bigint
  networkFee: bigint
  payment: PaymentCurrency
  token: PurchaseCurrency
}): PricedQuote {
  const providerFee = fee(input.total)
  const subtotal = input.total - providerFee - input.networkFee
  const purchase =
    subtotal > 0n
      ? (subtotal * input.payment.usdMicro * 10n ** BigInt(input.token.decimals)) /
        (100n * input.token.usdMicro)
      : 0n
  return {
    paymentMethod: input.paymentMethod,
    paymentCurrency: input.paymentCurrency,
    purchaseCurrency: input.purchaseCurrency,
    network: input.network,
    paymentTotal: input.total,
    providerFee,
    networkFee: input.networkFee,
    paymentSubtotal: subtotal > 0n ? subtotal : 0n,
    purchase,
  }
}

/** The provider fee of a total, rounded half up to the cent. */
const fee = (total: bigint) => divRound(total * PROVIDER_FEE_PERMILLE, 1000n)
const divRound = (a: bigint, b: bigint) => (a * 2n + b) / (b * 2n)
const divCeil = (a: bigint, b: bigint) => (a + b - 1n) / b

/** True unless `text` has more decimals than `decimals` (parseUnits rounds those away). */
function sameValue(text: string, value: bigint, decimals: number): boolean {
  const fraction = text.split('.')[1] ?? ''
  return fraction.length <= decimals && value > 0n
}

function lookup<T extends Record<string, unknown>>(table: T, key: string): T[keyof T] | undefined {
  return Object.hasOwn(table, key) ? (table[key as keyof T] as T[keyof T]) : undefined
}
