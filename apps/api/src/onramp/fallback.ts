/**
 * What `/v1/onramp/options` and `/v1/onramp/quote` answer when the provider cannot (spec §8
 * "on-ramp options and quote fall back to sample data"): the spec's fallback limits (§5, §9) and
 * default purchase currency (§3), and a sample quote from a fixed price table. Marked
 * `fallback: true`.
 */
import { formatUnits, parseUnits } from 'viem'
import type { OnrampOptions, OnrampQuote, OnrampQuoteRequest } from './OnrampProvider.js'

const LIMITS = [
  { id: 'card', min: '10.00', max: '7500.00' },
  { id: 'ach_bank_account', min: '10.00', max: '25000.00' },
]

/**
 * Spec §5: card 10.00–7500.00 and ach_bank_account 10.00–25000.00, for USD and EUR; §3: USDC on
 * ethereum-mainnet and polygon-mainnet.
 *
 * @example
 * ONRAMP_FALLBACK_OPTIONS.paymentCurrencies[0] // { id: 'USD', limits: [{ id: 'card', min: '10.00', max: '7500.00' }, …] }
 */
export const ONRAMP_FALLBACK_OPTIONS: OnrampOptions = {
  paymentCurrencies: [
    { id: 'USD', limits: LIMITS },
    { id: 'EUR', limits: LIMITS },
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
}

/** The sample price table: USD per token, and decimals shown. */
const SAMPLE_PRICES: Record<string, { usd: string; decimals: number }> = {
  USDC: { usd: '1', decimals: 6 },
  ETH: { usd: '3000', decimals: 18 },
  SOL: { usd: '150', decimals: 9 },
}
/** USD per unit of each payment currency. */
const SAMPLE_RATES: Record<string, string> = { USD: '1', EUR: '1.08' }
/** The sample fee: 1.5 % (the spec's meld fee range is 1–2 %). */
const FEE_PERMILLE = 15n

/**
 * Whether the sample table can price a currency (purchase or payment).
 *
 * @example
 * canSampleQuote('ETH', 'EUR') // true
 */
export function canSampleQuote(purchaseCurrency: string, paymentCurrency: string): boolean {
  return (
    Object.hasOwn(SAMPLE_PRICES, purchaseCurrency) && Object.hasOwn(SAMPLE_RATES, paymentCurrency)
  )
}

/**
 * A sample quote: a 1.5 % fee, no network fee, the rest at the table's price (USDC 1 USD, ETH
 * 3000 USD, SOL 150 USD; 1 EUR = 1.08 USD). `amount` has at most 2 decimals.
 *
 * @example
 * sampleQuote({ purchaseCurrency: 'USDC', paymentCurrency: 'USD', amount: '50', … }).purchaseAmount
 * // { amount: '49.25', currency: 'USDC' }
 */
export function sampleQuote(request: OnrampQuoteRequest): OnrampQuote {
  const price = SAMPLE_PRICES[request.purchaseCurrency]
  const rate = SAMPLE_RATES[request.paymentCurrency]
  if (!price || !rate || !canSampleQuote(request.purchaseCurrency, request.paymentCurrency))
    throw new Error(`No sample price for ${request.purchaseCurrency} in ${request.paymentCurrency}`)
  const total = parseUnits(request.amount, 2)
  const fee = (total * FEE_PERMILLE * 2n + 1000n) / 2000n
  const subtotal = total - fee
  // subtotal (cents) × rate / price, in token base units; rates and prices scaled by 1e6.
  const purchase =
    (subtotal * parseUnits(rate, 6) * 10n ** BigInt(price.decimals)) /
    (100n * parseUnits(price.usd, 6))
  const fiat = (cents: bigint) => ({
    amount: `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`,
    currency: request.paymentCurrency,
  })
  return {
    networkFee: fiat(0n),
    providerFee: fiat(fee),
    paymentSubtotal: fiat(subtotal),
    paymentTotal: fiat(total),
    purchaseAmount: {
      amount: formatUnits(purchase, price.decimals),
      currency: request.purchaseCurrency,
    },
    quoteId: 'fallback',
  }
}
