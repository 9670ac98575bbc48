/**
 * Swap rules (spec §2 swap view, §6 "Swaps: only the listed networks", §9 slippage 1): token ids
 * as the convert endpoints name them, amounts in base units, the minimum received at the
 * slippage tolerance, whether an approval is needed first, and the message a failed swap shows.
 */
import { type BalanceEntry, HttpError, NATIVE_TOKEN_ADDRESS, SWAP_SLIPPAGE } from '@porthole/shared'
import { formatUnits } from 'viem'
import { locale } from '../i18n/en.js'
import { tt } from '../i18n/trade.js'
import { parseSendAmount } from './send.js'

/** A token in the swap view: what the convert endpoints list, with the user's balance when held. */
export type SwapAsset = {
  /** CAIP-10; the native token is `<caip2>:0xeeee…eeee`. */
  address: string
  symbol: string
  name: string
  decimals: number
  logoUri?: string | null | undefined
  /** The user's balance as a decimal string, when known. */
  balance?: string | undefined
  /** USD price, when known. */
  price?: number | undefined
}

/**
 * The convert endpoints' id of a balance entry's token (native → `0xeeee…`).
 *
 * @example
 * swapTokenId({ chainId: 'eip155:31337' }) // 'eip155:31337:0xeeee…eeee'
 */
export function swapTokenId(entry: Pick<BalanceEntry, 'chainId' | 'address'>): string {
  if (!entry.address) return `${entry.chainId}:${NATIVE_TOKEN_ADDRESS}`
  // Balance entries carry CAIP-10 addresses; a bare one is put on the entry's chain.
  return (
    entry.address.includes(':') ? entry.address : `${entry.chainId}:${entry.address}`
  ).toLowerCase()
}

/**
 * Whether a CAIP-10 token id is a chain's native token.
 *
 * @example
 * isNativeToken('eip155:1:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE') // true
 */
export function isNativeToken(id: string): boolean {
  return id.toLowerCase().endsWith(`:${NATIVE_TOKEN_ADDRESS}`)
}

/**
 * The swap asset of a balance entry (the from-side lists the user's balances).
 *
 * @example
 * assetOfBalance(entry) // { address: 'eip155:31337:0xeeee…', symbol: 'ETH', balance: '9000.5', … }
 */
export function assetOfBalance(entry: BalanceEntry): SwapAsset {
  return {
    address: swapTokenId(entry),
    symbol: entry.symbol,
    name: entry.name,
    decimals: Number(entry.quantity.decimals),
    logoUri: entry.iconUrl,
    balance: entry.quantity.numeric,
    price: entry.price,
  }
}

/**
 * Same token? CAIP-10 ids compared case-insensitively.
 *
 * @example
 * sameToken('eip155:1:0xAB…', 'eip155:1:0xab…') // true
 */
export function sameToken(a: string | undefined, b: string | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase()
}

/**
 * An amount typed in the swap view (in `locale`'s way, e.g. '1,5' in German; absent: a plain
 * decimal with a dot) as base units; throws the send rules' errors ('Enter a valid amount', 'The
 * amount must be greater than 0', too many decimals, and — when the balance is known —
 * 'Insufficient {symbol} balance').
 *
 * @example
 * parseSwapAmount('1.5', { symbol: 'pUSD', decimals: 6, balance: '10' }) // 1500000n
 * parseSwapAmount('1,5', { symbol: 'pUSD', decimals: 6, balance: '10' }, 'de') // 1500000n
 */
export function parseSwapAmount(
  amount: string,
  asset: Pick<SwapAsset, 'symbol' | 'decimals' | 'balance'>,
  locale?: string,
): bigint {
  return parseSendAmount({
    amount,
    locale,
    token: {
      symbol: asset.symbol,
      quantity: { decimals: String(asset.decimals), numeric: asset.balance ?? '' },
    },
  })
}

/**
 * The least the swap may give at the slippage tolerance (percent, default spec §9's 1), rounded
 * down: what the swap transaction insists on.
 *
 * @example
 * minimumReceived(1000n) // 990n
 */
export function minimumReceived(toAmount: bigint, slippage: number = SWAP_SLIPPAGE): bigint {
  const basisPoints = BigInt(Math.round((100 - slippage) * 100))
  return (toAmount * basisPoints) / 10_000n
}

/**
 * Whether the router must be allowed to spend the from-token first (never for the native token).
 *
 * @example
 * needsApproval({ from: 'eip155:1:0xa0b8…', amount: 10n, allowance: 5n }) // true
 */
export function needsApproval(parameters: {
  from: string
  amount: bigint
  allowance: bigint | null
}): boolean {
  if (isNativeToken(parameters.from)) return false
  return parameters.allowance === null || parameters.allowance < parameters.amount
}

/**
 * A base-unit amount as a short decimal for inputs and summaries: at most `digits` fraction
 * digits, rounded down, no trailing zeros.
 *
 * @example
 * displayAmount(1234567n, 6) // '1.234567'
 * displayAmount(1234567n, 6, 3) // '1.234'
 */
