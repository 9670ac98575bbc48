/**
 * The Tokens tab's rules (spec §5, §9 "Display") and wallet asset discovery (spec §5, §7
 * `wallet_getAssets (account, chainFilter)`, ERC-7811 shapes): formatting, the quality filter,
 * sorting, the total value, and turning a wallet's asset answer into the same balance entries
 * the blockchain data service gives. All amounts are handled as exact decimals (no floats).
 */
import {
  type BalanceEntry,
  formatAmount,
  parseCaipNetworkId,
  type Quantity,
} from '@porthole/shared'
import { formatUnits, type Hex } from 'viem'
import { locale } from '../i18n/en.js'
import { formatDecimal, parseDecimal } from './decimals.js'

/** An amount as the API gives it (`quantity`), or as a chain read gives it (bigint + decimals). */
export type BalanceAmount = Quantity | { value: bigint; decimals: number }

/**
 * A balance at 3 decimals (spec §9), rounded down so a balance never shows more than it is,
 * thousands grouped.
 *
 * @example
 * formatBalance({ decimals: '18', numeric: '1.23456' }) // '1.234'
 * formatBalance({ value: 1500000n, decimals: 6 }) // '1.500'
 */
export function formatBalance(amount: BalanceAmount): string {
  if ('value' in amount) return formatAmount(amount.value, amount.decimals, 3)
  return formatDecimal({ value: amount.numeric, digits: 3 })
}

/**
 * A currency amount at 2 decimals (spec §9 "Currency total"), rounded down, thousands grouped;
 * the symbol is the view's.
 *
 * @example
 * formatCurrency(1234.5) // '1,234.50'
 * formatCurrency('19.99') // '19.99'
 */
export function formatCurrency(value: number | string): string {
  return formatDecimal({ value, digits: 2 })
}

/**
 * A USD value at 2 decimals (spec §9 "Currency total"), rounded down, written by `Intl` in the
 * chosen locale with its currency sign ('$1,234.50'; '1.234,50 $' in German); '—' for a value
 * that is not a number.
 *
 * @example
 * formatUsd(1234.5) // '$1,234.50'
 * formatUsd('19.999') // '$19.99'
 */
export function formatUsd(value: number | string): string {
  const cents = parseDecimal({ value, decimals: 2 })
  if (cents === undefined) return '—'
  return new Intl.NumberFormat(locale(), { style: 'currency', currency: 'USD' }).format(
    formatUnits(cents, 2) as `${number}`,
  )
}

/**
 * The quality filter (spec §5): tokens whose `quantity.decimals` is '0' are dropped.
 *
 * @example
 * isQualityToken({ ...entry, quantity: { decimals: '0', numeric: '1' } }) // false
 */
export function isQualityToken(entry: BalanceEntry): boolean {
  return entry.quantity.decimals !== '0'
}

const VALUE_DECIMALS = 18

/** The entry's value scaled by 10^18: `value`, else `numeric × price`; 0 when neither parses. */
function scaledValue(entry: BalanceEntry): bigint {
  if (entry.value !== undefined) {
    const value = parseDecimal({ value: entry.value, decimals: VALUE_DECIMALS })
    if (value !== undefined) return value
  }
  const numeric = parseDecimal({ value: entry.quantity.numeric, decimals: VALUE_DECIMALS })
  const price = parseDecimal({ value: entry.price, decimals: VALUE_DECIMALS })
  if (numeric === undefined || price === undefined) return 0n
  return (numeric * price) / 10n ** BigInt(VALUE_DECIMALS)
}

/**
 * A token's value as an exact decimal text: the entry's `value`, or `numeric × price` when the
 * answer has none.
 *
 * @example
 * tokenValue({ ...entry, quantity: { decimals: '6', numeric: '2.5' }, price: 1 }) // '2.5'
 */
export function tokenValue(entry: BalanceEntry): string {
  return formatUnits(scaledValue(entry), VALUE_DECIMALS)
}

/**
 * Sorts balances for display: value descending, then the native token first, then by symbol.
 * Returns a new array.
 *
 * @example
 * sortTokens(balances).map((b) => b.symbol) // ['ETH', 'pUSD', 'PRT']
 */
