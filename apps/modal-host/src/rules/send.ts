/**
 * Send rules (spec §3 Send state, §4 Send, §5, §7 wallet transfers): validation with the
 * spec's errors, the amount in the token's smallest unit, the receiver as a checksummed
 * address (names plug in through a resolver), and the EVM request the send becomes.
 *
 * Errors are {@link SendError}s whose `shortMessage` is the user-facing text from the string
 * catalogue. The spec's own: 'An amount and receiver address are required', 'A token is
 * required', 'Unsupported chain'. Added where the spec has none (its "a token address for
 * ERC20" rule and the amount and receiver checks):
 * - 'A token address is required for ERC-20 tokens': the token has an address that is empty or
 *   not an EVM address (a token without `address` is the native one);
 * - 'The token is not on the active network';
 * - 'The token has invalid decimals': `quantity.decimals` is not a whole number 0–255;
 * - 'Enter a valid amount': not a plain decimal in the locale it was typed in ('abc', '1e3', '',
 *   '1,5' in English, '1.5' in German);
 * - 'The amount must be greater than 0': zero or negative;
 * - '{symbol} has at most {decimals} decimal places': more significant fraction digits than the
 *   token has (trailing zeros are fine);
 * - 'Insufficient {symbol} balance': more than `quantity.numeric` (gas is the wallet's check);
 * - 'Enter a valid address or name': not an address, and no resolver for names;
 * - 'Invalid address checksum': mixed case that fails EIP-55;
 * - 'No address found for {name}': the resolver found nothing;
 * - 'Error resolving name' (spec §8 name fallback): the resolver failed or gave a non-address.
 */
import { BaseError, type BaseErrorOptions } from '@porthole/protocol'
import {
  type BalanceEntry,
  isSolanaAddress,
  parseCaipAddress,
  parseCaipNetworkId,
} from '@porthole/shared'
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  isAddress,
  numberToHex,
  parseUnits,
} from 'viem'
import { type TradeKey, tt } from '../i18n/trade.js'
import { parseDecimal, readTypedAmount } from './decimals.js'

const MESSAGES = {
  amountAndReceiverRequired: 'sendAmountAndReceiverRequired',
  tokenRequired: 'sendTokenRequired',
  unsupportedChain: 'unsupportedChain',
  tokenAddressRequired: 'sendTokenAddressRequired',
  tokenOnOtherNetwork: 'sendTokenOnOtherNetwork',
  invalidTokenDecimals: 'sendInvalidTokenDecimals',
  invalidAmount: 'sendInvalidAmount',
  amountNotPositive: 'sendAmountNotPositive',
  tooManyDecimals: 'sendTooManyDecimals',
  insufficientBalance: 'sendInsufficientBalance',
  invalidReceiver: 'sendInvalidReceiver',
  invalidChecksum: 'sendInvalidChecksum',
  nameNotFound: 'sendNameNotFound',
  nameResolutionFailed: 'errorResolvingName',
} as const satisfies Record<string, TradeKey>

/** Why a send was refused; a view may use it to mark the field at fault. */
export type SendErrorReason = keyof typeof MESSAGES

/**
 * A send the rules refuse; `shortMessage` is the text to show.
 *
 * @example
 * throw new SendError('tokenRequired') // 'A token is required'
 */
export class SendError extends BaseError {
  override name = 'SendError' as const
  readonly reason: SendErrorReason
  constructor(
    reason: SendErrorReason,
    values: Record<string, string | number> = {},
    options: BaseErrorOptions = {},
  ) {
    super(tt(MESSAGES[reason], values), options)
    this.reason = reason
  }
}

/** Errors the send rules throw. */
export type SendErrorType = SendError

/** The token being sent: a balance entry of the Tokens tab (no `address` = native). */
export type SendToken = Pick<BalanceEntry, 'symbol' | 'chainId' | 'address' | 'quantity'>

/** Parameters of {@link validateSend}. */
export type ValidateSendParameters = {
  /** The active network (CAIP-2), `null` when there is none. */
  caipNetworkId: string | null
  token: SendToken | null | undefined
  amount: string | null | undefined
  receiver: string | null | undefined
}

/** What a valid send is: the namespace it branches on and, on EVM, the token's contract. */
export type ValidateSendReturnType =
  | { namespace: 'eip155'; kind: 'native'; decimals: number }
  | { namespace: 'eip155'; kind: 'erc20'; tokenAddress: Address; decimals: number }
  | { namespace: 'solana'; kind: 'native'; decimals: number }

/**
 * Checks a send in the spec's order (§4, §5): the active namespace (eip155 or solana, else
 * 'Unsupported chain'), an amount and a receiver, a token, then the token itself (on the active
 * network, valid decimals, and an address when it is an ERC-20).
 *
 * @example
 * validateSend({ caipNetworkId: 'eip155:1', token, amount: '1', receiver: '0x…' })
 * // { namespace: 'eip155', kind: 'native', decimals: 18 }
 */
