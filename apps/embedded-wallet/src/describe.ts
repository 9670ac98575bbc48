/**
 * What an approval card says, as pure functions of the request and what was read from the chain
 * before the card was drawn: text with hidden characters made visible, transactions with the
 * network by name, the full recipient (or "Contract deployment"), the value, the fee, the full
 * calldata and its decoded call, the balance changes a simulation found, and whether the balance
 * covers value plus fee. The card (`approval.ts`) and the popup draw exactly this.
 */

import { parseSiwxMessage } from '@porthole/shared'
import {
  decodeFunctionData,
  erc20Abi,
  erc721Abi,
  formatUnits,
  type Hex,
  hexToString,
  isHex,
  maxUint256,
} from 'viem'
import { decimal, en, t } from './i18n/en.js'

/** One labelled line of a card. */
export type ApprovalField = { label: string; value: string; mono?: boolean }

/** Everything a card shows; plain data (it also travels to the popup). */
export type ApprovalContent = {
  title: string
  /** The host page's origin as the modal's handshake verified it. */
  origin: string
  fields: ApprovalField[]
  /** Long content (a message, typed data, calldata), shown whole in a scrollable block. */
  body?: { label: string; text: string }
  /** What the transaction would change, e.g. "−0.01 ETH, +25 pUSD". */
  effects?: string
  /** Things the user must know before approving. */
  warnings: string[]
  /** Why approving cannot succeed (Approve stays unavailable), e.g. insufficient funds. */
  blocked?: string
  /** A card that only informs (e.g. a batch's status): one button, this label, no Approve. */
  dismissOnly?: string
}

/** A network as the card names it. */
export type NetworkInfo = { name: string; symbol: string; decimals: number }

/**
 * Bidirectional controls, zero-width and other invisible or look-alike format characters: a
 * message can hide text with them or make it read differently from what is signed.
 */
const HIDDEN =
  /[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF0-\uFFF8]|\u034F|[\u180B-\u180F]|[\uFE00-\uFE0F]/gu

/**
 * The text with every hidden character shown as ⟨U+XXXX⟩, and whether there was any.
 *
 * @example
 * visibleText('pay\u202Eevil') // { text: 'pay⟨U+202E⟩evil', hidden: true }
 */
export function visibleText(text: string): { text: string; hidden: boolean } {
  let hidden = false
  const shown = text.replace(HIDDEN, (char) => {
    hidden = true
    return `⟨U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}⟩`
  })
  return { text: shown, hidden }
}

/** The warning shown with text that held hidden characters (in English; cards use `t('hiddenWarning')`). */
export const HIDDEN_WARNING = en.hiddenWarning

/**
 * A `personal_sign` message as text when it is hex-encoded UTF-8 without control characters,
 * else as given.
 *
 * @example
 * readableMessage('0x6869') // 'hi'
 */
export function readableMessage(message: string): string {
  if (!isHex(message)) return message
  try {
    const text = hexToString(message)
    return /^[\P{Cc}\n\r\t]*$/u.test(text) ? text : message
  } catch {
    return message
  }
}

/**
 * The domain of a sign-in message (EIP-4361, or its Solana form) made for another site than
 * `origin`, the site asking; null when the text is no sign-in message or names that site.
 *
 * @example
 * foreignSignInDomain('bank.example wants you to sign in with your Ethereum account:\n…', 'https://evil.example') // 'bank.example'
 */
export function foreignSignInDomain(text: string, origin: string): string | null {
  const parsed = parseSiwxMessage(text)
  if (!parsed) return null
  let asking: string | undefined
  try {
    asking = new URL(origin).host
  } catch {
    // No host to compare: `asking` stays undefined and every domain counts as another site's.
  }
  return parsed.message.domain === asking ? null : parsed.message.domain
}

/** The refusal of a sign-in message for another site (an error, so English). */
export function foreignSignInMessage(domain: string, origin: string): string {
  return `This sign-in message is for ${domain}, not for the site asking (${origin || 'unknown'})`
}

/**
 * A number of base units as a decimal string with the symbol, all significant digits kept (the
 * decimal separator is the card's locale's).
 *
 * @example
 * formatValue(10n ** 16n, { symbol: 'ETH', decimals: 18 }) // '0.01 ETH'; '0,01 ETH' in German
 */
export function formatValue(value: bigint, unit: { symbol: string; decimals: number }): string {
  return `${decimal(formatUnits(value, unit.decimals))} ${unit.symbol}`
}

/**
 * The card's network line, in the card's locale.
 *
 * @example
 * networkField('Porthole Devnet', 31337) // { label: 'Network', value: 'Porthole Devnet (chain 31337)' }
 */
export function networkField(name: string, chainId: number): ApprovalField {
  return { label: t('network'), value: t('networkChain', { name, chainId }) }
}

