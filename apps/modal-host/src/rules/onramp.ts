/**
 * On-ramp rules (spec §3 on-ramp state, §5, §6, §8, §9): where buying is offered (EVM and
 * Solana, not from restricted time zones), the providers list, the fallback options when the
 * provider cannot be reached, and the payment amount's limits.
 */
import type { OnrampLimit, OnrampOptionsResponse, OnrampPurchaseCurrency } from '@porthole/shared'
import { tt } from '../i18n/trade.js'
import { parseDecimal } from './decimals.js'

export { isRestrictedTimezone, RESTRICTED_TIMEZONES } from './timezones.js'

/**
 * Spec §5: the providers list must be an array of strings, otherwise it is empty.
 *
 * @example
 * onrampProviders(['meld']) // ['meld']
 * onrampProviders('meld') // []
 */
export function onrampProviders(value: unknown): string[] {
  return Array.isArray(value) && value.every((p) => typeof p === 'string') ? [...value] : []
}

/**
 * Spec §6: on-ramp is EVM and Solana.
 *
 * @example
 * onrampSupportsNamespace('bip122') // false
 */
export function onrampSupportsNamespace(namespace: string | undefined): boolean {
  return namespace === 'eip155' || namespace === 'solana'
}

const FALLBACK_LIMITS: OnrampLimit[] = [
  { id: 'card', min: '10.00', max: '7500.00' },
  { id: 'ach_bank_account', min: '10.00', max: '25000.00' },
]

/**
 * Spec §5, §8: the options when the provider cannot be reached — card 10.00–7500.00 and
 * ach_bank_account 10.00–25000.00 for USD and EUR; USDC on ethereum-mainnet and polygon-mainnet.
 *
 * @example
 * FALLBACK_ONRAMP_OPTIONS.paymentCurrencies[0].limits[0] // { id: 'card', min: '10.00', max: '7500.00' }
 */
export const FALLBACK_ONRAMP_OPTIONS: OnrampOptionsResponse = {
  paymentCurrencies: [
    { id: 'USD', limits: FALLBACK_LIMITS },
    { id: 'EUR', limits: FALLBACK_LIMITS },
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
          contract_address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
        },
        {
          name: 'polygon-mainnet',
          display_name: 'Polygon',
          chain_id: '137',
          contract_address: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        },
      ],
    },
  ],
  fallback: true,
}

/**
 * Whether a network entry of the options is the given CAIP-2 network (`chain_id` may be the
 * plain EVM id or CAIP-2).
 *
 * @example
 * isOnNetwork({ chain_id: '31337' }, 'eip155:31337') // true
 */
export function isOnNetwork(network: { chain_id: string }, caipNetworkId: string): boolean {
  return network.chain_id === caipNetworkId || `eip155:${network.chain_id}` === caipNetworkId
}

/**
 * The currencies that can be bought on a network.
 *
 * @example
 * purchasableOn(options.purchaseCurrencies, 'eip155:31337').map((c) => c.id) // ['USDC', 'ETH']
 */
export function purchasableOn(
  currencies: readonly OnrampPurchaseCurrency[],
  caipNetworkId: string,
): OnrampPurchaseCurrency[] {
  return currencies.filter((c) => c.networks.some((n) => isOnNetwork(n, caipNetworkId)))
}

/**
 * The payment amount checked against the method's limits; the error to show, or null.
 *
 * @example
 * onrampAmountError({ amount: '5', currency: 'USD', limit: { id: 'card', min: '10.00', max: '7500.00' } })
 * // 'Enter an amount between 10.00 and 7500.00 USD'
 */
export function onrampAmountError(parameters: {
  amount: string
  currency: string
  limit: OnrampLimit | undefined
}): string | null {
  const { amount, currency, limit } = parameters
  const text = amount.trim()
  const cents = /^\d+(\.\d{0,2})?$/.test(text)
    ? parseDecimal({ value: text, decimals: 2 })
    : undefined
  if (cents === undefined || cents <= 0n)
    return limit
      ? tt('outOfLimits', { min: limit.min, max: limit.max, currency })
      : tt('enterAmount')
  if (!limit) return null
  const min = parseDecimal({ value: limit.min, decimals: 2 })
  const max = parseDecimal({ value: limit.max, decimals: 2 })
  if ((min !== undefined && cents < min) || (max !== undefined && cents > max))
    return tt('outOfLimits', { min: limit.min, max: limit.max, currency })
  return null
}

/**
 * A quote's money field as text (the API gives `{ amount, currency }`; a provider may give a
 * plain string).
 *
 * @example
 * moneyText({ amount: '1.25', currency: 'USD' }) // '1.25 USD'
 */
export function moneyText(value: string | { amount: string; currency: string }): string {
  return typeof value === 'string' ? value : `${value.amount} ${value.currency}`
}