export function validateSend(parameters: ValidateSendParameters): ValidateSendReturnType {
  const { caipNetworkId, token, amount, receiver } = parameters
  let namespace: string | undefined
  try {
    namespace = caipNetworkId ? parseCaipNetworkId(caipNetworkId).namespace : undefined
  } catch {}
  if (namespace !== 'eip155' && namespace !== 'solana')
    throw new SendError('unsupportedChain', {}, { details: caipNetworkId ?? 'no active network' })
  if (!amount?.trim() || !receiver?.trim()) throw new SendError('amountAndReceiverRequired')
  if (!token) throw new SendError('tokenRequired')
  if (token.chainId !== caipNetworkId)
    throw new SendError('tokenOnOtherNetwork', {}, { details: token.chainId })
  const decimals = Number(token.quantity.decimals)
  if (!/^\d+$/.test(token.quantity.decimals) || decimals > 255)
    throw new SendError('invalidTokenDecimals', {}, { details: token.quantity.decimals })
  if (token.address === undefined) return { namespace, kind: 'native', decimals }
  if (namespace === 'solana')
    // SPL token sends arrive with the Solana issue (spec §4: solana sends native).
    throw new SendError('unsupportedChain', {}, { details: 'SPL token sends' })
  const tokenAddress = evmTokenAddress(token.address)
  if (!tokenAddress) throw new SendError('tokenAddressRequired', {}, { details: token.address })
  return { namespace, kind: 'erc20', tokenAddress, decimals }
}

/** The contract address of a CAIP-10 (`eip155:1:0x…`) or plain token address. */
function evmTokenAddress(value: string): Address | undefined {
  let address = value
  if (value.includes(':')) {
    try {
      const parsed = parseCaipAddress(value)
      if (parsed.namespace !== 'eip155') return undefined
      address = parsed.address
    } catch {
      return undefined
    }
  }
  return isAddress(address, { strict: false }) ? getAddress(address) : undefined
}

/** Parameters of {@link parseSendAmount}. */
export type ParseSendAmountParameters = {
  /** What the user typed. */
  amount: string
  token: Pick<SendToken, 'symbol' | 'quantity'>
  /**
   * The locale the amount was typed in ('1,5' is 1.5 in German; see `readTypedAmount`). Absent:
   * a plain decimal with a dot, as balances and quotes are written.
   */
  locale?: string | undefined
}

const PLAIN_DECIMAL = /^(\d+\.?\d*|\.\d+)$/

/**
 * The amount in the token's smallest unit (spec §5 "Amounts are converted using the token
 * decimals", viem `parseUnits`), refusing what cannot be sent exactly: not a plain decimal,
 * zero or negative, more fraction digits than the token has, more than the balance.
 *
 * @example
 * parseSendAmount({ amount: '1.5', token: { symbol: 'pUSD', quantity: { decimals: '6', numeric: '10' } } })
 * // 1500000n
 */
export function parseSendAmount(parameters: ParseSendAmountParameters): bigint {
  const { token } = parameters
  const typed = parameters.amount.trim()
  const text = parameters.locale === undefined ? typed : readTypedAmount(typed, parameters.locale)
  if (text === undefined) throw new SendError('invalidAmount', {}, { details: typed })
  const decimals = Number(token.quantity.decimals)
  if (!/^\d+$/.test(token.quantity.decimals) || decimals > 255)
    throw new SendError('invalidTokenDecimals', {}, { details: token.quantity.decimals })
  if (/^-\s*/.test(text) && PLAIN_DECIMAL.test(text.replace(/^-\s*/, '')))
    throw new SendError('amountNotPositive')
  if (!PLAIN_DECIMAL.test(text)) throw new SendError('invalidAmount', {}, { details: text })
  const [whole = '', fraction = ''] = text.split('.')
  const significant = fraction.replace(/0+$/, '')
  if (significant.length > decimals)
    throw new SendError('tooManyDecimals', { symbol: token.symbol, decimals })
  const value = parseUnits(`${whole || '0'}${significant ? `.${significant}` : ''}`, decimals)
  if (value <= 0n) throw new SendError('amountNotPositive')
  const balance = parseDecimal({ value: token.quantity.numeric, decimals })
  if (balance !== undefined && value > balance)
    throw new SendError('insufficientBalance', { symbol: token.symbol })
  return value
}

/** Looks a name up; `null` when it has no address. Names plug in here when they arrive. */
export type ResolveName = (name: string) => Promise<Address | string | null>

/** Parameters of {@link resolveReceiver}. */
export type ResolveReceiverParameters = {
  receiver: string
  resolveName?: ResolveName | undefined
}

/** The receiver's address, and the name it was found by. */
export type ResolveReceiverReturnType = { address: Address; name: string | null }

/**
 * The receiver as a checksummed address: an EVM address (40 hex characters, optional 0x; mixed
 * case must pass EIP-55), or a name looked up with `resolveName`.
 *
 * @example
 * await resolveReceiver({ receiver: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' })
 * // { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', name: null }
 */