/** Why a balance cannot pay `needed`: the text under a blocked card. */
function insufficient(balance: bigint, needed: bigint, network: NetworkInfo): string {
  return t('insufficient', {
    symbol: network.symbol,
    balance: decimal(formatUnits(balance, network.decimals)),
    needed: decimal(formatUnits(needed, network.decimals)),
  })
}

/** A call decoded with a known ABI (ERC-20, ERC-721), or null. */
export function decodeCall(data: Hex): string | null {
  for (const abi of [erc20Abi, erc721Abi]) {
    try {
      const call = decodeFunctionData({ abi, data })
      const args = (call.args ?? []).map((arg) =>
        typeof arg === 'bigint' ? arg.toString() : String(arg),
      )
      return `${call.functionName}(${args.join(', ')})`
    } catch {
      // Not a call of this ABI: try the next one, else the card shows the raw calldata.
    }
  }
  return null
}

/** A transaction fixed before the card is drawn; exactly this is signed after approval. */
export type PreparedTransaction = {
  chainId: number
  from: Hex
  to: Hex | null
  value: bigint
  data: Hex | undefined
  nonce: number
  gas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/** A balance change a simulation found: `amount` is signed (negative: leaves the account). */
export type BalanceChange = { symbol: string; decimals: number; amount: bigint }

/**
 * The balance changes, e.g. "−0.01 ETH, +25 pUSD" (a real minus sign), or null when none.
 *
 * @example
 * formatChanges([{ symbol: 'ETH', decimals: 18, amount: -(10n ** 16n) }]) // '−0.01 ETH'
 */
export function formatChanges(changes: readonly BalanceChange[]): string | null {
  const shown = changes
    .filter((change) => change.amount !== 0n)
    .map(
      (change) =>
        `${change.amount < 0n ? '−' : '+'}${formatValue(change.amount < 0n ? -change.amount : change.amount, change)}`,
    )
  return shown.length ? shown.join(', ') : null
}

/** What {@link describeTransaction} needs besides the transaction. */
export type DescribeTransactionParameters = {
  tx: PreparedTransaction
  origin: string
  network: NetworkInfo
  /** The account's native balance when the card was drawn. */
  balance: bigint
  /** Balance changes from a simulation, or null when the chain could not simulate. */
  changes: readonly BalanceChange[] | null
}

/**
 * The card of an `eth_sendTransaction`.
 *
 * @example
 * describeTransaction({ tx, origin: 'http://localhost:4000', network, balance, changes })
 */
export function describeTransaction(parameters: DescribeTransactionParameters): ApprovalContent {
  const { tx, origin, network, balance, changes } = parameters
  const fee = tx.gas * tx.maxFeePerGas
  const fields: ApprovalField[] = [
    networkField(network.name, tx.chainId),
    { label: t('from'), value: tx.from, mono: true },
    tx.to
      ? { label: t('to'), value: tx.to, mono: true }
      : { label: t('to'), value: t('contractDeployment') },
    { label: t('amount'), value: formatValue(tx.value, network) },
    { label: t('maxFee'), value: formatValue(fee, network) },
  ]
  const data = tx.data && tx.data !== '0x' ? tx.data : undefined
  if (data) {
    const call = tx.to ? decodeCall(data) : null
    if (call) fields.push({ label: t('call'), value: call, mono: true })
  }
  const warnings: string[] = []
  if (!tx.to) warnings.push(t('deploysContract'))
  const needed = tx.value + fee
  const effects = changes ? formatChanges(changes) : null
  return {
    title: t('sendTransaction'),
    origin,
    fields,
    ...(data ? { body: { label: t('data'), text: data } } : {}),
    ...(effects ? { effects } : {}),
    warnings,
    ...(balance < needed ? { blocked: insufficient(balance, needed, network) } : {}),
  }
}

/** One call of a smart-account request, as it will run. */
export type PreparedCall = { to: Hex; value: bigint; data: Hex | undefined }

/** A token as cards name its amounts. */
export type TokenUnit = { symbol: string; decimals: number }

/**
 * An ERC-20 `transfer` / `approve` / `transferFrom` by token and amount ("Transfer 25 pUSD to
 * 0x…"), when the call is one and its token is known; else null.
 *
 * @example
 * describeTokenCall(call, new Map([[pusd, { symbol: 'pUSD', decimals: 6 }]]))
 * // { text: 'Transfer 25 pUSD to 0x7099…79C8', unlimited: false }
 */
export function describeTokenCall(
  call: PreparedCall,
  tokens: ReadonlyMap<string, TokenUnit>,
): { text: string; unlimited: boolean } | null {
  const unit = tokens.get(call.to.toLowerCase())
  if (!unit || !call.data) return null
  try {
    const decoded = decodeFunctionData({ abi: erc20Abi, data: call.data })
    if (decoded.functionName === 'transfer') {
      const [to, amount] = decoded.args
      return { text: t('transferTo', { amount: formatValue(amount, unit), to }), unlimited: false }
    }
    if (decoded.functionName === 'approve') {
      const [spender, amount] = decoded.args
      const unlimited = amount === maxUint256
      return {
        text: t('approveSpend', {
          spender,
          amount: unlimited ? t('allYour', { symbol: unit.symbol }) : formatValue(amount, unit),
        }),
        unlimited,
      }
    }
    if (decoded.functionName === 'transferFrom') {
      const [from, to, amount] = decoded.args
      return {
        text: t('transferFromTo', { amount: formatValue(amount, unit), from, to }),
        unlimited: false,
      }
    }
  } catch {}
  return null
}

/** Who pays a user operation's gas, as the card says it. */
export type CallsGas =
  | { sponsored: true; sponsor: string; paymaster: Hex }
  | { sponsored: false; maxFee: bigint }

/** What {@link describeCalls} needs. */
export type DescribeCallsParameters = {
  /** 'Send transaction' for `eth_sendTransaction`, 'Send calls' for a batch. */
  title: string
  chainId: number
  /** The smart account. */
  from: Hex
  calls: readonly PreparedCall[]
  origin: string
  network: NetworkInfo
  /** Known ERC-20 tokens among the calls' targets (lower-case address → unit). */
  tokens: ReadonlyMap<string, TokenUnit>
  gas: CallsGas
  /** Whether the account has code (else this operation deploys it). */
  deployed: boolean
  /** The account's native balance when the card was drawn. */
  balance: bigint
  /** Balance changes from a simulation, or null when the chain could not simulate. */
  changes: readonly BalanceChange[] | null
}

/**
 * The card of a smart-account request (one user operation): the network, the account, every call
 * (recipient, amount, the decoded action: ERC-20 transfers and approvals by token and amount),
 * who pays the gas ('Gas paid by …' or 'You pay the gas' with the max fee), the full calldata,
 * the balance changes, and whether the balance covers the values (and the fee when the account
 * pays).
 *
 * @example
 * describeCalls({ title: 'Send calls', chainId: 31337, from, calls, origin, network, tokens,
 *   gas: { sponsored: true, sponsor: 'Porthole', paymaster }, deployed: false, balance: 0n, changes })
 */
export function describeCalls(parameters: DescribeCallsParameters): ApprovalContent {
  const { calls, network, gas } = parameters
  const fields: ApprovalField[] = [
    networkField(network.name, parameters.chainId),
    { label: t('from'), value: parameters.from, mono: true },
    {
      label: t('account'),
      value: parameters.deployed ? t('smartAccount') : t('smartAccountDeploying'),
    },
  ]
  const warnings: string[] = []
  const several = calls.length > 1
  calls.forEach((call, index) => {
    const label = (text: string) =>
      several ? t('callPrefix', { index: index + 1, label: text }) : text
    fields.push({ label: label(t('to')), value: call.to, mono: true })
    if (call.value > 0n || !several)
      fields.push({ label: label(t('amount')), value: formatValue(call.value, network) })
    const token = describeTokenCall(call, parameters.tokens)
    const action = token?.text ?? (call.data ? decodeCall(call.data) : null)
    if (action) fields.push({ label: label(t('action')), value: action, mono: !token })
    if (token?.unlimited)
      warnings.push(
        several ? t('unlimitedApprovalOf', { index: index + 1 }) : t('unlimitedApproval'),
      )
  })
  fields.push(
    gas.sponsored
      ? { label: t('gas'), value: t('gasPaidBy', { sponsor: gas.sponsor }) }
      : { label: t('gas'), value: t('youPayGas') },
  )
  if (gas.sponsored) fields.push({ label: t('paymaster'), value: gas.paymaster, mono: true })
  else fields.push({ label: t('maxFee'), value: formatValue(gas.maxFee, network) })
  const withData = calls.filter((call) => call.data)
  const body = several
    ? calls
        .map((call, index) =>
          t('callLines', {
            index: index + 1,
            to: call.to,
            value: formatValue(call.value, network),
            data: call.data ?? '0x',
          }),
        )
        .join('\n\n')
    : withData[0]?.data
  const value = calls.reduce((sum, call) => sum + call.value, 0n)
  const needed = value + (gas.sponsored ? 0n : gas.maxFee)
  const effects = parameters.changes ? formatChanges(parameters.changes) : null
  return {
    title: parameters.title,
    origin: parameters.origin,
    fields,
    ...(body ? { body: { label: several ? t('calls') : t('data'), text: body } } : {}),
    ...(effects ? { effects } : {}),
    warnings,
    ...(parameters.balance < needed
      ? { blocked: insufficient(parameters.balance, needed, network) }
      : {}),
  }
}