export function sortTokens(entries: readonly BalanceEntry[]): BalanceEntry[] {
  const keyed = entries.map((entry) => ({ entry, value: scaledValue(entry) }))
  keyed.sort((a, b) => {
    if (a.value !== b.value) return a.value > b.value ? -1 : 1
    const aNative = a.entry.address === undefined
    const bNative = b.entry.address === undefined
    if (aNative !== bNative) return aNative ? -1 : 1
    const aSymbol = a.entry.symbol.toLowerCase()
    const bSymbol = b.entry.symbol.toLowerCase()
    return aSymbol < bSymbol ? -1 : aSymbol > bSymbol ? 1 : 0
  })
  return keyed.map(({ entry }) => entry)
}

/**
 * The Tokens tab's list: the quality filter, then the display order.
 *
 * @example
 * const list = tokenList(response.balances)
 */
export function tokenList(entries: readonly BalanceEntry[]): BalanceEntry[] {
  return sortTokens(entries.filter(isQualityToken))
}

/**
 * The total value of the listed tokens (quality filter applied) as an exact decimal text; show
 * it with {@link formatCurrency}.
 *
 * @example
 * formatCurrency(totalValue(response.balances)) // '1,234.56'
 */
export function totalValue(entries: readonly BalanceEntry[]): string {
  const sum = entries
    .filter(isQualityToken)
    .reduce((total, entry) => total + scaledValue(entry), 0n)
  return formatUnits(sum, VALUE_DECIMALS)
}

/** One asset of a `wallet_getAssets` answer (spec §3 "Wallet asset response"). */
export type WalletAsset = {
  address: string
  /** The raw balance, hex. */
  balance: Hex
  type: 'ERC20' | 'NATIVE'
  metadata: {
    name: string
    symbol: string
    decimals: number
    price: number
    iconUrl: string
    value?: number
  }
}

/** A validated `wallet_getAssets` answer: assets by hex chain id. */
export type WalletAssets = Record<Hex, WalletAsset[]>

/** Parameters of {@link getAssetsRequest}. */
export type GetAssetsRequestParameters = {
  account: string
  /** Networks to ask about: CAIP-2 ids or chain ids; non-EVM networks are left out. */
  chainIds: readonly (string | number)[]
}

/** The EIP-1193 request for {@link getAssetsRequest}. */
export type GetAssetsRequestReturnType = {
  method: 'wallet_getAssets'
  params: [{ account: string; chainFilter: Hex[] }]
}

/**
 * The `wallet_getAssets` request (spec §7, ERC-7811) for an account on some networks: the
 * chain filter is the EVM chain ids in hex, without duplicates.
 *
 * @example
 * getAssetsRequest({ account: '0xf39F…', chainIds: ['eip155:1', 'eip155:8453'] })
 * // { method: 'wallet_getAssets', params: [{ account: '0xf39F…', chainFilter: ['0x1', '0x2105'] }] }
 */
export function getAssetsRequest(
  parameters: GetAssetsRequestParameters,
): GetAssetsRequestReturnType {
  const chainFilter = new Set<Hex>()
  for (const chainId of parameters.chainIds) {
    const id = evmChainId(chainId)
    if (id !== undefined) chainFilter.add(`0x${id.toString(16)}`)
  }
  return {
    method: 'wallet_getAssets',
    params: [{ account: parameters.account, chainFilter: [...chainFilter] }],
  }
}

/** An EVM chain id from a CAIP-2 id, a decimal or hex text, or a number. */
function evmChainId(chainId: string | number): bigint | undefined {
  try {
    if (typeof chainId === 'number')
      return Number.isSafeInteger(chainId) && chainId > 0 ? BigInt(chainId) : undefined
    if (chainId.includes(':')) {
      const { namespace, reference } = parseCaipNetworkId(chainId)
      return namespace === 'eip155' && /^\d+$/.test(reference) ? BigInt(reference) : undefined
    }
    if (/^(0x[0-9a-f]+|\d+)$/i.test(chainId))
      return BigInt(chainId) > 0n ? BigInt(chainId) : undefined
  } catch {}
  return undefined
}