export async function resolveReceiver(
  parameters: ResolveReceiverParameters,
): Promise<ResolveReceiverReturnType> {
  const input = parameters.receiver.trim()
  if (/^0x/i.test(input) || /^[0-9a-f]{40}$/i.test(input)) {
    const candidate =
      input.startsWith('0x') || input.startsWith('0X') ? `0x${input.slice(2)}` : `0x${input}`
    if (!isAddress(candidate, { strict: false }))
      throw new SendError('invalidReceiver', {}, { details: input })
    // EIP-55: an all-lower or all-upper case address carries no checksum; mixed case must match.
    const hex = candidate.slice(2)
    const unchecked = hex === hex.toLowerCase() || hex === hex.toUpperCase()
    if (!unchecked && !isAddress(candidate, { strict: true }))
      throw new SendError('invalidChecksum', {}, { details: input })
    return { address: getAddress(candidate), name: null }
  }
  const { resolveName } = parameters
  if (!input || !resolveName) throw new SendError('invalidReceiver', {}, { details: input })
  let resolved: string | null
  try {
    resolved = await resolveName(input)
  } catch (cause) {
    throw new SendError('nameResolutionFailed', {}, { cause, details: input })
  }
  if (!resolved) throw new SendError('nameNotFound', { name: input })
  if (!isAddress(resolved, { strict: false }))
    throw new SendError('nameResolutionFailed', {}, { details: `${input} → ${resolved}` })
  return { address: getAddress(resolved), name: input }
}

/** An `eth_sendTransaction` parameter object (spec §7 wallet transfers). */
export type EvmSendRequest = { from: Address; to: Address; value: Hex; data: Hex }

/** Parameters of {@link buildSendRequest}. */
export type BuildSendRequestParameters = {
  from: Address
  to: Address
  /** In the token's smallest unit. */
  amount: bigint
  /** The ERC-20 contract; absent for the native token. */
  tokenAddress?: Address | undefined
}

/**
 * The transaction a send becomes (spec §7): native `{ from, to, value, data: '0x' }`; ERC-20 a
 * `transfer(to, amount)` call `{ from, to: token, data, value: '0x0' }`.
 *
 * @example
 * buildSendRequest({ from, to, amount: 10n ** 18n })
 * // { from, to, value: '0xde0b6b3a7640000', data: '0x' }
 */
export function buildSendRequest(parameters: BuildSendRequestParameters): EvmSendRequest {
  const { from, to, amount, tokenAddress } = parameters
  if (!tokenAddress) return { from, to, value: numberToHex(amount), data: '0x' }
  return {
    from,
    to: tokenAddress,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
    value: '0x0',
  }
}

/** Parameters of {@link prepareSend}. */
export type PrepareSendParameters = ValidateSendParameters & {
  /** The connected account. */
  from: Address
  resolveName?: ResolveName | undefined
  /** The locale the amount was typed in (absent: a plain decimal with a dot). */
  locale?: string | undefined
}

/** A send ready for the wallet: `eth_sendTransaction`'s request, or a Solana native transfer. */
export type PrepareSendReturnType =
  | {
      namespace: 'eip155'
      kind: 'native' | 'erc20'
      /** In the token's smallest unit. */
      amount: bigint
      receiver: ResolveReceiverReturnType
      request: EvmSendRequest
    }
  | {
      namespace: 'solana'
      kind: 'native'
      /** In lamports. */
      amount: bigint
      receiver: { address: string; name: null }
    }

/**
 * Every rule at once: validation, amount, receiver, and for EVM the request. A Solana native
 * send needs a Solana receiver (32–44 base58 characters); its transaction is built against the
 * chain's latest blockhash when sending.
 *
 * @example
 * const { request } = await prepareSend({ caipNetworkId, token, amount: '1', receiver: 'alice.eth', from, resolveName })
 * await provider.request({ method: 'eth_sendTransaction', params: [request] })
 */
export async function prepareSend(
  parameters: PrepareSendParameters,
): Promise<PrepareSendReturnType> {
  const valid = validateSend(parameters)
  const token = parameters.token as SendToken
  const amount = parseSendAmount({
    amount: parameters.amount as string,
    token,
    locale: parameters.locale,
  })
  if (valid.namespace === 'solana') {
    // validateSend let only the native token through (spec §4: solana sends native).
    const address = (parameters.receiver as string).trim()
    if (!isSolanaAddress(address)) throw new SendError('invalidReceiver', {}, { details: address })
    return { namespace: 'solana', kind: 'native', amount, receiver: { address, name: null } }
  }
  const receiver = await resolveReceiver({
    receiver: parameters.receiver as string,
    resolveName: parameters.resolveName,
  })
  const request = buildSendRequest({
    from: parameters.from,
    to: receiver.address,
    amount,
    tokenAddress: valid.kind === 'erc20' ? valid.tokenAddress : undefined,
  })
  return { namespace: 'eip155', kind: valid.kind, amount, receiver, request }
}