export function displayAmount(value: bigint, decimals: number, digits = 6): string {
  const text = formatUnits(value, decimals)
  const [whole, fraction = ''] = text.split('.')
  const cut = fraction.slice(0, digits).replace(/0+$/, '')
  return cut ? `${whole}.${cut}` : (whole ?? '0')
}

/**
 * The exchange rate of a quote: how many to-tokens one from-token buys, as a decimal string.
 *
 * @example
 * quoteRate({ fromAmount: 10n ** 18n, toAmount: 2990_000000n, fromDecimals: 18, toDecimals: 6 }) // '2990'
 */
export function quoteRate(parameters: {
  fromAmount: bigint
  toAmount: bigint
  fromDecimals: number
  toDecimals: number
}): string {
  const { fromAmount, toAmount, fromDecimals, toDecimals } = parameters
  if (fromAmount <= 0n) return '0'
  // toAmount / fromAmount, scaled to the to-token's decimals.
  const scaled = (toAmount * 10n ** BigInt(fromDecimals)) / fromAmount
  return displayAmount(scaled, toDecimals, 6)
}

/**
 * The from-amount that buys about `toAmount` at a quote's rate (amounts typed on the to-side):
 * the pool's curve makes it an estimate, which the next quote settles.
 *
 * @example
 * fromForTo({ toAmount: 2990n, quoteFrom: 1n, quoteTo: 2990n }) // 1n
 */
export function fromForTo(parameters: {
  toAmount: bigint
  quoteFrom: bigint
  quoteTo: bigint
}): bigint {
  const { toAmount, quoteFrom, quoteTo } = parameters
  if (quoteTo <= 0n) return 0n
  // Round up: better a little more than a little less.
  return (toAmount * quoteFrom + quoteTo - 1n) / quoteTo
}

/**
 * The CAIP-10 id of a network's native token (`<caip2>:0xeeee…eeee`), as prices and quotes name it.
 *
 * @example
 * nativeTokenId('eip155:1') // 'eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
 */
export function nativeTokenId(caipNetworkId: string): string {
  return `${caipNetworkId}:${NATIVE_TOKEN_ADDRESS}`
}

/**
 * A quote's network fee in USD: its gas times the network's gas price (`/v1/convert/gas-price`,
 * else the quote's own) times the native token's price (`/v1/fungible/price`). Without a gas
 * figure or a price, the API's own `networkFeeUsd`; `undefined` when nothing prices it.
 *
 * @example
 * networkFeeUsd({ quote: { gas: '150000' }, gasPrice: '2000000000', nativePrice: 3000, nativeDecimals: 18 }) // 0.9
 */
export function networkFeeUsd(parameters: {
  quote: {
    gas?: string | undefined
    gasPrice?: string | undefined
    networkFeeUsd?: number | null | undefined
  }
  gasPrice: string | null
  nativePrice: number | undefined
  nativeDecimals: number
}): number | undefined {
  const { quote, gasPrice, nativePrice, nativeDecimals } = parameters
  const fallback = typeof quote.networkFeeUsd === 'number' ? quote.networkFeeUsd : undefined
  const price = gasPrice ?? quote.gasPrice
  if (!quote.gas || !price || !nativePrice || !(nativePrice > 0)) return fallback
  try {
    const wei = BigInt(quote.gas) * BigInt(price)
    return Number(formatUnits(wei, nativeDecimals)) * nativePrice
  } catch {
    // Not integers (a malformed answer): the API's own figure, if any.
    return fallback
  }
}

/**
 * The text a failed quote, approval or swap shows. Slippage and liquidity failures of the router
 * get their own sentences; the API's errors (the spec's 'Network not supported for Swaps')
 * show as the API words them; a refusal in the wallet says so.
 *
 * @example
 * swapErrorMessage(new Error('…UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT')) // 'The price moved more than …'
 */
export function swapErrorMessage(error: unknown): string {
  if (error instanceof HttpError) {
    const body = error.body as { message?: unknown } | undefined
    if (typeof body?.message === 'string') return body.message
  }
  const e = error as { code?: number; shortMessage?: string; message?: string; details?: string }
  const text = `${e?.shortMessage ?? ''} ${e?.message ?? ''} ${e?.details ?? ''}`
  if (/INSUFFICIENT_OUTPUT_AMOUNT/.test(text))
    return tt('slippageExceeded', { slippage: formatPercent(SWAP_SLIPPAGE) })
  if (/INSUFFICIENT_(INPUT_|)LIQUIDITY/.test(text)) return tt('insufficientLiquidity')
  if (e?.code === 4001 || /user rejected|user denied|rejected the request/i.test(text))
    return tt('rejected')
  return e?.shortMessage ?? e?.message ?? tt('somethingWentWrong')
}

/**
 * A percentage in the chosen locale ('1%', '5.25%'; '%5,25' in Turkish), with at least
 * `minimumDigits` and at most 2 fraction digits.
 *
 * @example
 * formatPercent(5.25, 2) // '5.25%'
 * formatPercent(1) // '1%'
 */
export function formatPercent(percent: number, minimumDigits = 0): string {
  return new Intl.NumberFormat(locale(), {
    style: 'percent',
    minimumFractionDigits: minimumDigits,
    maximumFractionDigits: 2,
  }).format(percent / 100)
}