const HEX = /^0x[0-9a-fA-F]+$/

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isAsset(value: unknown): value is WalletAsset {
  if (!isRecord(value)) return false
  const { address, balance, type, metadata } = value
  if (typeof address !== 'string' || typeof balance !== 'string') return false
  if (!HEX.test(balance)) return false
  if (type !== 'ERC20' && type !== 'NATIVE') return false
  if (!isRecord(metadata)) return false
  const { name, symbol, iconUrl, decimals, price } = metadata
  return (
    typeof name === 'string' &&
    typeof symbol === 'string' &&
    typeof iconUrl === 'string' &&
    typeof decimals === 'number' &&
    Number.isInteger(decimals) &&
    decimals >= 0 &&
    decimals <= 255 &&
    typeof price === 'number' &&
    Number.isFinite(price)
  )
}

/**
 * Validates a `wallet_getAssets` answer by every rule of spec §5 "Wallet asset responses are
 * valid only if": keyed by hex chain id, each a list of assets; every asset has a string
 * address and balance; type is ERC20 or NATIVE; metadata has string name, symbol and iconUrl and
 * numeric decimals and price. Read strictly where the spec's entity says more: the balance is a
 * hex string (spec §3) and decimals a whole number 0–255. One bad asset makes the whole answer
 * invalid: it is ignored (`undefined`) and the API's balances are used instead.
 *
 * @example
 * const assets = validateWalletAssets(await provider.request(getAssetsRequest(…)))
 * if (assets) balances = walletAssetsToBalances(assets)
 */
export function validateWalletAssets(response: unknown): WalletAssets | undefined {
  if (!isRecord(response)) return undefined
  for (const [chainId, assets] of Object.entries(response)) {
    if (!HEX.test(chainId)) return undefined
    if (!Array.isArray(assets) || !assets.every(isAsset)) return undefined
  }
  return response as WalletAssets
}

/**
 * Converts a validated `wallet_getAssets` answer into the balance entries of the blockchain
 * data service (`BalanceEntry`): chainId CAIP-2, address CAIP-10 (absent for NATIVE),
 * quantity from the hex balance and decimals, price, and value (the wallet's, else
 * quantity × price). Apply {@link tokenList} afterwards like to the API's balances.
 *
 * @example
 * walletAssetsToBalances({ '0x1': [{ address: '0x…', balance: '0xde0b6b3a7640000', type: 'NATIVE', metadata }] })
 * // [{ chainId: 'eip155:1', quantity: { decimals: '18', numeric: '1' }, … }]
 */
export function walletAssetsToBalances(assets: WalletAssets): BalanceEntry[] {
  const entries: BalanceEntry[] = []
  for (const [hexChainId, list] of Object.entries(assets)) {
    const chainId = `eip155:${BigInt(hexChainId)}`
    for (const asset of list) {
      const { name, symbol, decimals, price, iconUrl, value } = asset.metadata
      const entry: BalanceEntry = {
        name,
        symbol,
        chainId,
        ...(asset.type === 'ERC20' ? { address: `${chainId}:${asset.address}` } : {}),
        price,
        quantity: {
          decimals: String(decimals),
          numeric: formatUnits(BigInt(asset.balance), decimals),
        },
        iconUrl,
      }
      entry.value =
        typeof value === 'number' && Number.isFinite(value) ? value : Number(tokenValue(entry))
      entries.push(entry)
    }
  }
  return entries
}

/**
 * Whether the wallet reports asset discovery for a chain (spec §5 "Asset discovery is used only
 * if the wallet reports support for it"), read from its `wallet_getCapabilities` answer
 * (EIP-5792 shape, ERC-7811 capability): `{ [chainIdHex]: { assetDiscovery: { supported: true } } }`;
 * the EIP-5792 key '0x0' covers every chain. Anything else (no answer, another shape,
 * `supported` not exactly `true`) is no support.
 *
 * @example
 * supportsAssetDiscovery({ '0x1': { assetDiscovery: { supported: true } } }, '0x1') // true
 */
export function supportsAssetDiscovery(capabilities: unknown, chainIdHex: string): boolean {
  if (!isRecord(capabilities)) return false
  const wanted = evmChainId(chainIdHex)
  if (wanted === undefined) return false
  for (const [key, entry] of Object.entries(capabilities)) {
    if (!HEX.test(key)) continue
    const id = BigInt(key)
    if (id !== wanted && id !== 0n) continue
    if (
      isRecord(entry) &&
      isRecord(entry.assetDiscovery) &&
      entry.assetDiscovery.supported === true
    )
      return true
  }
  return false
}
